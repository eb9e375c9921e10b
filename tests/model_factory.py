"""Rows for every tenant model, made from the models' own field definitions, so the cross-tenant
suites cover models added later without extra code."""

from __future__ import annotations

import datetime as dt
import decimal
import itertools
from typing import Any

from django.apps import apps
from django.conf import settings
from django.db import models

_counter = itertools.count(1)


def tenant_models() -> list[type[models.Model]]:
    labels = {app.rsplit(".", 1)[-1] for app in settings.TENANT_APPS}
    found = [m for m in apps.get_models() if m._meta.app_label in labels and not m._meta.proxy]
    return _topological(found)


def _topological(found: list[type[models.Model]]) -> list[type[models.Model]]:
    ordered: list[type[models.Model]] = []
    pending = list(found)
    while pending:
        progressed = False
        for model in list(pending):
            deps = {
                f.related_model
                for f in model._meta.concrete_fields
                if isinstance(f, models.ForeignKey) and not f.null and f.related_model is not model
            }
            if all(d in ordered or d not in found for d in deps):
                ordered.append(model)
                pending.remove(model)
                progressed = True
        if not progressed:  # a cycle: keep the rest in any order
            ordered.extend(pending)
            break
    return ordered


def _value(field: models.Field, n: int) -> Any:
    if field.choices:
        return field.choices[0][0]
    if isinstance(field, models.EmailField):
        return f"row{n}@factory.test"
    if isinstance(field, models.URLField):
        return f"https://example.com/{n}"
    if isinstance(field, models.SlugField):
        return f"row-{n}"
    if isinstance(field, models.GenericIPAddressField):
        return "127.0.0.1"
    if isinstance(field, (models.CharField, models.TextField)):
        limit = field.max_length or 30
        return f"R{n}"[:limit] if limit < 8 else f"Row {n}"[:limit]
    if isinstance(field, models.BooleanField):
        return True
    if isinstance(field, models.DecimalField):
        return decimal.Decimal("1")
    if isinstance(field, (models.IntegerField, models.FloatField)):
        return 1
    if isinstance(field, models.DateTimeField):
        return dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    if isinstance(field, models.DateField):
        return dt.date(2026, 1, 1)
    if isinstance(field, models.UUIDField):
        import uuid

        return uuid.uuid4()
    if isinstance(field, models.JSONField):
        return [] if callable(field.default) and field.default is list else {}
    from django.contrib.postgres.fields import ArrayField

    if isinstance(field, ArrayField):
        return []
    return None


def make_row(model: type[models.Model], made: dict[type[models.Model], list[models.Model]]) -> models.Model:
    n = next(_counter)
    values: dict[str, Any] = {}
    for field in model._meta.concrete_fields:
        if field.primary_key or getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
            continue
        if isinstance(field, models.ForeignKey):
            related = made.get(field.related_model) or list(field.related_model._default_manager.all()[:1])
            if related:
                values[field.name] = related[-1]
            elif not field.null:
                values[field.name] = make_row(field.related_model, made)
            continue
        if field.has_default() or field.null:
            continue
        values[field.name] = _value(field, n)
    obj = model._default_manager.create(**values)
    made.setdefault(model, []).append(obj)
    return obj


def fill_tenant(rows_per_model: int) -> dict[str, int]:
    made: dict[type[models.Model], list[models.Model]] = {}
    for model in tenant_models():
        for _ in range(rows_per_model):
            try:
                from django.db import transaction

                with transaction.atomic():
                    make_row(model, made)
            except Exception:
                continue
    return {m._meta.label: len(v) for m, v in made.items()}


def table_fingerprint() -> dict[str, str]:
    """md5 of every tenant table's full content in the active schema."""
    from django.db import connection

    out: dict[str, str] = {}
    with connection.cursor() as cur:
        for model in tenant_models():
            table = model._meta.db_table
            cur.execute(
                f"SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM \"{table}\" t"
            )
            out[table] = cur.fetchone()[0]
    return out


def required_list_params(resource: str) -> dict[str, Any]:
    """The query parameters a kit list cannot answer without (in the active schema): the customer
    assets of the customer of the first asset."""
    if resource == "asset":
        from tenants.parties.models import CustomerAsset

        first = CustomerAsset.objects.order_by("pk").values("customer_id").first()
        return {"customer_id": first["customer_id"]} if first else {}
    return {}
