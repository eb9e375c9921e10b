"""The Content-Security-Policy of the SPA's pages, in one place (docs/security.md).

The access token lives in localStorage, so one injected script would read it. Every page of the SPA
is therefore sent with a strict policy:

- scripts from this origin only (no inline script, no ``eval``): Vite builds external modules;
- styles from this origin and ``<style>`` elements carrying the response's nonce (emotion, which
  MUI styles with, and react-toastify take it from ``<meta property="csp-nonce">``; Vite writes
  ``NONCE_PLACEHOLDER`` on its tags and the meta, and each response replaces it with a fresh nonce);
  ``style`` *attributes* are allowed (``style-src-attr 'unsafe-inline'``): the document designer's
  print preview is the server-rendered document in a sandboxed ``srcdoc`` frame, which inherits this
  policy and positions every element with a style attribute. A style attribute runs no code and
  cannot read the page (no selectors), so it cannot exfiltrate the token;
- ``connect-src`` this origin (the API) plus ``CSP_CONNECT_SRC`` (e.g. a Sentry ingest origin);
- images from this origin, ``data:`` and ``blob:`` (authenticated downloads become object URLs);
- no plugins, no ``<base>``, forms post here only, and no page may frame the app
  (``frame-ancestors 'none'``);
- violations are reported to ``POST /api/csp-report`` (``report-uri`` and the Reporting API's
  ``report-to``), which logs them (``fueldesk.csp`` logger), rate limited per address.

Django serves the built SPA (``fueldesk.views.spa_index``, in production and under ``make run``);
the Vite dev server applies the same policy from ``spa/csp.json`` (written by
``manage.py export_csp``; a test keeps it equal to ``dev_policy_template()``).
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from core import ratelimit
from core.errors import ApiError
from core.middleware import StaticFilesMiddleware

log = logging.getLogger("fueldesk.csp")

# What Vite writes where the nonce goes (spa/vite.config.ts `html.cspNonce`).
NONCE_PLACEHOLDER = "__CSP_NONCE__"
REPORT_PATH = "/api/csp-report"
REPORT_GROUP = "csp"
# The Reporting API's and report-uri's content types; plain JSON for tools.
REPORT_CONTENT_TYPES = ("application/csp-report", "application/reports+json", "application/json")
REPORT_MAX_BYTES = 64 * 1024
REPORTS_PER_BODY = 50
FIELD_MAX_CHARS = 300
SELF = "'self'"


def new_nonce() -> str:
    """A fresh nonce per response: 128 bits, base64url (valid in a CSP source expression)."""
    return secrets.token_urlsafe(16)


def connect_sources() -> list[str]:
    """The sources ``connect-src`` names besides this site (public: every page's header says them)."""
    return [str(s) for s in getattr(settings, "CSP_CONNECT_SRC", ()) if s]


def directives(
    nonce: str, *, dev_server: bool = False, connect_src: Iterable[str] = ()
) -> dict[str, list[str]]:
    """The policy as directive -> sources. ``dev_server``: the Vite dev server also runs React
    Refresh's inline module preamble, which Vite marks with the nonce."""
    script = [SELF, f"'nonce-{nonce}'"] if dev_server else [SELF]
    return {
        "default-src": [SELF],
        "script-src": script,
        "script-src-attr": ["'none'"],
        "style-src": [SELF, f"'nonce-{nonce}'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": [SELF, "data:", "blob:"],
        "font-src": [SELF, "data:"],
        "connect-src": [SELF, *connect_src],
        "media-src": [SELF, "blob:"],
        "frame-src": [SELF, "blob:"],
        "worker-src": [SELF],
        "manifest-src": [SELF],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": [SELF],
        "frame-ancestors": ["'none'"],
        "report-uri": [REPORT_PATH],
        "report-to": [REPORT_GROUP],
    }


def policy(nonce: str, *, dev_server: bool = False, connect_src: Iterable[str] | None = None) -> str:
    extra = connect_sources() if connect_src is None else list(connect_src)
    parts = directives(nonce, dev_server=dev_server, connect_src=extra)
    return "; ".join(" ".join([name, *sources]) for name, sources in parts.items())


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of an absolute URL (what a CSP source names)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc.rsplit('@', 1)[-1]}".lower()


def connect_allows(url: str, own_origin: str) -> bool:
    """Whether the SPA's ``connect-src`` lets the browser fetch ``url``: this site's origin, or a
    source of ``CSP_CONNECT_SRC`` given as an origin, a scheme (``https:``) or a host wildcard
    (``https://*.example.com``). A setting the browser would refuse is caught when it is saved,
    not left to a map that silently stays blank."""
    origin = origin_of(url)
    scheme, _, host = origin.partition("://")
    for source in [own_origin, *connect_sources()]:
        source = source.lower().rstrip("/")
        if source in {origin, f"{scheme}:"}:
            return True
        if source.startswith(f"{scheme}://*.") and host.endswith(source[len(scheme) + 4 :]):
            return True
    return False


def headers(nonce: str) -> dict[str, str]:
    """The headers of an SPA page: the policy and where the Reporting API sends its reports."""
    return {
        "Content-Security-Policy": policy(nonce),
        "Reporting-Endpoints": f'{REPORT_GROUP}="{REPORT_PATH}"',
    }


def dev_policy_template() -> dict[str, Any]:
    """What the Vite dev server applies (spa/csp.json): the policy with the placeholder nonce,
    which its plugin replaces per response."""
    return {
        "_comment": "Written by `manage.py export_csp` from platform/core/csp.py: do not edit.",
        "placeholder": NONCE_PLACEHOLDER,
        "headers": {
            "Content-Security-Policy": policy(NONCE_PLACEHOLDER, dev_server=True, connect_src=[]),
            "Reporting-Endpoints": f'{REPORT_GROUP}="{REPORT_PATH}"',
        },
    }


def spa_page(html: bytes) -> HttpResponse:
    """An SPA page with a fresh nonce in its policy and in the page (the built index.html holds the
    placeholder on Vite's tags and on ``<meta property="csp-nonce">``)."""
    nonce = new_nonce()
    body = html.replace(NONCE_PLACEHOLDER.encode(), nonce.encode())
    response = HttpResponse(body, content_type="text/html; charset=utf-8")
    for name, value in headers(nonce).items():
        response[name] = value
    return response


class SpaFilesMiddleware(StaticFilesMiddleware):
    """WhiteNoise for the static files and the SPA's build, except its HTML pages (``/index.html``):
    a page is served by ``spa_index``, which signs it with a nonce; a copy served as a file would
    carry the placeholder and no policy."""

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.endswith(".html"):
            return self.get_response(request)
        return super().__call__(request)  # type: ignore[no-any-return]


# --- violation reports -------------------------------------------------------------------------------
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# report-uri's keys (kebab-case) and the Reporting API's (camelCase) -> what the log line says.
_FIELDS = {
    "document": ("document-uri", "documentURL"),
    "directive": ("effective-directive", "effectiveDirective", "violated-directive"),
    "blocked": ("blocked-uri", "blockedURL"),
    "source": ("source-file", "sourceFile"),
    "line": ("line-number", "lineNumber"),
    "column": ("column-number", "columnNumber"),
    "disposition": ("disposition",),
    "sample": ("script-sample", "sample"),
}
BAD_REPORT = "The body is not a Content-Security-Policy violation report."


def _clean(value: Any) -> str | int | None:
    """A field for the log: numbers kept, text without control characters, a URL without its query
    or fragment (they can carry reset tokens), everything cut to FIELD_MAX_CHARS."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if not isinstance(value, str):
        return None
    text = _CONTROL.sub(" ", value)
    if "://" in text:
        parts = urlsplit(text)
        if parts.scheme and parts.netloc:
            text = f"{parts.scheme}://{parts.netloc}{parts.path}"
    return text[:FIELD_MAX_CHARS]


def _violation(body: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, keys in _FIELDS.items():
        for key in keys:
            if key in body:
                cleaned = _clean(body[key])
                if cleaned is not None:
                    out[name] = cleaned
                    break
    if "directive" not in out:
        raise ApiError(422, BAD_REPORT)
    return out


def parse_reports(content_type: str, raw: bytes) -> list[dict[str, Any]]:
    """The violations of a report body: report-uri's ``{"csp-report": {...}}`` or the Reporting API's
    ``[{"type": "csp-violation", "body": {...}}, ...]`` (other report types are ignored)."""
    media = content_type.split(";")[0].strip().lower()
    if media not in REPORT_CONTENT_TYPES:
        raise ApiError(415, f"Send the report as {', '.join(REPORT_CONTENT_TYPES)}.")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError(400, "The report is not valid JSON.") from exc
    if isinstance(data, dict) and isinstance(data.get("csp-report"), dict):
        return [_violation(data["csp-report"])]
    if isinstance(data, list) and 0 < len(data) <= REPORTS_PER_BODY:
        found = []
        for item in data:
            if not isinstance(item, dict) or not isinstance(item.get("body"), dict):
                raise ApiError(422, BAD_REPORT)
            if item.get("type") == "csp-violation":
                found.append(_violation(item["body"]))
        return found
    raise ApiError(422, BAD_REPORT)


def receive_report(request: HttpRequest) -> int:
    """Checks, rate-limits and logs one report body; answers how many violations it logged."""
    ratelimit.hit(
        "csp-report",
        ratelimit.client_ip(request),
        settings.CSP_REPORTS_PER_MINUTE,
        60,
        "Too many violation reports from this address.",
    )
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > REPORT_MAX_BYTES:
        raise ApiError(413, f"A violation report is at most {REPORT_MAX_BYTES // 1024} KB.")
    raw = request.body
    if len(raw) > REPORT_MAX_BYTES:
        raise ApiError(413, f"A violation report is at most {REPORT_MAX_BYTES // 1024} KB.")
    violations = parse_reports(request.META.get("CONTENT_TYPE", ""), raw)
    for violation in violations:
        log.warning(
            "CSP violation: %s blocked %s on %s",
            violation.get("directive"),
            violation.get("blocked", "-"),
            violation.get("document", "-"),
            extra={"csp": violation, "client": ratelimit.client_ip(request)},
        )
    return len(violations)
