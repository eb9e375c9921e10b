from typing import Any

from core import csp
from core.errors import too_large_message
from core.middleware import is_api_path
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults

PLACEHOLDER = """<!doctype html><html><head><meta charset="utf-8"><title>FuelDesk</title></head>
<body><h1>FuelDesk</h1><p>The web app is not built yet. Run <code>make run</code>, which builds it.</p>
<p>The API is at <a href="/api/docs">/api/docs</a>.</p></body></html>"""


def spa_index(request: HttpRequest) -> HttpResponse:
    """Every SPA page: the built index.html with a fresh CSP nonce in it and in its policy."""
    index = settings.SPA_DIST_DIR / "index.html"
    response = csp.spa_page(index.read_bytes() if index.exists() else PLACEHOLDER.encode())
    response["Cache-Control"] = "no-cache"
    return response


def bad_request(request: HttpRequest, exception: Any = None) -> HttpResponse:
    """Django's 400 (a SuspiciousOperation outside a view); an oversized body is a 413."""
    if isinstance(exception, RequestDataTooBig):
        if is_api_path(request.path):
            return JsonResponse({"detail": too_large_message()}, status=413)
        return HttpResponse(too_large_message(), status=413, content_type="text/plain; charset=utf-8")
    if is_api_path(request.path):
        return JsonResponse({"detail": "The request is malformed and was refused."}, status=400)
    return defaults.bad_request(request, exception)
