"""Reads of the company profile for other domains (documents, email)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tenants.company.models import CompanySettings


@dataclass(frozen=True)
class CompanyProfile:
    name: str
    address: list[str] = field(default_factory=list)
    phone: str = ""
    email: str = ""
    website: str = ""
    # The storage key of the first logo file, when the company uploaded one.
    logo_key: str = ""


def company_profile() -> CompanyProfile | None:
    settings = CompanySettings.objects.select_related("state", "city").first()
    if settings is None:
        return None
    city_line = ", ".join(
        part
        for part in (
            settings.city.name if settings.city else "",
            " ".join(
                p
                for p in (
                    settings.state.code if settings.state else "",
                    settings.zip_code or settings.postal_code,
                )
                if p
            ),
        )
        if part
    )
    address = [line for line in (settings.address_one, settings.address_two, city_line) if line]
    logos = settings.logo or []
    logo_key = str(logos[0].get("file_key", "")) if logos and isinstance(logos[0], dict) else ""
    return CompanyProfile(
        name=settings.company_name,
        address=address,
        phone=settings.phone_number,
        email=settings.email,
        website=settings.website_url,
        logo_key=logo_key,
    )
