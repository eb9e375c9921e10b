from django.conf import settings
from django.http import HttpRequest, HttpResponse

PLACEHOLDER = """<!doctype html><html><head><meta charset="utf-8"><title>FuelDesk</title></head>
<body><h1>FuelDesk</h1><p>The web app is not built yet. Run <code>make run</code>, which builds it.</p>
<p>The API is at <a href="/api/docs">/api/docs</a>.</p></body></html>"""


def spa_index(request: HttpRequest) -> HttpResponse:
    index = settings.SPA_DIST_DIR / "index.html"
    if index.exists():
        response = HttpResponse(index.read_bytes(), content_type="text/html; charset=utf-8")
    else:
        response = HttpResponse(PLACEHOLDER, content_type="text/html; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response
