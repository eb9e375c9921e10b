from collections import Counter


def test_demo_orders_cover_every_status_and_seed_once(tenant_a, in_tenant):
    from tenants.demo import seed_master_data
    from tenants.sales.models import SalesOrder

    with in_tenant(tenant_a):
        seed_master_data()
        # The sales demo's own orders (DEMO-10xx); the route planner's demo day adds DEMO-RT-xx.
        sales_demo = SalesOrder.objects.filter(po_number__startswith="DEMO-10")
        statuses = Counter(sales_demo.values_list("status", flat=True))
        assert statuses == {
            "draft": 2,
            "verified": 3,
            "assigned": 3,
            "in_delivery": 1,
            "delivered": 1,
            "completed": 1,
            "cancelled": 1,
        }
        priced = SalesOrder.objects.filter(po_number="DEMO-1003").get()
        assert priced.total > 0 and all(ln.unit_price for ln in priced.line_items.all())
        assert SalesOrder.objects.get(po_number="DEMO-1005").stop_sequence == 2
        planner_day = SalesOrder.objects.filter(po_number__startswith="DEMO-RT-")
        planned_before = planner_day.count()
        assert planned_before > 0
        seed_master_data()
        assert sales_demo.count() == 12
        assert planner_day.count() == planned_before  # seeded once too
