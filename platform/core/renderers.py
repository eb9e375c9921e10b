"""JSON rendering with orjson (several times faster than the stdlib encoder on 100-row pages),
keeping Django's output for the types it formats itself: datetimes, dates and times go through
DjangoJSONEncoder exactly as before (ISO, milliseconds, `Z`), Decimals become strings."""

from __future__ import annotations

from typing import Any

import orjson
from django.http import HttpRequest
from ninja.renderers import BaseRenderer
from ninja.responses import NinjaJSONEncoder

_fallback = NinjaJSONEncoder().default
OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_NON_STR_KEYS


def dumps(data: Any) -> bytes:
    return orjson.dumps(data, default=_fallback, option=OPTIONS)


class ORJSONRenderer(BaseRenderer):
    media_type = "application/json"

    def render(self, request: HttpRequest, data: Any, *, response_status: int) -> Any:
        return dumps(data)
