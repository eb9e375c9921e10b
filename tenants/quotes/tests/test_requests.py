"""The quote request list, closing a request, and stopping the inbox agent (each route's happy path)."""

from __future__ import annotations

from tenants.parties.tests.helpers import created, product, supplier, terminal


def test_requests_are_listed_newest_first_and_a_closed_one_is_no_longer_matched_by_sender(
    api_a, jobs, django_capture_on_commit_callbacks, in_tenant, tenant_a
):
    ulsd = product(api_a, "ULSD")
    galena = terminal(api_a)
    gulf = supplier(api_a, "Gulf Coast Fuels", email="sales@gulf.test")
    body = {
        "quote_date": "2026-12-01",
        "quantity": "8000",
        "product_ids": [ulsd["id"]],
        "terminal_ids": [galena["id"]],
        "supplier_ids": [gulf["id"]],
    }
    with django_capture_on_commit_callbacks(execute=True):
        first = created(api_a.post("/api/price-quote/requests", body))
        second = created(api_a.post("/api/price-quote/requests", {**body, "quote_date": "2026-12-02"}))
    listed = api_a.get("/api/price-quote/requests", {"page": 1, "size": 50}).json()["data"]
    assert [r["number"] for r in listed["items"]] == [second["number"], first["number"]]
    assert listed["items"][0]["recipient_count"] == 1 and listed["items"][0]["quote_count"] == 0

    closed = api_a.put(f"/api/price-quote/requests/{second['id']}/close")
    assert closed.status_code == 200 and closed.json()["data"]["status"] == "closed"
    from tenants.quotes import selectors

    with in_tenant(tenant_a):
        hit = selectors.match_reply(
            in_reply_to="", references="", sender_email="sales@gulf.test", subject="prices"
        )
    assert hit is not None and hit[0].request.number == first["number"]

    # A supplier without an email cannot be asked.
    mute = supplier(api_a, "Mute Oil")
    res = api_a.post("/api/price-quote/requests", {**body, "supplier_ids": [mute["id"]]})
    assert res.status_code == 422
    assert (
        res.json()["detail"] == "supplier_ids: Mute Oil has no email address: add one on the supplier first."
    )


def test_stop_turns_polling_off(api_a):
    saved = api_a.put(
        "/api/email-agent/mailbox",
        {"host": "imap.example.test", "port": 993, "security": "ssl", "username": "ap", "password": "pw"},
    )
    assert saved.status_code == 200
    res = api_a.post("/api/email-agent/stop")
    assert res.status_code == 200 and res.json()["message"] == "Inbox polling stopped"
    assert res.json()["data"]["enabled"] is False and res.json()["data"]["next_poll_at"] is None


def test_a_quote_is_checked_against_its_request(
    api_a, jobs, django_capture_on_commit_callbacks, in_tenant, tenant_a
):
    """Issue 23 §4b: a supplier not asked, a product or terminal not requested, a quote after the
    request was closed were all accepted, and a closed request's line was accepted into prices."""
    ulsd = product(api_a, "ULSD")
    rul = product(api_a, "RUL")
    galena = terminal(api_a)
    gulf = supplier(api_a, "Gulf Coast Fuels", email="sales@gulf.test")
    stranger = supplier(api_a, "Stranger Oil", email="s@stranger.test")
    with django_capture_on_commit_callbacks(execute=True):
        request = created(
            api_a.post(
                "/api/price-quote/requests",
                {
                    "quote_date": "2026-12-01",
                    "quantity": "8000",
                    "product_ids": [ulsd["id"]],
                    "terminal_ids": [galena["id"]],
                    "supplier_ids": [gulf["id"]],
                },
            )
        )
    url = f"/api/price-quote/requests/{request['id']}/quotes"

    def quote(supplier_id, product_id=ulsd["id"], price="2.4000"):
        line = {"product_id": product_id, "terminal_id": galena["id"], "price": price}
        return api_a.post(url, {"supplier_id": supplier_id, "lines": [line]})

    number = request["number"]
    res = quote(stranger["id"], price="1.9000")
    assert res.status_code == 422
    assert res.json()["detail"] == f"supplier_id: Stranger Oil was not asked in quote request {number}."
    res = quote(gulf["id"], product_id=rul["id"])
    assert res.status_code == 422
    assert (
        res.json()["detail"] == f"lines.product_id: Product RUL was not asked for in quote request {number}."
    )
    line_id = created(quote(gulf["id"]))["lines"][0]["id"]
    grid = api_a.get(f"/api/price-quote/requests/{request['id']}/comparison").json()["data"]
    assert [s["name"] for s in grid["suppliers"]] == ["Gulf Coast Fuels"]

    assert api_a.put(f"/api/price-quote/requests/{request['id']}/close").status_code == 200
    res = quote(gulf["id"], price="2.3000")
    assert res.status_code == 409
    assert res.json()["detail"] == f"Quote request {number} is closed: it takes no more quotes."
    res = api_a.put(f"/api/price-quote/lines/{line_id}/accept")
    assert res.status_code == 409
    assert res.json()["detail"] == f"Quote request {number} is closed: its prices can no longer be accepted."
    from tenants.pricing.models import BuyingPrice
    from tenants.quotes.models import Quote

    with in_tenant(tenant_a):
        assert not BuyingPrice.objects.exists()
        assert Quote.objects.count() == 1
