from core.crud import Crud
from core.envelope import Answer, Envelope, ok
from core.errors import ApiError
from core.listing import ListSpec
from core.permissions import perm, register_resource
from django.http import HttpRequest
from ninja import Query, Router

from tenants.jobs import selectors, services
from tenants.jobs.models import JobLog
from tenants.jobs.schemas import JobKindOut, JobLogFilters, JobLogOut, JobLogQuery, JobLogsData

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
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    computed=("can_retry",),
    extra_columns=("retryable",),
    fill_rows=selectors.fill_job_log_rows,
    queryset=selectors.job_logs,
    filters=JobLogFilters,
    apply_filters=selectors.filter_job_logs,
    spec=ListSpec(
        search=("message", "document_label", "error", "started_by_name"),
        sort={"created": "created", "status": "status", "kind": "kind", "finished_at": "finished_at"},
        filters={
            "status": ("status", "str"),
            "kind": ("kind", "str"),
            "actor": ("actor", "str"),
            "created": ("created", "datetime"),
        },
        default_sort="-created",
    ),
)
register_resource("job_log", "Job logs", ("retry",))


@router.get(
    "/get-logs",
    response=Envelope[JobLogsData],
    auth=perm("job_log.view"),
    operation_id="job_log_for_document",
    summary="The job log of one invoice or bill",
)
def get_logs(request: HttpRequest, query: Query[JobLogQuery]) -> Answer:
    if not query.invoice_id and not query.bill_id:
        raise ApiError(422, "Give an invoice_id or a bill_id.")
    logs = selectors.logs_for_document(query.invoice_id, query.bill_id)
    return ok({"logs": logs, "items": logs}, "Job logs retrieved successfully")


@router.get(
    "/kinds",
    response=Envelope[list[JobKindOut]],
    auth=perm("job_log.view"),
    operation_id="job_log_kinds",
    summary="The kinds of background job (the job log's kind filter)",
)
def kinds(request: HttpRequest) -> Answer:
    return ok(selectors.job_kinds(), "Job kinds retrieved successfully")


@router.post(
    "/{int:id}/retry",
    response=Envelope[JobLogOut],
    auth=perm("job_log.retry"),
    operation_id="job_log_retry",
    summary="Run a failed job again (only jobs that are safe to run twice)",
)
def retry(request: HttpRequest, id: int) -> Answer:
    entry = services.retry_job(id)
    fresh = JobLog.objects.filter(retry_of=entry).order_by("-id").first()
    return ok(fresh or entry, "The job was queued again.")


routes = [("/job-log", router)]
