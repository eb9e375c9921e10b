from typing import Any

from core.crud import Crud
from core.envelope import Envelope, ok
from core.errors import ApiError
from core.listing import ListSpec
from core.permissions import perm
from django.http import HttpRequest
from ninja import Query, Router

from tenants.jobs.models import JobLog
from tenants.jobs.schemas import JobLogOut, JobLogQuery, JobLogsData

router = Router(tags=["job-log"])

Crud(
    router=router,
    resource="job_log",
    label="Job log",
    plural="Job logs",
    model=JobLog,
    out=JobLogOut,
    create_in=JobLogQuery,
    ops=("list",),
    default_size=20,
    spec=ListSpec(
        search=("actor", "message"),
        sort={"created": "created", "status": "status"},
        filters={"status": ("status", "str"), "actor": ("actor", "str")},
        default_sort="-created",
    ),
)


@router.get(
    "/get-logs",
    response=Envelope[JobLogsData],
    auth=perm("job_log.view"),
    operation_id="job_log_for_document",
)
def get_logs(request: HttpRequest, query: Query[JobLogQuery]) -> Any:
    if not query.invoice_id and not query.bill_id:
        raise ApiError(422, "Give an invoice_id or a bill_id.")
    qs = JobLog.objects.all()
    if query.invoice_id:
        qs = qs.filter(invoice_id=query.invoice_id)
    if query.bill_id:
        qs = qs.filter(bill_id=query.bill_id)
    return ok({"logs": list(qs[:100])}, "Job logs retrieved successfully")


routes = [("/job-log", router)]
