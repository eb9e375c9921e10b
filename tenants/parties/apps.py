from typing import Any

from django.apps import AppConfig


class PartiesConfig(AppConfig):
    name = "tenants.parties"
    label = "parties"

    def ready(self) -> None:
        from core.signals import tenant_provisioned

        tenant_provisioned.connect(_seed_new_company, dispatch_uid="parties.seed_new_company")


def _seed_new_company(sender: Any, **kwargs: Any) -> None:
    from tenants.parties.services import ensure_default_services

    ensure_default_services()
