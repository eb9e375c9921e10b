import json
from pathlib import Path

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Write the SPA pages' Content-Security-Policy for the Vite dev server (core/csp.py)."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("path", nargs="?", default="spa/csp.json")

    def handle(self, *args, **o):  # type: ignore[no-untyped-def]
        from core.csp import dev_policy_template

        Path(o["path"]).write_text(json.dumps(dev_policy_template(), indent=2) + "\n")
        self.stdout.write(f"Content-Security-Policy written to {o['path']}")
