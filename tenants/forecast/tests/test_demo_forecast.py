def test_the_demo_has_keep_full_tanks_with_history_and_a_due_list(tenant_a, in_tenant, api_a):
    from tenants.delivery.models import DeliveryTicketLine
    from tenants.demo import seed_master_data
    from tenants.forecast.models import TankForecast, TankReading, TankSettings

    with in_tenant(tenant_a):
        seed_master_data()
        # The forecast demo's 8 tanks (the routing demo adds DEMO-KF-1, due today near its orders).
        assert TankSettings.objects.filter(program="keep_full", asset__serial_number="DEMO-KF-1").exists()
        keep_full = TankSettings.objects.filter(program="keep_full").exclude(asset__serial_number="DEMO-KF-1")
        assert keep_full.count() == 8
        tanks = list(keep_full.values_list("asset_id", flat=True))
        assert (
            DeliveryTicketLine.objects.filter(tank_id__in=tanks, level_before_percent__isnull=False).count()
            >= 8
        )
        assert TankReading.objects.filter(asset_id__in=tanks, source="driver").exists()
        forecasts = TankForecast.objects.filter(asset_id__in=tanks)
        assert forecasts.filter(cannot_forecast="").count() == 8
        # Tanks with a monitor have weekly readings; the others rest on their fills (at least the 6 with one).
        assert sum(1 for f in forecasts if f.fit["n_intervals"] >= 1) >= 6
        seed_master_data()  # idempotent
        assert TankSettings.objects.filter(program="keep_full").count() == 9
    due = api_a.get("/api/forecast/due", {"within_days": 14}).json()["data"]["rows"]
    assert len(due) >= 1
