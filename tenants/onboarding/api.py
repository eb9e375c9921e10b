"""The onboarding checklist (`GET /api/onboarding`).

Permission: `onboarding.view`, which every seeded office role holds (the checklist only tells
whether kinds of data exist, and any office role may be the one setting the company up). A user
without it (no permissions, a driver) is refused: it is no screen of theirs.
"""

from __future__ import annotations

from core.envelope import Answer, Envelope, ok
from core.errors import ApiError
from core.permissions import current_user, perm, register_resource
from django.http import HttpRequest
from ninja import Router

from tenants.onboarding import selectors
from tenants.onboarding.schemas import OnboardingOut

router = Router(tags=["onboarding"])

register_resource("onboarding", "Onboarding checklist", ("view",))


@router.get(
    "",
    response=Envelope[OnboardingOut],
    auth=perm("onboarding.view"),
    operation_id="onboarding_checklist",
    summary="The company's setup steps with their state, computed from its data",
)
def checklist(request: HttpRequest) -> Answer:
    user = current_user(request)
    if user.is_driver:
        raise ApiError(403, "The onboarding checklist is for office users.")
    return ok(selectors.checklist(), "Onboarding checklist retrieved successfully")


routes = [("/onboarding", router)]
