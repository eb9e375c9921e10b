from core.routing import memo_include
from django.urls import re_path

from fueldesk.api import api
from fueldesk.views import spa_index

urlpatterns = [
    memo_include("api/", api.urls),  # type: ignore[arg-type]
    # Everything else is the single-page app, which routes on the client.
    re_path(r"^(?!api(?:/|$)|static/|assets/).*$", spa_index, name="spa"),
]

handler400 = "fueldesk.views.bad_request"
