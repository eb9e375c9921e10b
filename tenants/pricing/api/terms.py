"""Routes of payment terms and payment methods (both plain kit resources)."""

from core.crud import Crud
from core.listing import ListSpec
from ninja import Router

from tenants.pricing import selectors, services
from tenants.pricing.models import (
    PaymentMethod,
    PaymentTerm,
)
from tenants.pricing.schemas import (
    PaymentMethodIn,
    PaymentMethodOut,
    PaymentMethodQuery,
    PaymentTermIn,
    PaymentTermOut,
    PaymentTermQuery,
)

payment_term_router = Router(tags=["payment-term"])
payment_method_router = Router(tags=["payment-method"])
ALL_OPS = ("list", "all", "get", "create", "update", "delete")

Crud(
    router=payment_term_router,
    resource="payment_term",
    label="Payment term",
    model=PaymentTerm,
    out=PaymentTermOut,
    create_in=PaymentTermIn,
    ops=ALL_OPS,
    default_size=25,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    computed=("summary",),
    fill_rows=selectors.fill_payment_term_rows,
    filters=PaymentTermQuery,
    apply_filters=selectors.filter_payment_terms,
    create=services.create_payment_term,
    update=services.save_payment_term,
    spec=ListSpec(
        search=("name",),
        sort={
            "name": "name",
            "net_days": "net_days",
            "discount_percent": "discount_percent",
            "is_default": "is_default",
            "created_at": "created_at",
        },
        filters={
            "name": ("name", "str"),
            "net_days": ("net_days", "int"),
            "discount_percent": ("discount_percent", "decimal"),
            "is_default": ("is_default", "bool"),
        },
        default_sort="net_days",
    ),
)

Crud(
    router=payment_method_router,
    resource="payment_method",
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    label="Payment method",
    model=PaymentMethod,
    out=PaymentMethodOut,
    create_in=PaymentMethodIn,
    ops=ALL_OPS,
    default_size=25,
    filters=PaymentMethodQuery,
    apply_filters=selectors.filter_payment_methods,
    spec=ListSpec(
        search=("name", "code"),
        sort={"name": "name", "code": "code", "is_active": "is_active", "created_at": "created_at"},
        filters={"name": ("name", "str"), "code": ("code", "str"), "is_active": ("is_active", "bool")},
        default_sort="name",
    ),
)
