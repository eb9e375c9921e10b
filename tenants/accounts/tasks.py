"""Background jobs of the accounts domain."""

import core.dramatiq_setup  # noqa: F401
from core.fairness import QUEUES
from core.jobs import tenant_actor
from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string


@tenant_actor(queue_name=QUEUES.mail)
def send_password_reset_email(user_id: int, token: str) -> None:
    from tenants.accounts.models import User

    user = User.objects.get(pk=user_id)
    link = f"{settings.PUBLIC_BASE_URL.rstrip('/')}/reset-password/{token}"
    context = {"name": user.name, "link": link, "minutes": settings.PASSWORD_RESET_TTL_SECONDS // 60}
    send_mail(
        subject="Reset your FuelDesk password",
        message=render_to_string("email/password_reset.txt", context),
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=[user.email],
        html_message=render_to_string("email/password_reset.html", context),
    )
