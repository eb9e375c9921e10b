from core.envelope import Answer, Envelope, ok
from core.errors import ApiError
from core.permissions import perm, register_resource
from django.http import HttpRequest, HttpResponse
from ninja import Router

from tenants.dataexport import services
from tenants.dataexport.models import DataExport
from tenants.dataexport.schemas import DataExportOut, DataExportsData

router = Router(tags=["data-export"])
# Admin only: the whole company's data in one file. No seeded role but Admin (which holds every
# code) gets it (tenants/accounts/roles.ADMIN_ONLY_PERMISSIONS).
register_resource("company_data", "Company data", ("export",))
EXPORT = "company_data.export"


def _get(export_id: int) -> DataExport:
    export = DataExport.objects.filter(pk=export_id).first()
    if export is None:
        raise ApiError(404, "Data export not found")
    return export


@router.post(
    "",
    response={201: Envelope[DataExportOut]},
    auth=perm(EXPORT),
    operation_id="data_export_start",
    summary="Start building a zip of all the company's data",
    description="Every list as CSV, every document as PDF and every uploaded file, built by the worker "
    "(job log kind `data_export`). 409 while another export is being built.",
)
def start(request: HttpRequest) -> Answer:
    export = services.start_export(request.auth)
    return ok(DataExportOut.from_orm(export), "The export is being built", status=201)


@router.get(
    "",
    response=Envelope[DataExportsData],
    auth=perm(EXPORT),
    operation_id="data_export_list",
    summary="The latest exports, newest first, with their progress",
)
def list_exports(request: HttpRequest) -> Answer:
    items = [DataExportOut.from_orm(e) for e in DataExport.objects.all()[:10]]
    return ok({"items": items}, "Data exports retrieved successfully")


@router.get(
    "/{export_id}",
    response=Envelope[DataExportOut],
    auth=perm(EXPORT),
    operation_id="data_export_get",
    summary="One export and its progress",
)
def get_export(request: HttpRequest, export_id: int) -> Answer:
    return ok(DataExportOut.from_orm(_get(export_id)), "Data export retrieved successfully")


@router.get(
    "/{export_id}/download",
    auth=perm(EXPORT),
    operation_id="data_export_download",
    response={200: bytes},
    openapi_extra={"responses": {"200": {"description": "The zip", "content": {"application/zip": {}}}}},
    summary="The zip of a ready export (409 before it is ready)",
)
def download(request: HttpRequest, export_id: int) -> HttpResponse:
    export = _get(export_id)
    data = services.open_export(export)
    response = HttpResponse(data, content_type="application/zip")
    name = export.file_key.rsplit("/", 1)[-1]
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


routes = [("/data-export", router)]
