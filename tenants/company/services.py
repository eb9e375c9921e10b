from __future__ import annotations

from typing import Any

from core.crud import save_object
from core.errors import ApiError
from core.storage import tenant_prefix
from django.db import transaction

from tenants.company.models import CompanySettings


def _check(data: dict[str, Any]) -> dict[str, Any]:
    prefix = tenant_prefix()
    for logo in data.get("logo") or []:
        if not str(logo.get("file_key", "")).startswith(prefix):
            raise ApiError(422, "logo: the file must be one uploaded by this company.")
    if data.get("email") is None:
        data["email"] = ""
    if data.get("state_id") and data.get("city_id"):
        from tenants.geo.models import City

        city = City.objects.filter(pk=data["city_id"]).first()
        if city is not None and city.state_id != data["state_id"]:
            raise ApiError(422, "city_id: this city is not in the chosen state.")
    return data


def create_settings(data: dict[str, Any]) -> CompanySettings:
    with transaction.atomic():
        if CompanySettings.objects.select_for_update().exists():
            raise ApiError(409, "Company settings already exist: update them instead.")
        return save_object(CompanySettings(), _check(data))  # type: ignore[return-value]


def update_settings(obj: CompanySettings, data: dict[str, Any]) -> CompanySettings:
    merged = {"state_id": obj.state_id, "city_id": obj.city_id, **data}
    _check(merged)
    if "email" in data and data["email"] is None:
        data["email"] = ""
    return save_object(obj, data)  # type: ignore[return-value]
