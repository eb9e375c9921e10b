import datetime as dt
from decimal import Decimal as D

from tenants.pricing.services import LineRequest, price_document


def test_demo_pricing_seed_gives_real_explained_prices(tenant_a, in_tenant, api_a):
    from tenants.demo import catalog_parties
    from tenants.demo import pricing as demo_pricing
    from tenants.parties.models import ShipTo
    from tenants.pricing.models import BuyingPrice, Fee, PricingRule, Tax

    today = dt.date(2026, 3, 10)
    with in_tenant(tenant_a):
        catalog_parties.seed()
        demo_pricing.seed(today)
        counts = (
            Tax.objects.count(),
            Fee.objects.count(),
            PricingRule.objects.count(),
            BuyingPrice.objects.count(),
        )
        demo_pricing.seed(today)
        assert (
            Tax.objects.count(),
            Fee.objects.count(),
            PricingRule.objects.count(),
            BuyingPrice.objects.count(),
        ) == counts
        assert counts[0] == 6 and counts[1] == 4 and counts[2] == 2 and counts[3] > 500
        houston = (
            ShipTo.objects.filter(
                state__code="TX", customer__customer_pricing_type="standard", customer__tax_exempt=False
            )
            .select_related("customer")
            .first()
        )
        from tenants.catalog.models import Product

        diesel = Product.objects.get(code="ULSD-CLR")
        doc = price_document(
            customer_id=houston.customer_id,
            ship_to_id=houston.id,
            lines=[LineRequest("1", diesel.id, D("3000"))],
            pricing_date=today + dt.timedelta(days=1),
        )
    line = doc.lines[0]
    assert line.breakdown["basis"] == "rack" and line.breakdown["rule_name"].startswith("Fuel: lowest rack")
    assert {t.code for t in line.taxes} == {"FET-DSL", "TX-MFT"}
    assert doc.total == doc.subtotal + doc.tax_total
    res = api_a.get("/api/buying-price/board", {"date": today.isoformat()})
    assert res.status_code == 200 and len(res.json()["data"]["cells"]) > 20
