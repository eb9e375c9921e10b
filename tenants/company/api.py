from core.crud import Crud
from core.envelope import Answer, Envelope, ok
from core.permissions import perm, register_resource
from core.storage import download_headers, open_tenant_file, save_upload
from core.uploads import upload_route
from django.http import HttpRequest, HttpResponse
from ninja import File, Form, Router
from ninja.files import UploadedFile

from tenants.company.models import CompanySettings
from tenants.company.schemas import CompanySettingsIn, CompanySettingsOut, UploadedFileOut
from tenants.company.services import create_settings, update_settings

router = Router(tags=["company-settings"])
storage_router = Router(tags=["storage"])
register_resource("file", "Files", ("view", "add"))

settings_crud = Crud(
    router=router,
    resource="company_settings",
    label="Company settings",
    plural="Company settings",
    model=CompanySettings,
    out=CompanySettingsOut,
    create_in=CompanySettingsIn,
    ops=("create", "update"),
    queryset=lambda: CompanySettings.objects.select_related("state", "city"),
    create=create_settings,
    update=update_settings,
)


@router.get(
    "",
    response=Envelope[CompanySettingsOut | None],
    auth=perm("company_settings.view"),
    operation_id="company_settings_get",
)
def get_settings(request: HttpRequest) -> Answer:
    current = settings_crud.base_queryset().first()
    return ok(current, "Company settings retrieved successfully" if current else "No company settings yet")


@storage_router.post(
    "/upload-file",
    response={201: Envelope[UploadedFileOut]},
    auth=perm("file.add"),
    operation_id="storage_upload_file",
)
@upload_route()
def upload_file(request: HttpRequest, file: File[UploadedFile], purpose: Form[str] = "logo") -> Answer:
    stored = save_upload(file, purpose)
    return ok(stored.__dict__, "File uploaded successfully", status=201)


@storage_router.get(
    "/files/{path:key}",
    auth=perm("file.view"),
    operation_id="storage_file",
    response={200: bytes},
    openapi_extra={"responses": {"200": {"description": "The file's bytes"}}},
)
def get_file(request: HttpRequest, key: str) -> HttpResponse:
    data, content_type = open_tenant_file(key)
    response = HttpResponse(data, content_type=content_type)
    for header, value in download_headers(key, content_type).items():
        response[header] = value
    return response


routes = [("/company-settings", router), ("/storage", storage_router)]
