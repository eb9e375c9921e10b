"""A thin client of QuickBooks Online over httpx: Intuit's OAuth 2.0 endpoints (from the discovery
document) and the Accounting API v3, with what Intuit's limits and failures need:

- connect and read timeouts on every call (QBO_CONNECT_TIMEOUT_SECONDS / QBO_READ_TIMEOUT_SECONDS);
- at most QBO_MAX_IN_FLIGHT requests in flight and QBO_PER_MINUTE a minute per company (realm),
  counted in Redis so every web and worker process shares them (``RealmLimiter``);
- a 429 waits what ``Retry-After`` says (within QBO_MAX_WAIT_SECONDS) and tries again;
- a 401 asks once for an access token other than the refused one (``token(refused)``) and tries again;
- a write sent with a ``requestid`` is retried after a dropped connection with the SAME requestid,
  so QBO answers the first result instead of creating twice;
- every failure is a ``QboError`` keeping the HTTP status, QBO's code, message and detail, and the
  ``intuit_tid`` of the answer (what Intuit support asks for).

Tokens never appear in logs or errors. Docs: docs/quickbooks.md (and why not python-quickbooks).
"""

from __future__ import annotations

import base64
import contextlib
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import httpx
from django.conf import settings

log = logging.getLogger(__name__)

SCOPE = "com.intuit.quickbooks.accounting"
MAX_429_RETRIES = 4
MAX_TRANSPORT_RETRIES = 2


def sleep(seconds: float) -> None:
    """Waiting between tries (tests replace it to see what was waited, without waiting)."""
    time.sleep(seconds)


class QboError(Exception):
    """A failed QBO call. ``status`` 0: no answer (timeout, dropped connection)."""

    def __init__(
        self,
        *,
        status: int,
        code: str = "",
        message: str = "",
        detail: str = "",
        intuit_tid: str = "",
        retry_after: float | None = None,
    ) -> None:
        self.status, self.code, self.message, self.detail = status, code, message, detail
        self.intuit_tid, self.retry_after = intuit_tid, retry_after
        super().__init__(self.describe())

    def describe(self) -> str:
        head = f"QuickBooks Online error {self.code}" if self.code else "QuickBooks Online error"
        parts = [f"{head} (HTTP {self.status})" if self.status else f"{head} (no answer)"]
        if self.message:
            parts.append(self.message)
        if self.detail and self.detail != self.message:
            parts.append(self.detail)
        text = ": ".join(parts)
        return f"{text} [intuit_tid {self.intuit_tid}]" if self.intuit_tid else text

    @property
    def auth_failed(self) -> bool:
        return self.status == 401 or self.code == "3200"

    @property
    def retryable(self) -> bool:
        return self.status in (0, 429, 500, 502, 503, 504) or self.code == "3001"


class OAuthError(Exception):
    """The token endpoint refused (``error`` as Intuit says: invalid_grant, invalid_client, ...)."""

    def __init__(self, error: str, status: int = 400) -> None:
        super().__init__(f"QuickBooks Online refused the authorization ({error})")
        self.error, self.status = error, status


def _timeout() -> httpx.Timeout:
    return httpx.Timeout(
        connect=settings.QBO_CONNECT_TIMEOUT_SECONDS,
        read=settings.QBO_READ_TIMEOUT_SECONDS,
        write=settings.QBO_READ_TIMEOUT_SECONDS,
        pool=settings.QBO_CONNECT_TIMEOUT_SECONDS,
    )


def _http() -> httpx.Client:
    return httpx.Client(timeout=_timeout(), follow_redirects=False, headers={"Accept": "application/json"})


def parse_fault(response: httpx.Response) -> QboError:
    """QBO's error answer (``Fault.Error[]``, or ``fault.error[]`` for 401s) as a QboError."""
    tid = response.headers.get("intuit_tid", "")
    retry_after = None
    with contextlib.suppress(ValueError, TypeError):
        retry_after = float(response.headers.get("Retry-After", ""))
    code = message = detail = ""
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict):
        fault = body.get("Fault") or body.get("fault") or {}
        errors = (fault.get("Error") or fault.get("error") or []) if isinstance(fault, dict) else []
        if errors and isinstance(errors[0], dict):
            first = errors[0]
            code = str(first.get("code", ""))
            message = str(first.get("Message") or first.get("message") or "")
            detail = str(first.get("Detail") or first.get("detail") or "")
        elif "error" in body:
            message = str(body.get("error"))
    if not message:
        message = response.reason_phrase or f"HTTP {response.status_code}"
    return QboError(
        status=response.status_code,
        code=code.lstrip("0") or code,
        message=message,
        detail=detail,
        intuit_tid=tid,
        retry_after=retry_after,
    )


# --------------------------------------------------------------------------- OAuth 2.0

_discovery: dict[str, tuple[float, dict[str, Any]]] = {}
_discovery_lock = threading.Lock()
DISCOVERY_TTL = 3600.0


def discovery() -> dict[str, Any]:
    """Intuit's OpenID discovery document (cached an hour per URL)."""
    url = settings.QBO_DISCOVERY_URL
    with _discovery_lock:
        hit = _discovery.get(url)
        if hit and hit[0] > time.monotonic():
            return hit[1]
    try:
        with _http() as http:
            response = http.get(url)
    except httpx.HTTPError as exc:
        raise QboError(status=0, message=f"The QuickBooks discovery document is unreachable ({exc})") from exc
    if response.status_code != 200:
        raise QboError(status=response.status_code, message="The QuickBooks discovery document failed")
    doc = response.json()
    for key in ("authorization_endpoint", "token_endpoint", "revocation_endpoint"):
        if not isinstance(doc.get(key), str):
            raise QboError(status=502, message=f"The QuickBooks discovery document has no {key}")
    with _discovery_lock:
        _discovery[url] = (time.monotonic() + DISCOVERY_TTL, doc)
    return dict(doc)


def _basic() -> str:
    pair = f"{settings.QBO_CLIENT_ID}:{settings.QBO_CLIENT_SECRET}".encode()
    return "Basic " + base64.b64encode(pair).decode()


def authorization_url(state: str) -> str:
    params = {
        "client_id": settings.QBO_CLIENT_ID,
        "response_type": "code",
        "scope": SCOPE,
        "redirect_uri": settings.QBO_REDIRECT_URI,
        "state": state,
    }
    return str(httpx.URL(discovery()["authorization_endpoint"], params=params))


def _token_call(form: dict[str, str]) -> dict[str, Any]:
    try:
        with _http() as http:
            response = http.post(
                discovery()["token_endpoint"],
                data=form,
                headers={"Authorization": _basic(), "Content-Type": "application/x-www-form-urlencoded"},
            )
    except httpx.HTTPError as exc:
        raise QboError(
            status=0, message=f"The QuickBooks token endpoint did not answer ({type(exc).__name__})"
        ) from exc
    if response.status_code in (400, 401):
        try:
            error = str(response.json().get("error") or "invalid_request")
        except (ValueError, AttributeError):
            error = "invalid_request"
        raise OAuthError(error, response.status_code)
    if response.status_code != 200:
        raise parse_fault(response)
    body = response.json()
    if not body.get("access_token") or not body.get("refresh_token"):
        raise QboError(status=502, message="The QuickBooks token endpoint answered no tokens")
    return dict(body)


def exchange_code(code: str) -> dict[str, Any]:
    return _token_call(
        {"grant_type": "authorization_code", "code": code, "redirect_uri": settings.QBO_REDIRECT_URI}
    )


def refresh(refresh_token: str) -> dict[str, Any]:
    return _token_call({"grant_type": "refresh_token", "refresh_token": refresh_token})


def revoke(token: str) -> None:
    try:
        with _http() as http:
            response = http.post(
                discovery()["revocation_endpoint"],
                json={"token": token},
                headers={"Authorization": _basic()},
            )
    except httpx.HTTPError as exc:
        raise QboError(
            status=0, message=f"The QuickBooks revocation endpoint did not answer ({type(exc).__name__})"
        ) from exc
    if response.status_code not in (200, 204):
        raise parse_fault(response)


# --------------------------------------------------------------------------- limits per company


_TAKE_SLOT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
  redis.call('EXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
  return 1
end
return 0
"""


class RealmLimiter:
    """At most ``in_flight`` requests at once and ``per_minute`` a minute for one realm, shared by
    every process through Redis. A slot is a member of a sorted set scored by its start time (a
    crashed holder's slot expires after ``SLOT_TTL``); the minute is a counter per clock minute."""

    SLOT_TTL = 120

    def __init__(self, realm_id: str) -> None:
        prefix = settings.CACHES["default"].get("KEY_PREFIX", "fd")
        self.inflight_key = f"{prefix}:qbo:{realm_id}:inflight"
        self.minute_prefix = f"{prefix}:qbo:{realm_id}:minute"

    @contextlib.contextmanager
    def slot(self) -> Iterator[None]:
        from core.cache import raw_redis_client

        redis = raw_redis_client()
        member = uuid.uuid4().hex
        deadline = time.monotonic() + settings.QBO_MAX_WAIT_SECONDS
        wait = 0.02
        while True:
            # One atomic step (a Lua script): drop expired slots, then take one only while fewer than
            # the cap are held. (Adding first and checking the rank after let a slot stamped earlier
            # but added later push a holder past the cap: three in flight with a cap of two.)
            taken = redis.eval(
                _TAKE_SLOT,
                1,
                self.inflight_key,
                time.time(),
                self.SLOT_TTL,
                settings.QBO_MAX_IN_FLIGHT,
                member,
            )
            if int(taken) == 1:
                break
            if time.monotonic() >= deadline:
                raise QboError(status=429, code="3001", message="Too many QuickBooks requests in flight")
            sleep(wait)
            wait = min(wait * 2, 0.5)
        try:
            while True:
                minute = int(time.time() // 60)
                key = f"{self.minute_prefix}:{minute}"
                pipe = redis.pipeline()
                pipe.incr(key)
                pipe.expire(key, 90)
                count = int(pipe.execute()[0])
                if count <= settings.QBO_PER_MINUTE:
                    break
                pause = (minute + 1) * 60 - time.time() + 0.01
                if time.monotonic() + pause > deadline:
                    raise QboError(
                        status=429,
                        code="3001",
                        message="The QuickBooks limit of requests a minute is reached",
                        retry_after=pause,
                    )
                sleep(pause)
            yield
        finally:
            redis.zrem(self.inflight_key, member)


# --------------------------------------------------------------------------- the Accounting API


class QboClient:
    """Calls of one company (realm). ``token(None)`` answers a valid access token; ``token(refused)``
    one other than the token QBO just refused with a 401."""

    def __init__(self, realm_id: str, token: Callable[[str | None], str]) -> None:
        self.realm_id = realm_id
        self.token = token
        self.limiter = RealmLimiter(realm_id)
        self.base = f"{settings.QBO_API_BASE.rstrip('/')}/{realm_id}"

    def request(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        json: Any = None,
        requestid: str | None = None,
    ) -> dict[str, Any]:
        query = {"minorversion": settings.QBO_MINOR_VERSION, **(params or {})}
        if requestid:
            query["requestid"] = requestid
        url = f"{self.base}/{path.lstrip('/')}"
        refused: str | None = None
        throttled = 0
        dropped = 0
        waited = 0.0
        while True:
            token = self.token(refused)
            headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
            try:
                with self.limiter.slot(), _http() as http:
                    response = http.request(method, url, params=query, json=json, headers=headers)
            except httpx.TransportError as exc:
                # No answer: safe to send again only when QBO can tell a repeat (a GET, or a write
                # with its requestid).
                if (method == "GET" or requestid) and dropped < MAX_TRANSPORT_RETRIES:
                    dropped += 1
                    log.warning("QBO %s %s: no answer (%s); trying again", method, path, type(exc).__name__)
                    continue
                raise QboError(
                    status=0, message=f"No answer from QuickBooks Online ({type(exc).__name__})"
                ) from exc
            if response.status_code == 200:
                body = response.json()
                return dict(body) if isinstance(body, dict) else {"body": body}
            error = parse_fault(response)
            if error.status == 429 and throttled < MAX_429_RETRIES:
                pause = error.retry_after if error.retry_after is not None else 2.0**throttled
                if waited + pause <= settings.QBO_MAX_WAIT_SECONDS:
                    throttled += 1
                    waited += pause
                    log.info("QBO throttled (%s); waiting %.1fs as Retry-After says", error.intuit_tid, pause)
                    sleep(pause)
                    continue
            if error.auth_failed and refused is None:
                refused = token
                continue
            log.warning("QBO %s %s failed: %s", method, path, error.describe())
            raise error

    # ----------------------------------------------------------------- the calls used
    def query(self, text: str) -> dict[str, Any]:
        body = self.request("GET", "query", params={"query": text})
        return dict(body.get("QueryResponse") or {})

    def query_all(self, entity: str, where: str = "", page: int = 500) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        start = 1
        while True:
            # QBO's query language, not SQL; values in `where` are quoted with quote().
            condition = f" WHERE {where}" if where else ""
            text = f"SELECT * FROM {entity}{condition} STARTPOSITION {start} MAXRESULTS {page}"  # noqa: S608
            found = list(self.query(text).get(entity) or [])
            rows.extend(found)
            if len(found) < page:
                return rows
            start += page

    def find(self, entity: str, field: str, value: str, *, inactive: bool = False) -> list[dict[str, Any]]:
        """Records whose ``field`` equals ``value`` (with ``inactive``, inactive ones too)."""
        condition = f"{field} = {quote(value)}" + (" AND Active IN (true, false)" if inactive else "")
        text = f"SELECT * FROM {entity} WHERE {condition}"  # noqa: S608 - QBO's query language, quoted
        return list(self.query(text).get(entity) or [])

    def read(self, entity: str, qbo_id: str) -> dict[str, Any]:
        body = self.request("GET", f"{entity.lower()}/{qbo_id}")
        return dict(body[entity])

    def create(self, entity: str, data: dict[str, Any], *, requestid: str) -> dict[str, Any]:
        body = self.request("POST", entity.lower(), json=data, requestid=requestid)
        return dict(body[entity])

    def sparse_update(
        self, entity: str, qbo_id: str, sync_token: str, data: dict[str, Any], *, requestid: str
    ) -> dict[str, Any]:
        payload = {**data, "Id": qbo_id, "SyncToken": sync_token, "sparse": True}
        body = self.request("POST", entity.lower(), json=payload, requestid=requestid)
        return dict(body[entity])

    def cdc(self, entities: list[str], changed_since: str) -> dict[str, list[dict[str, Any]]]:
        body = self.request(
            "GET", "cdc", params={"entities": ",".join(entities), "changedSince": changed_since}
        )
        found: dict[str, list[dict[str, Any]]] = {}
        for block in body.get("CDCResponse") or []:
            for response in block.get("QueryResponse") or []:
                for entity in entities:
                    found.setdefault(entity, []).extend(response.get(entity) or [])
        return found

    def company_info(self) -> dict[str, Any]:
        body = self.request("GET", f"companyinfo/{self.realm_id}")
        return dict(body.get("CompanyInfo") or {})


def quote(value: str) -> str:
    """A string literal of QBO's query language."""
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
