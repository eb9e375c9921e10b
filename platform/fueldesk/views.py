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


def metrics_view(request: HttpRequest) -> HttpResponse:
    """Prometheus's scrape (core/metrics.py): only with `Authorization: Bearer <METRICS_TOKEN>`; a 404
    while no token is configured (the endpoint does not exist for anyone)."""
    import hmac

    from core import jobs, metrics

    expected = settings.METRICS_TOKEN
    if not expected:
        return JsonResponse({"detail": "Metrics are not enabled: set METRICS_TOKEN."}, status=404)
    header = request.headers.get("Authorization", "")
    given = header[7:].strip() if header[:7].lower() == "bearer " else ""
    if not given or not hmac.compare_digest(given.encode(), expected.encode()):
        response = JsonResponse({"detail": "A valid metrics token is required."}, status=401)
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    if request.method not in ("GET", "HEAD"):
        return JsonResponse(
            {"detail": f"The method {request.method} is not allowed on {request.path}."}, status=405
        )
    body, content_type = metrics.exposition(jobs.queue_depths)
    return HttpResponse(body, content_type=content_type)
