"""The load test's users (issue 25 §1): office staff and drivers of the companies of
var/load/companies.json (tests/load/prepare.py), a weighted mix of what they do.

Every answer is checked against the company it was asked for: each company's customers end with its
marker "[LD007]", and any answer naming another company's marker is a crossed row, counted and
failed (the run's exit status is then 1). Run by infra/load.py (`make load`), which bounds it in time
and request count and writes the report; alone:

    locust -f tests/load/locustfile.py --headless -u 25 -r 5 -t 60s --host http://127.0.0.1:8000
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import sys
import threading
import uuid
from pathlib import Path
from typing import Any

from locust import HttpUser, between, events, task

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # locust loads this file by its path
from tests.load.markers import crossed_markers

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = Path(os.environ.get("LOAD_MANIFEST", ROOT / "var" / "load" / "companies.json"))
REPORT = Path(os.environ.get("LOAD_REPORT", ROOT / "var" / "load" / "report.json"))
MAX_REQUESTS = int(os.environ.get("LOAD_MAX_REQUESTS", "0"))  # 0: bounded by time only
SEARCH_TERMS = ["a", "fuel", "trans", "con", "gulf", "ener", "ag", "ser", "oil", "mark"]

_lock = threading.Lock()
CROSSED: list[str] = []
SLOWEST: list[tuple[float, str, str]] = []  # (ms, request name, company tag)


def load_manifest() -> dict[str, Any]:
    return json.loads(MANIFEST.read_text())


class Company:
    """One company's sign-in and what its user found out (ids to open, trucks to drag on)."""

    def __init__(self, row: dict[str, Any], password: str) -> None:
        self.tag: str = row["tag"]
        self.admin: str = row["admin"]
        self.driver: str | None = row.get("driver")
        self.filled: bool = bool(row.get("filled"))
        self.password = password


class FuelDeskUser(HttpUser):
    abstract = True
    wait_time = between(0.5, 2.0)
    company: Company
    token = ""

    def pick(self, filled_only: bool = False) -> Company:
        manifest = (self.environment.parsed_options and load_manifest()) or load_manifest()
        rows = manifest["companies"]
        filled = [r for r in rows if r.get("filled")]
        # Most traffic comes from the companies that use the product; the rest sign in and look around.
        row = (
            random.choice(filled)
            if filled_only or (filled and random.random() < 0.8)
            else random.choice(rows)
        )
        return Company(row, manifest["password"])

    def call(
        self,
        method: str,
        path: str,
        name: str,
        *,
        body: Any = None,
        ok: tuple[int, ...] = (200,),
        pdf: bool = False,
    ) -> Any:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        if pdf:
            headers["Accept"] = "application/pdf"
        with self.client.request(
            method, path, name=name, json=body, headers=headers, catch_response=True
        ) as res:
            if res.status_code not in ok:
                res.failure(f"HTTP {res.status_code}: {res.text[:200]}")
                return None
            if pdf:
                if not res.content.startswith(b"%PDF"):
                    res.failure("not a PDF")
                return None
            foreign = crossed_markers(res.text, self.company.tag)
            if foreign:
                with _lock:
                    CROSSED.append(f"{name} for {self.company.tag} answered rows of {sorted(foreign)}")
                res.failure(f"CROSSED: {self.company.tag} saw {sorted(foreign)}")
                return None
            res.success()
            ctype = res.headers.get("Content-Type", "")
            return res.json() if ctype.startswith("application/json") else res.text

    def sign_in(self, email: str) -> bool:
        self.token = ""
        data = self.call(
            "POST", "/api/login", "sign in", body={"email": email, "password": self.company.password}
        )
        if not data:
            return False
        self.token = data["data"]["access_token"]
        return True


class OfficeUser(FuelDeskUser):
    weight = 9

    def on_start(self) -> None:
        self.company = self.pick()
        self.customers: list[int] = []
        self.orders: list[int] = []
        self.products: list[int] = []
        self.invoices: list[int] = []
        self.tickets: list[int] = []
        if not self.sign_in(self.company.admin):
            return
        page = self.call("GET", "/api/customer/customers?size=25", "customers: list")
        # Orders are taken for active customers only (an inactive one is a correct 422, not load).
        items = (page or {}).get("data", {}).get("items", [])
        self.customers = [c["id"] for c in items if c.get("status") == "active"]
        if self.company.filled:
            orders = self.call("GET", "/api/sales-order/sales-orders?size=25", "sales orders: list")
            self.orders = [o["id"] for o in (orders or {}).get("data", {}).get("items", [])]
            products = self.call("GET", "/api/product/products?size=25", "products: list")
            self.products = [p["id"] for p in (products or {}).get("data", {}).get("items", [])]
            invoices = self.call("GET", "/api/invoice?size=25", "invoices: list")
            self.invoices = [i["id"] for i in (invoices or {}).get("data", {}).get("items", [])]
            tickets = self.call("GET", "/api/delivery-ticket?size=25", "delivery tickets: list")
            self.tickets = [t["id"] for t in (tickets or {}).get("data", {}).get("items", [])]

    @task(2)
    def sign_in_again(self) -> None:
        self.sign_in(self.company.admin)

    @task(12)
    def search_customers(self) -> None:
        term = random.choice(SEARCH_TERMS)
        self.call("GET", f"/api/customer/customers?search={term}&size=25", "customers: search")

    @task(8)
    def open_sales_order(self) -> None:
        if not self.orders:
            return self.search_customers()
        self.call("GET", f"/api/sales-order/sales-orders/{random.choice(self.orders)}", "sales order: open")

    @task(4)
    def list_sales_orders(self) -> None:
        if not self.company.filled:
            return self.dashboard()
        self.call(
            "GET",
            "/api/sales-order/sales-orders?size=25&sort_by=planned_date&order=desc",
            "sales orders: list",
        )

    @task(3)
    def create_sales_order(self) -> None:
        if not (self.customers and self.products):
            return self.search_customers()
        body = {
            "customer_id": random.choice(self.customers),
            "planned_date": (dt.date.today() + dt.timedelta(days=random.randint(1, 10))).isoformat(),
            "po_number": f"LOAD-{uuid.uuid4().hex[:8]}",
            "line_items": [
                {"product_id": random.choice(self.products), "quantity": str(random.randint(100, 900))}
            ],
        }
        made = self.call(
            "POST", "/api/sales-order/sales-orders", "sales order: create (priced)", body=body, ok=(201,)
        )
        if made:
            self.orders.append(made["data"]["id"])

    @task(4)
    def dispatch_day(self) -> None:
        if not self.company.filled:
            return self.dashboard()
        self.call("GET", f"/api/dispatch/day?date={dt.date.today().isoformat()}", "dispatch: day")

    @task(2)
    def board_drag(self) -> None:
        """Drag a stop on a truck's column: the day's board, then its stops in a new order."""
        if not self.company.filled:
            return self.search_customers()
        day = dt.date.today().isoformat()
        board = self.call("GET", f"/api/dispatch/day?date={day}", "dispatch: day")
        trucks = [t for t in (board or {}).get("data", {}).get("trucks", []) if len(t["orders"]) >= 2]
        if not trucks:
            return None
        truck = random.choice(trucks)
        ids = [o["id"] for o in truck["orders"]]
        random.shuffle(ids)
        body = {"truck_id": truck["truck"]["id"], "date": day, "order_ids": ids}
        self.call("PUT", "/api/dispatch/stops", "dispatch: drag (reorder stops)", body=body, ok=(200, 409))
        return None

    @task(1)
    def ticket_pdf(self) -> None:
        if not self.tickets:
            return self.dashboard()
        self.call(
            "GET", f"/api/delivery-ticket/{random.choice(self.tickets)}/pdf", "delivery ticket: PDF", pdf=True
        )
        return None

    @task(1)
    def invoice_pdf(self) -> None:
        if not self.invoices:
            return self.dashboard()
        path = f"/api/template/print/invoice/{random.choice(self.invoices)}"
        self.call("GET", path, "invoice: PDF", pdf=True)
        return None

    @task(2)
    def record_payment(self) -> None:
        if not (self.company.filled and self.customers):
            return self.search_customers()
        body = {
            "customer_id": random.choice(self.customers),
            "payment_date": dt.date.today().isoformat(),
            "amount": f"{random.randint(50, 900)}.00",
            "reference": f"LOAD-{uuid.uuid4().hex[:8]}",
        }
        self.call("POST", "/api/invoice/payments", "payment: record", body=body, ok=(201,))
        return None

    @task(4)
    def dashboard(self) -> None:
        self.call("GET", "/api/dashboard/product_summary", "dashboard")

    @task(1)
    def export_csv(self) -> None:
        self.call("GET", "/api/customer/customers/export?search=a", "customers: CSV export")


class DriverUser(FuelDeskUser):
    weight = 1

    def on_start(self) -> None:
        self.company = self.pick(filled_only=True)
        self.stops: list[dict[str, Any]] = []
        if self.company.driver:
            self.sign_in(self.company.driver)

    @task(5)
    def todays_orders(self) -> None:
        day = self.call("GET", "/api/driver-portal/todays-orders", "driver: today's orders")
        self.stops = (day or {}).get("data", {}).get("orders", [])

    @task(2)
    def daily_summary(self) -> None:
        self.call("GET", "/api/driver-portal/daily-summary", "driver: daily summary")

    @task(2)
    def start_delivery(self) -> None:
        if not self.stops:
            return self.todays_orders()
        stop = random.choice(self.stops)
        action = {
            "client_action_id": uuid.uuid4().hex,
            "kind": "start_delivery",
            "order_id": stop["id"],
            "order_version": stop["version"],
            "taken_at": dt.datetime.now(dt.UTC).isoformat(),
        }
        self.call("POST", "/api/driver-portal/actions", "driver: action", body={"actions": [action]})
        return None


@events.request.add_listener
def _keep_slowest(
    request_type: str, name: str, response_time: float, context: Any = None, **_kw: Any
) -> None:
    with _lock:
        SLOWEST.append((response_time, f"{request_type} {name}", ""))
        if len(SLOWEST) > 200:
            SLOWEST.sort(reverse=True)
            del SLOWEST[10:]
    env = _env[0] if _env else None
    if MAX_REQUESTS and env and env.runner and env.stats.total.num_requests >= MAX_REQUESTS:
        env.runner.quit()


_env: list[Any] = []


@events.init.add_listener
def _remember(environment: Any, **_kw: Any) -> None:
    _env.append(environment)


@events.quitting.add_listener
def _report(environment: Any, **_kw: Any) -> None:
    stats = environment.stats
    rows = {}
    for entry in sorted(stats.entries.values(), key=lambda e: e.name):
        if not entry.num_requests:
            continue
        rows[entry.name] = {
            "requests": entry.num_requests,
            "failures": entry.num_failures,
            "p50_ms": entry.get_response_time_percentile(0.5),
            "p95_ms": entry.get_response_time_percentile(0.95),
            "p99_ms": entry.get_response_time_percentile(0.99),
            "rps": round(entry.total_rps, 2),
        }
    total = stats.total
    seconds = (
        max(total.last_request_timestamp - total.start_time, 1e-9) if total.last_request_timestamp else 0
    )
    report = {
        "users": environment.parsed_options.num_users if environment.parsed_options else None,
        "requests": total.num_requests,
        "failures": total.num_failures,
        "seconds": round(seconds, 1),
        "rps": round(total.num_requests / seconds, 2) if seconds else 0,
        "rps_per_core": round(total.num_requests / seconds / (os.cpu_count() or 1), 2) if seconds else 0,
        "p50_ms": total.get_response_time_percentile(0.5),
        "p95_ms": total.get_response_time_percentile(0.95),
        "p99_ms": total.get_response_time_percentile(0.99),
        "crossed": CROSSED[:50],
        "crossed_count": len(CROSSED),
        "errors": {f"{e.method} {e.name}: {e.error}"[:300]: e.occurrences for e in stats.errors.values()},
        "slowest": [{"ms": round(ms), "request": what} for ms, what, _ in sorted(SLOWEST, reverse=True)[:10]],
        "by_request": rows,
    }
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(json.dumps(report, indent=1))
    if CROSSED:
        environment.process_exit_code = 1
