"""The SPA's Content-Security-Policy (core/csp.py): every page carries a strict policy with a fresh
nonce that the page itself holds, and violation reports are logged, rate limited and checked."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client, override_settings

from core import csp

ROOT = Path(__file__).resolve().parents[3]
BUILT_INDEX = """<!doctype html><html><head>
<meta property="csp-nonce" nonce="__CSP_NONCE__">
<script type="module" crossorigin src="/assets/index-abc.js" nonce="__CSP_NONCE__"></script>
<link rel="stylesheet" crossorigin href="/assets/index-abc.css" nonce="__CSP_NONCE__">
</head><body><div id="root"></div></body></html>"""


def directives(header: str) -> dict[str, list[str]]:
    out = {}
    for part in header.split(";"):
        name, *sources = part.split()
        out[name] = sources
    return out


@pytest.fixture
def built_spa(tmp_path: Path) -> Any:
    (tmp_path / "index.html").write_text(BUILT_INDEX)
    with override_settings(SPA_DIST_DIR=tmp_path):
        yield tmp_path


@pytest.mark.parametrize("path", ["/", "/sales-order/12", "/login?next=/dashboard", "/index.html"])
def test_every_spa_page_carries_a_strict_policy_with_the_nonce_the_page_holds(db, built_spa, path):
    response = Client().get(path)
    assert response.status_code == 200
    header = response["Content-Security-Policy"]
    policy = directives(header)
    assert policy["script-src"] == ["'self'"]  # no inline script, no eval, no nonce to steal
    assert "'unsafe-inline'" not in policy["style-src"] and "'unsafe-eval'" not in header
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'none'"]
    assert policy["connect-src"][0] == "'self'"
    assert policy["report-uri"] == ["/api/csp-report"] and policy["report-to"] == ["csp"]
    assert response["Reporting-Endpoints"] == 'csp="/api/csp-report"'
    (nonce_source,) = [s for s in policy["style-src"] if s.startswith("'nonce-")]
    nonce = nonce_source[len("'nonce-") : -1]
    body = response.content.decode()
    assert csp.NONCE_PLACEHOLDER not in body
    assert f'<meta property="csp-nonce" nonce="{nonce}">' in body
    assert body.count(f'nonce="{nonce}"') == 3


def test_each_response_has_its_own_nonce(db, built_spa):
    nonces = {
        re.search(r"'nonce-([^']+)'", Client().get("/")["Content-Security-Policy"])[1] for _ in range(5)
    }  # type: ignore[index]
    assert len(nonces) == 5
    assert all(len(n) >= 22 for n in nonces)


def test_the_page_before_a_build_has_the_policy_too(db, tmp_path):
    with override_settings(SPA_DIST_DIR=tmp_path):
        response = Client().get("/")
    assert "The web app is not built yet" in response.content.decode()
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]


def test_connect_src_names_the_configured_origins(db, built_spa):
    with override_settings(CSP_CONNECT_SRC=["https://o1.ingest.sentry.io"]):
        policy = directives(Client().get("/")["Content-Security-Policy"])
    assert policy["connect-src"] == ["'self'", "https://o1.ingest.sentry.io"]


def test_the_vite_dev_server_applies_the_same_policy():
    """spa/csp.json (read by spa/vite.config.ts) is what core/csp.py says (`manage.py export_csp`)."""
    committed = json.loads((ROOT / "spa" / "csp.json").read_text())
    assert committed == csp.dev_policy_template()
    dev = directives(committed["headers"]["Content-Security-Policy"])
    assert dev["script-src"] == ["'self'", f"'nonce-{csp.NONCE_PLACEHOLDER}'"]  # React Refresh's preamble
    assert dev["frame-ancestors"] == ["'none'"]
    assert f"cspNonce: '{csp.NONCE_PLACEHOLDER}'" in (ROOT / "spa" / "vite.config.ts").read_text()


# --- reports -----------------------------------------------------------------------------------------
REPORT_URI_BODY = {
    "csp-report": {
        "document-uri": "https://app.example/reset-password?token=secret-reset-token",
        "referrer": "",
        "violated-directive": "script-src-elem",
        "effective-directive": "script-src-elem",
        "original-policy": "script-src 'self'",
        "disposition": "enforce",
        "blocked-uri": "https://evil.example/x.js?t=1",
        "line-number": 3,
        "source-file": "https://app.example/assets/index.js",
        "status-code": 200,
        "script-sample": "",
    }
}
REPORTING_API_BODY = [
    {
        "type": "csp-violation",
        "age": 10,
        "url": "https://app.example/dashboard",
        "user_agent": "Chrome",
        "body": {
            "documentURL": "https://app.example/dashboard",
            "effectiveDirective": "style-src-elem",
            "blockedURL": "inline",
            "disposition": "enforce",
            "lineNumber": 1,
            "columnNumber": 9,
            "sample": "body{color:red}\x00",
        },
    },
    {"type": "deprecation", "age": 1, "url": "https://app.example/", "body": {"id": "x"}},
]


def post_report(body: Any, content_type: str, ip: str = "10.9.0.1") -> Any:
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return Client().post("/api/csp-report", data, content_type=content_type, REMOTE_ADDR=ip)


def test_a_report_uri_report_is_logged_without_the_urls_queries(db, caplog):
    with caplog.at_level(logging.WARNING, logger="fueldesk.csp"):
        response = post_report(REPORT_URI_BODY, "application/csp-report", ip="10.9.0.2")
    assert response.status_code == 202, response.content
    assert response.json()["data"] == {"violations": 1}
    (record,) = [r for r in caplog.records if r.name == "fueldesk.csp"]
    message = record.getMessage()
    assert (
        "script-src-elem blocked https://evil.example/x.js on https://app.example/reset-password" in message
    )
    assert "secret-reset-token" not in message and "secret-reset-token" not in json.dumps(record.csp)
    assert record.csp["line"] == 3


def test_a_reporting_api_batch_logs_its_csp_violations_only(db, caplog):
    with caplog.at_level(logging.WARNING, logger="fueldesk.csp"):
        response = post_report(REPORTING_API_BODY, "application/reports+json", ip="10.9.0.3")
    assert response.status_code == 202, response.content
    assert response.json()["data"] == {"violations": 1}
    (record,) = [r for r in caplog.records if r.name == "fueldesk.csp"]
    assert record.csp == {
        "document": "https://app.example/dashboard",
        "directive": "style-src-elem",
        "blocked": "inline",
        "line": 1,
        "column": 9,
        "disposition": "enforce",
        "sample": "body{color:red} ",
    }


@pytest.mark.parametrize(
    ("body", "content_type", "status"),
    [
        ("{not json", "application/csp-report", 400),
        (b"\xff\xfe", "application/json", 400),
        (REPORT_URI_BODY, "text/plain", 415),
        ({"hello": "world"}, "application/json", 422),
        ({"csp-report": {"document-uri": "x"}}, "application/csp-report", 422),
        ([], "application/reports+json", 422),
        (["x"], "application/reports+json", 422),
        ([{"type": "csp-violation", "body": {}}] * 51, "application/reports+json", 422),
        ({"csp-report": {"effective-directive": "x" * 70_000}}, "application/csp-report", 413),
    ],
)
def test_bad_reports_are_refused_with_a_4xx(db, body, content_type, status):
    response = post_report(body, content_type, ip="10.9.0.4")
    assert response.status_code == status, response.content
    assert response.json()["detail"]


def test_reports_are_rate_limited_per_address(db):
    with override_settings(CSP_REPORTS_PER_MINUTE=3):
        codes = [
            post_report(REPORT_URI_BODY, "application/csp-report", ip="10.9.0.5").status_code
            for _ in range(5)
        ]
        other = post_report(REPORT_URI_BODY, "application/csp-report", ip="10.9.0.6").status_code
    assert codes == [202, 202, 202, 429, 429]
    assert other == 202


@pytest.mark.parametrize(
    ("sources", "url", "allowed"),
    [
        ([], "https://app.example/tiles/1/2/3.png", True),  # this site
        ([], "https://tiles.example/1/2/3.png", False),
        (["https://tiles.example"], "https://tiles.example/1/2/3.png", True),
        (["https://tiles.example"], "http://tiles.example/1/2/3.png", False),  # another scheme
        (["https://tiles.example"], "https://tiles.example:8443/x.png", False),  # another port
        (["https://*.tiles.example"], "https://a.tiles.example/x.png", True),
        (["https://*.tiles.example"], "https://tiles.example.evil/x.png", False),
        (["https:"], "https://anything.example/x.png", True),
        (["https:"], "http://anything.example/x.png", False),
    ],
)
def test_connect_allows_reads_the_policys_sources_as_a_browser_would(sources, url, allowed):
    with override_settings(CSP_CONNECT_SRC=sources):
        assert csp.connect_allows(url, "https://app.example") is allowed
