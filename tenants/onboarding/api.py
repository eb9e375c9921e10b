"""The onboarding checklist (`GET /api/onboarding`).

Permission: any signed-in office user (no permission code): the checklist only tells whether
kinds of data exist, never shows the data, and every role of the office may be the one setting
the company up. Drivers (the driver portal's role) are refused: it is no screen of theirs.
"""

from __future__ import annotations

from typing import Any

from core.envelope import Envelope, ok
from core.errors import ApiError
from core.permissions import TenantAuth, current_user
from django.http import HttpRequest
from ninja import Router

from tenants.onboarding import selectors
from tenants.onboarding.schemas import OnboardingOut

router = Router(tags=["onboarding"])

signed_in = TenantAuth()


@router.get(
    "",
    response=Envelope[OnboardingOut],
    auth=signed_in,
    operation_id="onboarding_checklist",
    summary="The company's setup steps with their state, computed from its data",
)
def checklist(request: HttpRequest) -> Any:
    user = current_user(request)
    if user.is_driver:
        raise ApiError(403, "The onboarding checklist is for office users.")
    return ok(selectors.checklist(), "Onboarding checklist retrieved successfully")


routes = [("/onboarding", router)]
