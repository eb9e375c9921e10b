"""The driver portal (`/api/driver-portal`): today's stops of the signed-in driver, the day's summary, the
queued actions of the phone (each applied once), proof uploads, and the office's conflicts list.

Permissions are the sales order's: a driver holds `sales_order.view`, `.start_delivery` and
`.deliver` (the seeded Driver role); the office reads conflicts with `sales_order.view`.
"""

from __future__ import annotations

from core.envelope import Answer, Envelope, ok
from core.permissions import perm
from core.uploads import upload_route
from django.http import HttpRequest
from django.utils import timezone
from ninja import File, Form, Query, Router
from ninja.files import UploadedFile

from tenants.driver import selectors, services
from tenants.driver.schemas import (
    DriverActionsIn,
    DriverActionsOut,
    DriverConflictOut,
    DriverConflictQuery,
    DriverProofOut,
    DriverSummaryOut,
    DriverSummaryQuery,
    DriverTodayOut,
    DriverTodayQuery,
)

router = Router(tags=["driver-portal"])


@router.get(
    "/todays-orders",
    response=Envelope[DriverTodayOut],
    auth=perm("sales_order.view"),
    summary="The signed-in driver's stops of the day on the chosen trucks, in stop order",
)
def todays_orders(request: HttpRequest, query: Query[DriverTodayQuery]) -> Answer:
    driver = selectors.driver_of(request.auth)
    day = query.date or timezone.localdate()
    truck_ids = selectors.parse_ids(query.truck_ids)
    orders = selectors.todays_orders(driver, day=day, truck_ids=truck_ids)
    data = {
        "date": day,
        "driver_id": driver.pk,
        "driver_name": driver.name,
        "truck_ids": truck_ids,
        "orders": orders,
    }
    return ok(data, f"{len(orders)} stops")


@router.get(
    "/daily-summary",
    response=Envelope[DriverSummaryOut],
    auth=perm("sales_order.view"),
    summary="The signed-in driver's day: deliveries done, quantities per product and truck, open stops",
)
def daily_summary(request: HttpRequest, query: Query[DriverSummaryQuery]) -> Answer:
    driver = selectors.driver_of(request.auth)
    day = query.date or timezone.localdate()
    return ok(selectors.daily_summary(driver, day=day), "Daily summary retrieved successfully")


@router.post(
    "/actions",
    response=Envelope[DriverActionsOut],
    auth=perm("sales_order.deliver"),
    summary="Apply the phone's queued actions in order, each once (by client_action_id)",
    description="Answers 200 with one result per action: `applied`, `conflict` (not applied; the office "
    "sees it as a note on the order and in /api/driver-portal/conflicts) or `rejected` (bad input). "
    "Sending an id again answers its stored result with `replayed: true` and changes nothing.",
)
def actions(request: HttpRequest, payload: DriverActionsIn) -> Answer:
    user = request.auth
    driver = selectors.driver_of(user)
    results = services.apply_actions(payload.actions, driver=driver, by=user)
    applied = sum(1 for r in results if r["outcome"] == "applied")
    return ok({"results": results}, f"{applied} of {len(results)} actions applied")


@router.post(
    "/proof-files",
    response={201: Envelope[DriverProofOut]},
    auth=perm("sales_order.deliver"),
    summary="Upload a signature or photo of a delivery (PNG or JPEG); kind: signature or photo",
)
@upload_route()
def upload_proof(request: HttpRequest, file: File[UploadedFile], kind: Form[str] = "photo") -> Answer:
    selectors.driver_of(request.auth)
    stored = services.save_proof(file, kind=kind)
    return ok(stored.__dict__, "File uploaded successfully", status=201)


@router.get(
    "/conflicts",
    response=Envelope[list[DriverConflictOut]],
    auth=perm("sales_order.view"),
    summary="Drivers' actions the server did not apply (conflicts, or rejected input), latest first",
)
def conflicts(request: HttpRequest, query: Query[DriverConflictQuery]) -> Answer:
    rows = selectors.action_conflicts(outcome=query.outcome, order_id=query.order_id)
    return ok(rows, f"{len(rows)} driver actions")


routes = [("/driver-portal", router)]
