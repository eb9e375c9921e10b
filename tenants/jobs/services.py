from __future__ import annotations

from typing import Any

from django.utils import timezone

from tenants.jobs.models import JobLog

DESCRIPTIONS = {
    "send_password_reset_email": "Password reset email",
}


def record_job(message: Any, status: str, error: str = "") -> JobLog:
    kwargs = message.kwargs or {}
    log, _ = JobLog.objects.get_or_create(
        message_id=message.message_id,
        defaults={
            "actor": message.actor_name,
            "invoice_id": kwargs.get("invoice_id"),
            "bill_id": kwargs.get("bill_id"),
            "message": DESCRIPTIONS.get(
                message.actor_name, message.actor_name.replace("_", " ").capitalize()
            ),
        },
    )
    log.status = status
    if status == JobLog.Status.RUNNING:
        log.attempts += 1
    if error:
        log.error = error[:5000]
    entry = {"at": timezone.now().isoformat(), "status": status}
    if error:
        entry["error"] = error[:500]
    log.logs = [*log.logs, entry][-50:]
    log.save()
    return log
