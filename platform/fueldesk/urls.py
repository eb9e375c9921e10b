from core.routing import memo_include
from django.urls import path, re_path

from fueldesk.api import api
from fueldesk.views import metrics_view, spa_index

urlpatterns = [
    # Prometheus's scrape: plain text behind its own token, outside the JSON API (and its schema).
    path("api/metrics", metrics_view, name="metrics"),
    memo_include("api/", api.urls),  # type: ignore[arg-type]
    # Everything else is the single-page app, which routes on the client.
    re_path(r"^(?!api(?:/|$)|static/|assets/).*$", spa_index, name="spa"),
]

handler400 = "fueldesk.views.bad_request"
