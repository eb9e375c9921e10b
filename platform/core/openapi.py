"""Error responses in the OpenAPI document, declared in one place for every operation.

Every failure answers `{"detail": "<sentence>"}` (core/errors.py); which statuses an operation can
answer follows from what it takes and how it is protected:

- 401 and 403: every operation with a bearer token (no or a bad token; a missing permission or a
  suspended company);
- 400, 413 and 422: every operation with a body (unreadable JSON or multipart, too large, invalid);
  422 also for operations with parameters;
- 404: operations with path parameters (the row is not there, or is another tenant's), query
  parameters naming a row (`…id`), and writes that name rows in their body;
- 405: operations with path parameters (a malformed id can match a sibling route of other methods);
- 409: every write of a signed-in user (unique values, rows in use, workflow moves);
- 415: uploads (a file of a type the purpose does not allow) and JSON bodies (sent with another
  Content-Type, e.g. `text/plain`: core/parser.py);
- 429: the rate-limited public calls.

An operation declares anything else itself (`openapi_extra={"responses": {...}}`); what it declares
is kept, and an error body of its own is widened to "its schema or the plain `{detail}`".
`tests/fuzz` checks every answer against this document.
"""

from __future__ import annotations

from typing import Any

ERROR_SCHEMA_NAME = "ErrorDetail"
ERROR_SCHEMA: dict[str, Any] = {
    "title": ERROR_SCHEMA_NAME,
    "type": "object",
    "properties": {
        "detail": {"type": "string", "description": "What went wrong, in a sentence for the user."},
        "errors": {
            "type": "array",
            "description": "422 only: one entry per invalid field.",
            "items": {
                "type": "object",
                "properties": {
                    "loc": {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]}},
                    "msg": {"type": "string"},
                    "type": {"type": "string"},
                },
            },
        },
    },
    "required": ["detail"],
}

DESCRIPTIONS = {
    "400": "Malformed request (unreadable JSON or multipart body)",
    "401": "Not signed in, or the session has ended",
    "403": "The role lacks the permission, or the company is suspended",
    "404": "Not found",
    "405": "The path matches a route that does not take this method (e.g. an id that is not a number)",
    "409": "Conflicts with the current state (a unique value taken, a row in use, a move not allowed now)",
    "413": "The request body is too large",
    "415": "The file's type is not allowed here, or a JSON body was sent with another Content-Type",
    "422": "Invalid input",
    "429": "Too many attempts: try again later",
    "502": "A service this call depends on (e.g. Google) could not be reached",
}

# Public calls with a rate limit (operation ids).
RATE_LIMITED = {
    "auth_login",
    "auth_password_reset_request",
    "tenant_signup",
    "auth_login_google",
    "csp_report",
}
# What the rules above cannot see (operation id -> codes).
EXTRA: dict[str, set[str]] = {
    "auth_login": {"401", "403"},  # wrong credentials; a suspended company
    "tenant_signup": {"409"},  # the company name or the email is taken
    # Sign in with Google (docs/google.md): no provider registered (404), Google not configured (409),
    # Google unreachable (502); a refused ID token or no matching user (401), a suspended company (403).
    "auth_login_google_start": {"404", "409", "502"},
    "auth_login_google": {"401", "403", "404", "409", "502"},
    "google_authentication_connect": {"502"},
    "google_authentication_callback": {"502"},
    "csp_report": {"415"},  # a body that is not a report's content type
}
WRITES = {"post", "put", "patch", "delete"}


def _error_response(code: str) -> dict[str, Any]:
    return {
        "description": DESCRIPTIONS[code],
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ERROR_SCHEMA_NAME}"}}},
    }


def _also_plain_detail(declared: dict[str, Any]) -> None:
    """An operation's own error body (e.g. a 404 with extra fields) may also come as the plain
    `{detail}`: a path that matches no route, a failed auth or validation answers that."""
    content = declared.get("content", {}).get("application/json")
    if not content or "schema" not in content:
        return
    own = content["schema"]
    plain = {"$ref": f"#/components/schemas/{ERROR_SCHEMA_NAME}"}
    if own == plain or (isinstance(own, dict) and plain in own.get("anyOf", [])):
        return
    content["schema"] = {"anyOf": [own, plain]}


def error_codes(method: str, operation: dict[str, Any]) -> set[str]:
    params = operation.get("parameters") or []
    body = operation.get("requestBody") or {}
    content = body.get("content") or {}
    authed = bool(operation.get("security"))
    codes: set[str] = set()
    if authed:
        codes |= {"401", "403"}
    if body:
        codes |= {"400", "413", "422"}
    if params:
        codes.add("422")
    in_path = any(p.get("in") == "path" for p in params)
    names_a_row = any(p.get("in") == "query" and str(p.get("name", "")).endswith("id") for p in params)
    if in_path or names_a_row or (authed and (body or method in {"put", "patch", "delete"})):
        codes.add("404")  # the row named in the path, the query or the body is not there
    if in_path:
        codes.add("405")
    if authed and method in WRITES:
        codes.add("409")
    if "multipart/form-data" in content or "application/json" in content:
        codes.add("415")
    if operation.get("operationId") in RATE_LIMITED:
        codes.add("429")
    return codes | EXTRA.get(str(operation.get("operationId")), set())


# A time of day (dt.time: a delivery window) is a wall-clock time without a zone, answered as
# `HH:MM:SS` (core/renderers.py). JSON Schema's `format: time` is RFC 3339's full-time, which
# requires an offset ("11:25:11Z"): validators (the fuzz suite's) refuse every zone-less value, so
# the document says what the API really takes and answers.
WALL_CLOCK_TIME: dict[str, Any] = {
    "type": "string",
    "pattern": r"^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,6})?)?$",
    "description": "A time of day, HH:MM:SS (answers) or HH:MM[:SS[.ffffff]] (requests), without a zone",
}


def declare_wall_clock_times(node: Any) -> None:
    """Every `format: time` string of the document as WALL_CLOCK_TIME (in place)."""
    if isinstance(node, dict):
        if node.get("type") == "string" and node.get("format") == "time":
            del node["format"]
            description = node.get("description")
            node.update(WALL_CLOCK_TIME)
            if description:
                node["description"] = f"{description} ({WALL_CLOCK_TIME['description']})"
        for value in node.values():
            declare_wall_clock_times(value)
    elif isinstance(node, list):
        for item in node:
            declare_wall_clock_times(item)


def declare_error_responses(schema: dict[str, Any]) -> dict[str, Any]:
    """Add the error responses (with the `{detail}` schema) to every operation of the document."""
    schema.setdefault("components", {}).setdefault("schemas", {})[ERROR_SCHEMA_NAME] = ERROR_SCHEMA
    for methods in schema.get("paths", {}).values():
        for method, operation in methods.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            # django-ninja keys declared responses by int; the document's keys are strings.
            responses = {str(code): spec for code, spec in (operation.get("responses") or {}).items()}
            operation["responses"] = responses
            for code in sorted(error_codes(method, operation)):
                declared = responses.get(code)
                if declared is None:
                    responses[code] = _error_response(code)
                elif code.startswith("4"):
                    _also_plain_detail(declared)
    return schema
