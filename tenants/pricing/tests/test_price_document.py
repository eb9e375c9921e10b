"""price_document against the database: the loader's queries are bounded and the result explained."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tenants.catalog.models import Product
from tenants.pricing import services
from tenants.pricing.models import BuyingPrice
from tenants.pricing.services import FeeRequest, LineRequest, PricingError, price_document
from tenants.pricing.signals import rack_price_changed
from tenants.pricing.tests.factories import DAY, make_world


def test_price_document_explains_and_adds_up(tenant_a, in_tenant):
    with in_tenant(tenant_a):
        w = make_world()
        doc = price_document(
            customer_id=w.customer.id,
            ship_to_id=w.ship_to.id,
            lines=[LineRequest("L1", w.diesel.id, D("3000"))],
            pricing_date=DAY,
            fees=[FeeRequest("F1", w.fees["ENV"].id), FeeRequest("F2", w.fees["DEL"].id)],
        )
        source = BuyingPrice.objects.get(supplier=w.supplier, product=w.diesel).id
    (line,) = doc.lines
    assert line.unit_price == D("2.3800") and line.amount == D("7140.00")
    assert line.breakdown["buying_price_id"] == source
    assert line.breakdown["rule_id"] == w.rule.id and line.breakdown["supplier_id"] == w.supplier.id
    assert {t.code: t.amount for t in line.taxes} == {
        "FET": D("732.00"),
        "TXD": D("600.00"),
        "ST": D("492.00"),
        "HOU": D("0.00"),
    }
    # the sales tax's rate row is the one in force on the day (6.25 %, not the 6 % that ended)
    st = next(t for t in line.taxes if t.code == "ST")
    assert st.rate == D("6.25")
    assert doc.total == D("9181.80")


def test_price_document_query_count_does_not_grow_with_lines(tenant_a, in_tenant):
    with in_tenant(tenant_a):
        w = make_world(n_products=50)
        products = list(Product.objects.values_list("id", flat=True))
        fees = [FeeRequest("F1", w.fees["ENV"].id), FeeRequest("F2", w.fees["DEL"].id)]
        with CaptureQueriesContext(connection) as two:
            price_document(
                customer_id=w.customer.id,
                ship_to_id=w.ship_to.id,
                lines=[LineRequest(str(i), p, D("100")) for i, p in enumerate(products[:2])],
                pricing_date=DAY,
                fees=fees,
            )
        with CaptureQueriesContext(connection) as fifty:
            doc = price_document(
                customer_id=w.customer.id,
                ship_to_id=w.ship_to.id,
                lines=[LineRequest(str(i), p, D("100")) for i, p in enumerate(products)],
                pricing_date=DAY,
                fees=fees,
            )
    assert len(doc.lines) == 50
    # django-tenants sets the search path before each statement: count the statements themselves
    statements = [q["sql"] for q in fifty.captured_queries if not q["sql"].startswith("SET search_path")]
    assert len(fifty) == len(two) and len(statements) <= 10, statements


def test_pricing_errors_name_what_is_missing(tenant_a, in_tenant):
    with in_tenant(tenant_a):
        w = make_world()
        with pytest.raises(PricingError, match="Customer 999999 not found"):
            price_document(customer_id=999999, ship_to_id=None, lines=[], pricing_date=DAY)
        with pytest.raises(PricingError, match="No price found for ULSD Clear"):
            price_document(
                customer_id=w.customer.id,
                ship_to_id=None,
                lines=[LineRequest("L", w.diesel.id, D("1"))],
                pricing_date=DAY - dt.timedelta(days=1),
            )


def test_buying_price_in_force_and_open_prices_closed_by_the_next(tenant_a, in_tenant):
    with in_tenant(tenant_a):
        w = make_world()
        nxt = DAY + dt.timedelta(days=1)
        services.save_buying_price(
            dict(
                supplier_id=w.supplier.id,
                terminal_id=w.terminal.id,
                product_id=w.diesel.id,
                price=D("2.2012"),
                effective_from=nxt,
            )
        )
        first = BuyingPrice.objects.get(supplier=w.supplier, product=w.diesel, effective_from=DAY)
        assert first.effective_to == DAY
        named = services.buying_price_in_force(
            product_id=w.diesel.id, terminal_id=w.terminal.id, supplier_id=w.supplier.id, on=nxt
        )
        assert named is not None and named.price == D("2.2012")
        lowest = services.buying_price_in_force(
            product_id=w.diesel.id, terminal_id=w.terminal.id, supplier_id=None, on=nxt, basis="lowest"
        )
        assert lowest is not None and lowest.price == D("2.19") and lowest.supplier_id == w.supplier_b.id
        avg = services.buying_price_in_force(
            product_id=w.diesel.id, terminal_id=None, supplier_id=None, on=DAY, basis="average"
        )
        assert avg is not None and avg.price == D("2.1700")
        assert (
            services.buying_price_in_force(
                product_id=w.diesel.id,
                terminal_id=w.terminal.id,
                supplier_id=w.supplier.id,
                on=DAY - dt.timedelta(1),
            )
            is None
        )


def test_saving_a_rack_price_signals_on_commit(tenant_a, in_tenant, django_capture_on_commit_callbacks):
    seen = []

    def receiver(sender, **kw):
        seen.append(kw)

    rack_price_changed.connect(receiver)
    try:
        with in_tenant(tenant_a):
            w = make_world()
            with django_capture_on_commit_callbacks(execute=True):
                services.save_buying_price(
                    dict(
                        supplier_id=w.supplier.id,
                        terminal_id=w.terminal.id,
                        product_id=w.gas.id,
                        price=D("2.5"),
                        effective_from=DAY,
                    )
                )
    finally:
        rack_price_changed.disconnect(receiver)
        # Other apps' receivers (sales) queued their jobs on the stub broker: leave nothing behind.
        import dramatiq

        dramatiq.get_broker().flush_all()
    assert seen and seen[0]["product_id"] == w.gas.id and seen[0]["effective_from"] == DAY
