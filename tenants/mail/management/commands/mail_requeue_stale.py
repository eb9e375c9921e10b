"""Offer every company's stuck outbox emails to the worker again (run it every few minutes from
the scheduler or cron; safe to run any time, see docs/email.md)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Re-queue outbox emails nobody is sending (queued or left `sending` by a dead worker)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--older-than", type=int, default=300, help="seconds untouched (default 300)")

    def handle(self, *args: Any, **options: Any) -> None:
        from tenants.mail.services import requeue_stale_everywhere

        total = requeue_stale_everywhere(timedelta(seconds=options["older_than"]))
        self.stdout.write(f"{total} email(s) re-queued")
