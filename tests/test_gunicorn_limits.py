"""The server as deployed (infra/gunicorn.conf.py) takes a long request line, and answers the
requests gunicorn refuses itself in JSON, like every answer under /api (issue 23 §2)."""

from __future__ import annotations

import http.client
import json

import pytest
from django.conf import settings

from tests.bench.floor import gunicorn


@pytest.fixture
def port(db):
    from django.db import connection

    # The server reads the test database (a request's Host is looked up among the tenants' domains).
    settings_db = settings.DATABASES["default"]
    name, settings_db["NAME"] = settings_db["NAME"], connection.settings_dict["NAME"]
    try:
        with gunicorn() as served:
            conn = http.client.HTTPConnection("127.0.0.1", served, timeout=120)
            conn.request("GET", "/api/ping")  # the first request waits for a worker to boot Django
            assert conn.getresponse().status == 200
            conn.close()
            yield served
    finally:
        settings_db["NAME"] = name


def call(port: int, target: str) -> tuple[int, str, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", target)
    res = conn.getresponse()
    status, ctype, body = res.status, res.getheader("Content-Type", ""), res.read()
    conn.close()
    return status, ctype, body


def test_long_request_lines_and_malformed_requests(port):
    """One server for the three checks (booting one costs seconds on a busy machine)."""
    _a_request_line_of_8000_bytes_reaches_the_api(port)
    _past_the_limit_the_414_is_json(port)
    _a_malformed_request_is_a_json_400(port)


def _a_request_line_of_8000_bytes_reaches_the_api(port):
    # GET <target> HTTP/1.1: 4094 bytes was gunicorn's default limit.
    target = "/api/ping?search=" + "a" * (8000 - len("GET /api/ping?search= HTTP/1.1"))
    status, ctype, body = call(port, target)
    assert status == 200 and ctype.startswith("application/json"), (status, body[:200])


def _past_the_limit_the_414_is_json(port):
    status, ctype, body = call(port, "/api/ping?search=" + "a" * 9000)
    assert status == 414 and ctype == "application/json", (status, ctype, body[:200])
    assert json.loads(body) == {
        "detail": "The request line is too long: the limit is 8,190 bytes. "
        "Send long lists or searches in a body."
    }


def _a_malformed_request_is_a_json_400(port):
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"GET /api/ping HTTP/9.x\r\n\r\n")
        raw = sock.recv(65536)
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400") and b"Content-Type: application/json" in head, raw[:300]
    assert json.loads(body)["detail"] == "The request is malformed and was refused."
