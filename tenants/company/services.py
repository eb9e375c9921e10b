from __future__ import annotations

from typing import Any

from core.crud import save_object
from core.errors import ApiError
from core.storage import FILES_URL, KEY_RE, resolve_tenant_file, tenant_prefix
from django.db import transaction

from tenants.company.models import CompanySettings


def describe_logos(stored: Any) -> list[dict[str, str]]:
    """What the API shows of the stored logos: every field built here from a well-formed key of
    this company (rows written before keys were checked lose anything else)."""
    out = []
    prefix = tenant_prefix()
    for item in stored if isinstance(stored, list) else []:
        key = item.get("file_key") if isinstance(item, dict) else None
        if not isinstance(key, str) or not key.startswith(prefix) or not KEY_RE.match(key):
            continue
        out.append(
            {
                "file_key": key,
                "file_name": key.rsplit("/", 1)[-1],
                "file_path": key.removeprefix(prefix),
                "full_path": key,
                "file_url": f"{FILES_URL}{key}",
            }
        )
    return out


def _check(data: dict[str, Any]) -> dict[str, Any]:
    if "logo" in data and data["logo"] is not None:
        logos = []
        for n, logo in enumerate(data["logo"]):
            stored = resolve_tenant_file(logo.get("file_key"), purposes={"logo"}, field=f"logo.{n}.file_key")
            logos.append({"file_key": stored.file_key})
        data["logo"] = logos
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
    if "logo" in data:
        data["logo"] = merged["logo"] if merged["logo"] is not None else []
    if "email" in data and data["email"] is None:
        data["email"] = ""
    return save_object(obj, data)  # type: ignore[return-value]
