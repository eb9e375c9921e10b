import json
from pathlib import Path

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Write the API's OpenAPI document (the SPA's client is generated from it)."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("path", nargs="?", default="spa/openapi.json")

    def handle(self, *args, **o):  # type: ignore[no-untyped-def]
        from fueldesk.api import api

        # Round-trip first: status codes are int keys, which cannot be sorted beside str keys.
        schema = json.loads(json.dumps(api.get_openapi_schema(path_prefix="/api")))
        Path(o["path"]).write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n")
        self.stdout.write(f"OpenAPI written to {o['path']}")
