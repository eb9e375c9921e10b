from django.urls import path, re_path

from fueldesk.api import api
from fueldesk.views import spa_index

urlpatterns = [
    path("api/", api.urls),
    # Everything else is the single-page app, which routes on the client.
    re_path(r"^(?!api(?:/|$)|static/|assets/).*$", spa_index, name="spa"),
]

handler400 = "fueldesk.views.bad_request"
