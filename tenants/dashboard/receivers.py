"""The sales orders' changes keep the dashboard's rollup in step (rollup.py). Django signals of the
sales models: every write path of tenants/sales saves or deletes through the ORM (the one queryset
`.update()` there sets `price_fixed`, which the rollup does not read)."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_save

from tenants.dashboard import rollup
from tenants.sales.models import LineItem, SalesOrder

# Order fields a line's contribution depends on; a save that names none of them changes nothing.
_ORDER_FIELDS = {"status", "planned_date", "delivered_at"}


def on_line_saved(sender: Any, instance: LineItem, raw: bool = False, **_: Any) -> None:
    if not raw:
        rollup.line_changed(instance.pk, instance.sales_order_id)


def on_line_deleted(sender: Any, instance: LineItem, **_: Any) -> None:
    rollup.line_deleted(instance.pk, instance.sales_order_id)


def on_order_saved(
    sender: Any,
    instance: SalesOrder,
    created: bool = False,
    raw: bool = False,
    update_fields: Any = None,
    **_: Any,
) -> None:
    # A new order has no lines yet (but counts in the KPI tiles); a save naming none of the fields
    # that count moves nothing.
    if raw or (update_fields is not None and not (_ORDER_FIELDS & set(update_fields))):
        return
    if created:
        rollup.mark_changed()
        return
    rollup.order_changed(instance.pk)


def on_order_deleted(sender: Any, instance: SalesOrder, **_: Any) -> None:
    rollup.order_deleted(instance.pk)


post_save.connect(on_line_saved, sender=LineItem, dispatch_uid="dashboard-line-saved")
post_delete.connect(on_line_deleted, sender=LineItem, dispatch_uid="dashboard-line-deleted")
post_save.connect(on_order_saved, sender=SalesOrder, dispatch_uid="dashboard-order-saved")
post_delete.connect(on_order_deleted, sender=SalesOrder, dispatch_uid="dashboard-order-deleted")
