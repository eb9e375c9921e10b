from typing import Any

from core.fields import Email
from ninja import Field, Schema

from tenants.geo.schemas import CityRef, StateOut


class LogoFile(Schema):
    """A stored logo as the server describes it (it builds every field from the file's key)."""

    file_key: str = Field(..., max_length=500)
    file_name: str = Field(..., max_length=200)
    file_path: str = Field(..., max_length=500)
    full_path: str = Field(..., max_length=500)
    file_url: str = Field(..., max_length=600)


class LogoRef(Schema):
    """A logo is given by the key of a file this company uploaded (`POST /storage/upload-file` with
    purpose `logo`); anything else sent with it (names, URLs) is ignored."""

    file_key: str = Field(..., min_length=1, max_length=500)


class CompanySettingsIn(Schema):
    company_name: str = Field(..., min_length=1, max_length=200)
    address_one: str = Field("", max_length=200)
    address_two: str = Field("", max_length=200)
    state_id: int | None = Field(None, ge=1)
    city_id: int | None = Field(None, ge=1)
    zip_code: str = Field("", max_length=20)
    postal_code: str = Field("", max_length=20)
    phone_number: str = Field("", max_length=40)
    email: Email | None = None
    website_url: str = Field("", max_length=200)
    logo: list[LogoRef] = Field(default_factory=list, max_length=5)


class CompanySettingsOut(Schema):
    id: int
    company_name: str
    address_one: str
    address_two: str
    state_id: int | None
    city_id: int | None
    zip_code: str
    postal_code: str
    phone_number: str
    email: str
    website_url: str
    logo: list[LogoFile]
    state: StateOut | None

    @staticmethod
    def resolve_logo(obj: Any) -> list[dict[str, str]]:
        # Built from the stored keys on every read: a stored URL is never echoed back.
        from tenants.company.services import describe_logos

        return describe_logos(obj.logo)

    city: CityRef | None


class UploadedFileOut(Schema):
    file_key: str
    file_name: str
    file_path: str
    full_path: str
    file_url: str
    content_type: str
    size: int
