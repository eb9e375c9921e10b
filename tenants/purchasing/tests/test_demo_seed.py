from collections import Counter


def test_demo_purchase_orders_seed_once(tenant_a, in_tenant):
    from tenants.demo import seed_master_data
    from tenants.purchasing.models import Bill, PurchaseOrder

    with in_tenant(tenant_a):
        seed_master_data()
        demo = PurchaseOrder.objects.filter(reference__startswith="DEMO-PO-")
        assert Counter(demo.values_list("status", flat=True)) == {"draft": 1, "ordered": 1, "received": 1}
        received = demo.get(status="received")
        assert received.receipts.count() == 1 and received.total > 0
        bill = Bill.objects.get(purchase_order=received)
        assert bill.match_status == "matched" and bill.status == "draft"
        seed_master_data()
        assert demo.count() == 3 and Bill.objects.filter(purchase_order=received).count() == 1
