"""Routes of the fee catalogue."""

from core.crud import Crud
from core.listing import ListSpec
from ninja import Router

from tenants.pricing import selectors
from tenants.pricing.models import (
    Fee,
)
from tenants.pricing.schemas import (
    FeeDefinitionIn,
    FeeOut,
    FeeQuery,
)

# --- fees ----------------------------------------------------------------------------------------
fee_router = Router(tags=["fee"])
Crud(
    router=fee_router,
    resource="fee",
    label="Fee",
    model=Fee,
    out=FeeOut,
    create_in=FeeDefinitionIn,
    ops=("list", "get", "create", "update", "delete"),
    default_size=25,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    computed=("subtotal", "customer_name"),
    extra_columns=("customer__name",),
    fill_rows=selectors.fill_fee_rows,
    queryset=selectors.fees,
    filters=FeeQuery,
    apply_filters=selectors.filter_fees,
    spec=ListSpec(
        search=("name", "fee_code", "erp_code", "description"),
        sort={
            "name": "name",
            "fee_code": "fee_code",
            "fee_type": "fee_type",
            "rate": "rate",
            "created_at": "created_at",
        },
        filters={"name": ("name", "str"), "fee_code": ("fee_code", "str"), "rate": ("rate", "decimal")},
        default_sort="name",
    ),
)
