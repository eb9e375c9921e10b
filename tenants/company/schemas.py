from core.fields import Email
from ninja import Field, Schema

from tenants.geo.schemas import CityRef, StateOut


class LogoFile(Schema):
    file_key: str = Field(..., max_length=500)
    file_name: str = Field(..., max_length=200)
    file_path: str = Field(..., max_length=500)
    full_path: str = Field(..., max_length=500)
    file_url: str = Field(..., max_length=600)


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
    logo: list[LogoFile] = Field(default_factory=list, max_length=5)


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
    city: CityRef | None


class UploadedFileOut(Schema):
    file_key: str
    file_name: str
    file_path: str
    full_path: str
    file_url: str
    content_type: str
    size: int
