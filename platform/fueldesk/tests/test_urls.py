"""What the server answers by path (platform/fueldesk/urls.py, views.py): /api/… is the API and
answers JSON even when nothing is there, every other path is the single-page app with a fresh CSP
nonce, and a request Django refuses before any view is a 400/413 in the form the caller reads."""

from __future__ import annotations

import re

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.test import Client, RequestFactory

from fueldesk import views


def test_an_unknown_api_path_is_a_json_404_not_the_app(db: None) -> None:
    for path in ("/api/no-such-thing", "/api", "/api/"):
        res = Client().get(path)
        assert res.status_code == 404, path
        assert res["Content-Type"].startswith("application/json"), path
        assert "detail" in res.json()


def test_every_other_path_is_the_app_with_its_own_nonce(db: None) -> None:
    first = Client().get("/delivery-ticket/12")
    second = Client().get("/apix/reports")  # only /api itself is the API
    for res in (first, second):
        assert res.status_code == 200
        assert res["Content-Type"].startswith("text/html")
        assert res["Cache-Control"] == "no-cache"
    nonces = [re.search(r"'nonce-([^']+)'", r["Content-Security-Policy"]) for r in (first, second)]
    assert all(nonces) and nonces[0][1] != nonces[1][1]  # type: ignore[index]
    assert Client().get("/static/nothing.css").status_code == 404  # never the app for a missing asset


def test_a_request_refused_before_any_view_answers_in_the_callers_form() -> None:
    rf = RequestFactory()
    big_api = views.bad_request(rf.post("/api/storage/upload-file"), RequestDataTooBig())
    assert big_api.status_code == 413 and b'"detail"' in big_api.content
    big_page = views.bad_request(rf.post("/login"), RequestDataTooBig())
    assert big_page.status_code == 413 and big_page["Content-Type"].startswith("text/plain")
    odd_api = views.bad_request(rf.get("/api/customer/customers"), SuspiciousOperation())
    assert odd_api.status_code == 400
    assert odd_api.content == b'{"detail": "The request is malformed and was refused."}'
