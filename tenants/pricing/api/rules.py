"""Routes of pricing rules."""

from core.crud import Crud
from core.listing import ListSpec
from ninja import Router

from tenants.pricing import selectors, services
from tenants.pricing.models import (
    SCOPE_NAME_COLUMNS,
    PricingRule,
)
from tenants.pricing.schemas import (
    PricingRuleIn,
    PricingRuleOut,
    PricingRuleQuery,
)

# --- pricing rules -------------------------------------------------------------------------------
pricing_rule_router = Router(tags=["pricing-rule"])
Crud(
    router=pricing_rule_router,
    resource="pricing_rule",
    label="Pricing rule",
    model=PricingRule,
    out=PricingRuleOut,
    create_in=PricingRuleIn,
    ops=("list", "get", "create", "update", "delete"),
    default_size=25,
    pure_queries=True,  # its queryset and filters read only the parameters (core/listsql.py)
    computed=("specificity", "scope"),
    extra_columns=SCOPE_NAME_COLUMNS,
    fill_rows=selectors.fill_pricing_rule_rows,
    queryset=selectors.pricing_rules,
    filters=PricingRuleQuery,
    apply_filters=selectors.filter_pricing_rules,
    create=services.create_pricing_rule,
    update=services.save_pricing_rule,
    spec=ListSpec(
        search=("name", "customer__name", "product__name", "category__name"),
        sort={"name": "name", "priority": "priority", "basis": "basis", "created_at": "created_at"},
        filters={"name": ("name", "str"), "basis": ("basis", "str"), "priority": ("priority", "int")},
        default_sort="-priority",
    ),
)
