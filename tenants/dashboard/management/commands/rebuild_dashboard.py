"""Recompute the dashboard's rollup of the current tenant from its orders:
`manage.py tenant_command rebuild_dashboard --schema=<schema>`."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tenants.dashboard import rollup


class Command(BaseCommand):
    help = "Recompute the dashboard's product-day rollup from the sales orders (current tenant schema)."

    def handle(self, *args: Any, **options: Any) -> None:
        lines = rollup.rebuild()
        self.stdout.write(f"Rollup rebuilt from {lines} order lines.")
