def test_the_demo_driver_has_stops_today_on_a_truck_once(tenant_a, in_tenant):
    from django.utils import timezone

    from tenants.demo import seed_master_data
    from tenants.sales.models import SalesOrder

    with in_tenant(tenant_a):
        seed_master_data()
        today = timezone.localdate()
        mine = SalesOrder.objects.filter(
            po_number__startswith=f"DEMODRV-{today:%Y%m%d}-", driver__user__email="driver@demo.fueldesk.test"
        )
        assert mine.count() == 3
        assert {(o.status, o.planned_date, o.truck.asset_number) for o in mine} == {
            ("assigned", today, "T-102")
        }
        assert all(o.stop_sequence for o in mine)
        seed_master_data()
        assert SalesOrder.objects.filter(po_number__startswith="DEMODRV-").count() == 3
