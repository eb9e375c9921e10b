"""A small fake of QuickBooks Online (Intuit's OAuth 2.0 + the Accounting API v3) for tests and
``make run``. Standard library only; it speaks the real protocol and error shapes:

- ``GET /.well-known/openid_configuration`` (also ``openid_sandbox_configuration``): Intuit's
  discovery document (authorization, token, revocation endpoints);
- ``GET /oauth2/authorize``: answers at once with a redirect to ``redirect_uri`` carrying ``code``,
  ``state`` and ``realmId`` (no consent screen);
- ``POST /oauth2/v1/tokens/bearer``: ``authorization_code`` and ``refresh_token`` grants with HTTP
  Basic client authentication; access tokens last 3600 s on the fake's clock; refresh tokens ROTATE
  (issuing a new one kills the old one: ``invalid_grant``);
- ``POST /oauth2/v1/tokens/revoke``;
- ``/v3/company/{realmId}/query?query=SELECT ...`` (a tiny parser: ``*``/``COUNT(*)``, ``WHERE`` with
  ``=``, ``IN``, ``LIKE``, ``<``/``>`` joined by ``AND``, ``ORDERBY``, ``STARTPOSITION``,
  ``MAXRESULTS``; inactive names only with an ``Active`` condition, as QBO does);
- ``customer``, ``vendor``, ``employee``, ``item``, ``invoice``, ``payment``: create, read, sparse
  update with ``SyncToken`` checks (stale: Fault 5010), ``requestid`` idempotency (the same id answers
  the first result), ``DisplayName`` unique across customers, vendors and employees, inactive ones
  included (Fault 6240), item names unique (6240);
- ``/cdc?entities=Payment,Invoice&changedSince=<ISO>``;
- faults in QBO's shapes (``Fault``/``Error``, ``fault``/``error`` for 401s) with the codes 3200
  (authentication), 3100 (authorization), 5010 (stale), 6240 (duplicate name), 6210 (closed period),
  610 (object not found), 3001 (throttled: 429 with Retry-After, or an injected 503); every answer
  has an ``intuit_tid`` header;
- ``/_control/...``: move the clock, inject faults, revoke tokens, create or edit records "as a QBO
  user", read the state (see ``Control`` below).

Run it alone (``python -m infra.fakes.qbo --port 8790``) or in a thread (``FakeQbo().start()``; the
server plumbing and the grant are ``infra/fakes/base.py``'s).
``signed_webhook`` / ``legacy_payload`` / ``cloudevents_payload`` send Intuit's webhooks.
"""

from __future__ import annotations

import argparse
import base64
import copy
import datetime as dt
import hashlib
import hmac
import json
import re
import secrets
import threading
import time
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from infra.fakes import base

ACCESS_TTL = 3600
REFRESH_TTL = 100 * 86400
DEFAULT_REALM = "9341453000000001"
DEFAULT_CLIENT_ID = "fake-qbo-client"
DEFAULT_CLIENT_SECRET = "fake-qbo-secret"
DEFAULT_VERIFIER = "fake-qbo-verifier"
ENTITIES = {
    "customer": "Customer",
    "vendor": "Vendor",
    "employee": "Employee",
    "item": "Item",
    "invoice": "Invoice",
    "payment": "Payment",
    "account": "Account",
    "taxcode": "TaxCode",
}
NAMED = ("Customer", "Vendor", "Employee")  # one DisplayName namespace
ACTIVE_FILTERED = ("Customer", "Vendor", "Employee", "Item", "Account", "TaxCode")


class Fault(Exception):
    def __init__(self, status: int, code: str, message: str, detail: str = "", kind: str = "ValidationFault"):
        super().__init__(message)
        self.status, self.code, self.message, self.detail, self.kind = status, code, message, detail, kind
        self.headers: dict[str, str] = {}

    def body(self, now: float) -> dict[str, Any]:
        if self.status == 401:  # QBO answers authentication failures in lower case
            return {
                "fault": {
                    "error": [
                        {
                            "message": f"message={self.message}; errorCode=00{self.code}; statusCode=401",
                            "detail": self.detail,
                            "code": self.code,
                        }
                    ],
                    "type": "AUTHENTICATION",
                },
                "time": iso(now),
            }
        return {
            "Fault": {
                "Error": [{"Message": self.message, "Detail": self.detail, "code": self.code, "element": ""}],
                "type": self.kind,
            },
            "time": iso(now),
        }


def iso(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def parse_iso(text: str) -> float:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def stale(detail: str = "") -> Fault:
    return Fault(
        400,
        "5010",
        "Stale Object Error",
        detail or "Stale Object Error : You and another user were working on the same thing.",
    )


def duplicate_name(name: str) -> Fault:
    return Fault(
        400,
        "6240",
        "Duplicate Name Exists Error",
        f"The name supplied already exists. : Another customer, vendor or employee is already using "
        f"this name ({name}). Please use a different name.",
    )


def not_found(what: str) -> Fault:
    return Fault(
        400, "610", "Object Not Found", f"Object Not Found : Something you're trying to use ({what}) is gone."
    )


# --------------------------------------------------------------------------- query parser

_TOKEN = re.compile(r"\s*(?:(?P<str>'(?:[^'\\]|\\.)*')|(?P<op><=|>=|!=|=|<|>|\(|\)|,|\*)|(?P<word>[\w.]+))")


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise Fault(400, "4000", "Error parsing query", f"QueryParserError: unexpected text at {pos}")
        pos = m.end()
        if m.group("str") is not None:
            out.append(("str", re.sub(r"\\(.)", r"\1", m.group("str")[1:-1])))
        elif m.group("op") is not None:
            out.append(("op", m.group("op")))
        elif m.group("word") is not None:
            out.append(("word", m.group("word")))
    return out


@dataclass
class Query:
    entity: str
    count: bool = False
    conditions: list[tuple[str, str, Any]] = field(default_factory=list)
    order: tuple[str, bool] | None = None
    start: int = 1
    max_results: int = 100


def parse_query(text: str) -> Query:
    toks = _tokens(text)
    i = 0

    def take(kind: str | None = None, value: str | None = None) -> str:
        nonlocal i
        if i >= len(toks):
            raise Fault(400, "4000", "Error parsing query", "QueryParserError: unexpected end of query")
        k, v = toks[i]
        if (kind and k != kind) or (value and v.upper() != value.upper()):
            raise Fault(400, "4000", "Error parsing query", f"QueryParserError: unexpected {v!r}")
        i += 1
        return v

    def peek(value: str) -> bool:
        return i < len(toks) and toks[i][1].upper() == value.upper()

    def literal() -> Any:
        k, v = toks[i] if i < len(toks) else ("", "")
        take()
        if k == "str":
            return v
        if v.lower() in ("true", "false"):
            return v.lower() == "true"
        return v

    take("word", "SELECT")
    count = False
    if peek("*"):
        take()
    elif peek("COUNT"):
        take()
        take("op", "(")
        take("op", "*")
        take("op", ")")
        count = True
    else:
        raise Fault(400, "4000", "Error parsing query", "QueryParserError: only SELECT * or COUNT(*)")
    take("word", "FROM")
    entity = take("word")
    if entity not in ENTITIES.values():
        raise Fault(400, "4000", "Error parsing query", f"QueryParserError: unknown entity {entity}")
    q = Query(entity=entity, count=count)
    if peek("WHERE"):
        take()
        while True:
            name = take("word")
            if peek("IN"):
                take()
                take("op", "(")
                values = [literal()]
                while peek(","):
                    take()
                    values.append(literal())
                take("op", ")")
                q.conditions.append((name, "IN", values))
            elif peek("LIKE"):
                take()
                q.conditions.append((name, "LIKE", literal()))
            else:
                op = take("op")
                if op not in ("=", "<", ">", "<=", ">=", "!="):
                    raise Fault(400, "4000", "Error parsing query", f"QueryParserError: operator {op}")
                q.conditions.append((name, op, literal()))
            if peek("AND"):
                take()
                continue
            break
    if peek("ORDERBY") or peek("ORDER"):
        if take().upper() == "ORDER":
            take("word", "BY")
        fld = take("word")
        desc = False
        if peek("DESC") or peek("ASC"):
            desc = take().upper() == "DESC"
        q.order = (fld, desc)
    while i < len(toks):
        word = take("word").upper()
        if word == "STARTPOSITION":
            q.start = max(1, int(take("word")))
        elif word == "MAXRESULTS":
            q.max_results = min(1000, max(1, int(take("word"))))
        else:
            raise Fault(400, "4000", "Error parsing query", f"QueryParserError: unexpected {word}")
    return q


def _field(record: dict[str, Any], path: str) -> Any:
    value: Any = record
    for part in path.split("."):
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


def _cmp_value(value: Any) -> Any:
    if isinstance(value, bool) or value is None:
        return value
    return str(value).lower()


def matches(record: dict[str, Any], cond: tuple[str, str, Any]) -> bool:
    name, op, want = cond
    have = _field(record, name)
    if op == "IN":
        return _cmp_value(have) in [_cmp_value(w) for w in want]
    if op == "LIKE":
        pattern = "^" + ".*".join(re.escape(p) for p in str(want).lower().split("%")) + "$"
        return have is not None and re.match(pattern, str(have).lower()) is not None
    a, b = _cmp_value(have), _cmp_value(want)
    if op == "=":
        return bool(a == b)
    if op == "!=":
        return bool(a != b)
    if a is None:
        return False
    if name.endswith("LastUpdatedTime") or name.endswith("CreateTime"):
        a, b = parse_iso(str(have)), parse_iso(str(want))
    return bool({"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op])


# --------------------------------------------------------------------------- the state


@dataclass
class Realm:
    realm_id: str
    company_name: str
    country: str = "US"
    records: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    next_id: int = 1
    requestids: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    window: tuple[int, int] = (0, 0)  # (minute, count)
    requests: int = 0
    in_flight: int = 0
    max_in_flight: int = 0  # the most requests of this realm served at once

    def table(self, entity: str) -> dict[str, dict[str, Any]]:
        return self.records.setdefault(entity, {})


@dataclass(kw_only=True)
class Grant(base.Grant):
    """A consent to one company; its refresh token expires (and rotates: see ``FakeQbo.token``)."""

    realm_id: str
    refresh_token: str
    refresh_expires: float


class FakeQbo(base.FakeServer):
    """The fake's state and server. ``start()`` serves it in a thread on a free port (``port=0``)."""

    thread_name = "fake-qbo"

    def __init__(
        self,
        *,
        client_id: str = DEFAULT_CLIENT_ID,
        client_secret: str = DEFAULT_CLIENT_SECRET,
        verifier_token: str = DEFAULT_VERIFIER,
        per_minute: int = 500,
        public_url: str = "",
    ) -> None:
        super().__init__()
        self.client_id, self.client_secret = client_id, client_secret
        self.verifier_token = verifier_token
        self.per_minute = per_minute
        self.public_url = public_url
        self.offset = 0.0
        self.realms: dict[str, Realm] = {}
        self.codes: dict[str, tuple[str, str, float]] = {}  # code -> (realm, redirect_uri, expiry)
        self.grants: list[Grant] = []
        self.next_authorize_realm: str | None = None
        self.faults: list[dict[str, Any]] = []
        self.calls: dict[str, int] = {}
        self.webhook_url = ""
        self.add_realm(DEFAULT_REALM, "Sandbox Company_US_1")

    # ----------------------------------------------------------------- lifecycle
    @property
    def url(self) -> str:
        return self.public_url or f"http://127.0.0.1:{self.server_port}"

    @property
    def discovery_url(self) -> str:
        return f"{self.url}/.well-known/openid_configuration"

    @property
    def api_base(self) -> str:
        return f"{self.url}/v3/company"

    def start(self, port: int = 0, host: str = "127.0.0.1") -> FakeQbo:
        self.serve(host, port, _Handler)
        return self

    # ----------------------------------------------------------------- clock and counters
    def now(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        with self.lock:
            self.offset += seconds

    def count(self, name: str) -> None:
        with self.lock:
            self.calls[name] = self.calls.get(name, 0) + 1

    # ----------------------------------------------------------------- realms and records
    def add_realm(self, realm_id: str | None = None, company_name: str = "", country: str = "US") -> Realm:
        with self.lock:
            realm_id = realm_id or str(
                9341453000000000 + len(self.realms) + 1 + secrets.randbelow(10**6) * 10
            )
            realm = self.realms.get(realm_id)
            if realm is None:
                realm = Realm(realm_id, company_name or f"Fake Company {realm_id}", country=country)
                self.realms[realm_id] = realm
                # A new QBO company comes with its chart of accounts (the income account items need).
                for name, kind in (
                    ("Sales of Product Income", "Income"),
                    ("Services", "Income"),
                    ("Undeposited Funds", "Other Current Asset"),
                ):
                    self.create(realm_id, "Account", {"Name": name, "AccountType": kind})
                # Outside the US a company's sales tax is a list of tax codes (read-only in the API).
                if country != "US":
                    for name in ("Standard rate", "Zero-rated", "Exempt"):
                        self.create(realm_id, "TaxCode", {"Name": name, "Taxable": name == "Standard rate"})
            return realm

    def realm(self, realm_id: str) -> Realm:
        realm = self.realms.get(realm_id)
        if realm is None:
            raise Fault(403, "3100", "ApplicationAuthorizationFailed", f"Unknown realm {realm_id}")
        return realm

    def records(self, realm_id: str, entity: str) -> list[dict[str, Any]]:
        with self.lock:
            return [copy.deepcopy(r) for r in self.realm(realm_id).table(entity).values()]

    def _check_names(self, realm: Realm, entity: str, record: dict[str, Any]) -> None:
        if entity in NAMED:
            name = str(record.get("DisplayName") or "").strip()
            if not name:
                raise Fault(
                    400,
                    "2020",
                    "Required param missing, need to supply the required value for the API",
                    "Required parameter DisplayName is missing in the request",
                )
            for other in NAMED:
                for r in realm.table(other).values():
                    same = r["Id"] == record.get("Id") and other == entity
                    if not same and str(r.get("DisplayName", "")).strip().lower() == name.lower():
                        raise duplicate_name(name)
        if entity == "Item":
            name = str(record.get("Name") or "").strip()
            if not name:
                raise Fault(400, "2020", "Required param missing", "Required parameter Name is missing")
            for r in realm.table("Item").values():
                if r["Id"] != record.get("Id") and str(r.get("Name", "")).lower() == name.lower():
                    raise Fault(
                        400,
                        "6240",
                        "Duplicate Name Exists Error",
                        f"The name supplied already exists. : Another product or service is "
                        f"already using this name ({name}).",
                    )

    def _ref(self, realm: Realm, entity: str, ref: Any) -> dict[str, Any]:
        rid = str((ref or {}).get("value", "")) if isinstance(ref, dict) else ""
        record = realm.table(entity).get(rid)
        if record is None or record.get("Active") is False:
            raise not_found(f"{entity} {rid}")
        return record

    def _derive(self, realm: Realm, entity: str, record: dict[str, Any], *, creating: bool) -> None:
        if entity == "Invoice":
            self._ref(realm, "Customer", record.get("CustomerRef"))
            total = Decimal("0")
            for line in record.get("Line") or []:
                if line.get("DetailType") == "SalesItemLineDetail":
                    self._ref(realm, "Item", (line.get("SalesItemLineDetail") or {}).get("ItemRef"))
                    total += Decimal(str(line.get("Amount", "0")))
            paid = sum(
                (Decimal(str(p["TotalAmt"])) for p in self._payments_of(realm, record.get("Id"))),
                Decimal("0"),
            )
            record["TotalAmt"] = float(total)
            record["Balance"] = float(total - paid)
            if not record.get("DocNumber") and creating:
                record["DocNumber"] = str(1000 + len(realm.table("Invoice")) + 1)
        if entity == "Item":
            if record.get("Type", "Service") in ("Service", "NonInventory"):
                self._ref(realm, "Account", record.get("IncomeAccountRef"))
            record.setdefault("Type", "Service")
        if entity == "Payment":
            self._ref(realm, "Customer", record.get("CustomerRef"))
            record.setdefault("TotalAmt", 0)
            record.setdefault("UnappliedAmt", 0)
        for key in ("Active",):
            if entity in ACTIVE_FILTERED:
                record.setdefault(key, True)
        if entity in NAMED:
            record.setdefault("FullyQualifiedName", record.get("DisplayName"))

    def _payments_of(self, realm: Realm, invoice_id: Any) -> list[dict[str, Any]]:
        out = []
        for p in realm.table("Payment").values():
            for line in p.get("Line") or []:
                for txn in line.get("LinkedTxn") or []:
                    if txn.get("TxnType") == "Invoice" and str(txn.get("TxnId")) == str(invoice_id):
                        out.append({"TotalAmt": line.get("Amount", 0)})
        return out

    def _touch(self, record: dict[str, Any], *, created: bool) -> None:
        stamp = iso(self.now())
        meta = record.setdefault("MetaData", {})
        if created:
            meta["CreateTime"] = stamp
        meta["LastUpdatedTime"] = stamp

    def create(self, realm_id: str, entity: str, body: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            realm = self.realm(realm_id)
            record = {k: copy.deepcopy(v) for k, v in body.items() if k not in ("Id", "SyncToken", "sparse")}
            record["Id"] = str(realm.next_id)
            self._check_names(realm, entity, record)
            self._derive(realm, entity, record, creating=True)
            realm.next_id += 1
            record["SyncToken"] = "0"
            record["domain"] = "QBO"
            self._touch(record, created=True)
            realm.table(entity)[record["Id"]] = record
            if entity == "Payment":
                self._rebalance(realm, record)
            return copy.deepcopy(record)

    def update(
        self, realm_id: str, entity: str, body: dict[str, Any], *, as_user: bool = False
    ) -> dict[str, Any]:
        with self.lock:
            realm = self.realm(realm_id)
            rid = str(body.get("Id", ""))
            current = realm.table(entity).get(rid)
            if current is None:
                raise not_found(f"{entity} {rid}")
            if not as_user and str(body.get("SyncToken")) != current["SyncToken"]:
                raise stale()
            sparse = bool(body.get("sparse")) or as_user
            fields = {k: copy.deepcopy(v) for k, v in body.items() if k not in ("Id", "SyncToken", "sparse")}
            if sparse:
                record = {**copy.deepcopy(current), **fields}
            else:  # a full update: every writable field not sent is cleared
                keep: dict[str, Any] = {
                    k: current[k] for k in ("Id", "MetaData", "domain", "DocNumber") if k in current
                }
                record = {**keep, **fields}
            self._check_names(realm, entity, record)
            self._derive(realm, entity, record, creating=False)
            record["SyncToken"] = str(int(current["SyncToken"]) + 1)
            self._touch(record, created=False)
            realm.table(entity)[rid] = record
            if entity == "Payment":
                self._rebalance(realm, record)
            return copy.deepcopy(record)

    def _rebalance(self, realm: Realm, payment: dict[str, Any]) -> None:
        applied = Decimal("0")
        for line in payment.get("Line") or []:
            for txn in line.get("LinkedTxn") or []:
                inv = realm.table("Invoice").get(str(txn.get("TxnId")))
                if inv is None:
                    raise not_found(f"Invoice {txn.get('TxnId')}")
                applied += Decimal(str(line.get("Amount", 0)))
                self._derive(realm, "Invoice", inv, creating=False)
                inv["SyncToken"] = str(int(inv["SyncToken"]) + 1)
                self._touch(inv, created=False)
        payment["UnappliedAmt"] = float(Decimal(str(payment.get("TotalAmt", 0))) - applied)

    def query(self, realm_id: str, text: str) -> dict[str, Any]:
        q = parse_query(text)
        with self.lock:
            rows = [copy.deepcopy(r) for r in self.realm(realm_id).table(q.entity).values()]
        if q.entity in ACTIVE_FILTERED and not any(c[0] == "Active" for c in q.conditions):
            rows = [r for r in rows if r.get("Active", True)]
        rows = [r for r in rows if all(matches(r, c) for c in q.conditions)]
        if q.count:
            return {"QueryResponse": {"totalCount": len(rows)}}
        if q.order:
            fld, desc = q.order
            rows.sort(key=lambda r: str(_field(r, fld) or ""), reverse=desc)
        else:
            rows.sort(key=lambda r: int(r["Id"]))
        page = rows[q.start - 1 : q.start - 1 + q.max_results]
        body: dict[str, Any] = {"startPosition": q.start, "maxResults": len(page)}
        if page:
            body[q.entity] = page
        return {"QueryResponse": body}

    def cdc(self, realm_id: str, entities: list[str], since: float) -> dict[str, Any]:
        responses = []
        with self.lock:
            realm = self.realm(realm_id)
            for name in entities:
                entity = ENTITIES.get(name.lower())
                if entity is None:
                    raise Fault(400, "4000", "Error parsing query", f"Unknown entity {name}")
                rows = [
                    copy.deepcopy(r)
                    for r in realm.table(entity).values()
                    if parse_iso(r["MetaData"]["LastUpdatedTime"]) > since
                ]
                body: dict[str, Any] = {"startPosition": 1, "maxResults": len(rows)}
                if rows:
                    body[entity] = rows
                responses.append(body)
        return {"CDCResponse": [{"QueryResponse": responses}]}

    # ----------------------------------------------------------------- OAuth
    def authorize(self, redirect_uri: str) -> tuple[str, str]:
        with self.lock:
            realm_id = self.next_authorize_realm or DEFAULT_REALM
            self.next_authorize_realm = None
            self.add_realm(realm_id)
            code = "AB" + secrets.token_urlsafe(24)
            self.codes[code] = (realm_id, redirect_uri, self.now() + 300)
            return code, realm_id

    def _issue(self, grant: Grant) -> dict[str, Any]:
        access = grant.issue_access(self.now(), ACCESS_TTL, "eyJ", nbytes=32)
        return {
            "token_type": "bearer",
            "access_token": access,
            "expires_in": ACCESS_TTL,
            "refresh_token": grant.refresh_token,
            "x_refresh_token_expires_in": int(grant.refresh_expires - self.now()),
        }

    def token(self, form: dict[str, str]) -> dict[str, Any]:
        grant_type = form.get("grant_type", "")
        with self.lock:
            self.count(f"token:{grant_type}")
            if grant_type == "authorization_code":
                entry = self.codes.pop(form.get("code", ""), None)
                if entry is None or entry[2] < self.now() or entry[1] != form.get("redirect_uri"):
                    raise OAuthError("invalid_grant")
                grant = Grant(
                    realm_id=entry[0],
                    refresh_token="AB" + secrets.token_urlsafe(32),
                    refresh_expires=self.now() + REFRESH_TTL,
                )
                self.grants.append(grant)
                return self._issue(grant)
            if grant_type == "refresh_token":
                old = form.get("refresh_token", "")
                grant_or_none = next((g for g in self.grants if g.refresh_token == old), None)
                if grant_or_none is None or grant_or_none.refresh_expires < self.now():
                    raise OAuthError("invalid_grant")
                grant = grant_or_none
                grant.refresh_token = "AB" + secrets.token_urlsafe(32)  # rotation: the old one dies
                grant.refresh_expires = self.now() + REFRESH_TTL
                return self._issue(grant)
            raise OAuthError("unsupported_grant_type")

    def revoke(self, token: str) -> None:
        with self.lock:
            self.count("revoke")
            self.grants = [
                g for g in self.grants if g.refresh_token != token and token not in g.access_tokens
            ]

    def revoke_realm(self, realm_id: str) -> None:
        with self.lock:
            self.grants = [g for g in self.grants if g.realm_id != realm_id]

    def expire_access_tokens(self) -> None:
        with self.lock:
            for g in self.grants:
                g.expire_access(self.now())

    def authenticate(self, header: str, realm_id: str) -> None:
        token = header[7:] if header.startswith("Bearer ") else ""
        with self.lock:
            for g in self.grants:
                expiry = g.access_tokens.get(token)
                if expiry is None:
                    continue
                if expiry < self.now():
                    raise Fault(401, "3200", "AuthenticationFailed", "Token expired: " + token[:6] + "...")
                if g.realm_id != realm_id:
                    raise Fault(
                        403,
                        "3100",
                        "ApplicationAuthorizationFailed",
                        f"The token is not authorized for realm {realm_id}",
                        "Authorization",
                    )
                return
        raise Fault(401, "3200", "AuthenticationFailed", "Token revoked or invalid")

    def throttle(self, realm: Realm) -> None:
        with self.lock:
            realm.requests += 1
            minute = int(self.now() // 60)
            count = realm.window[1] + 1 if realm.window[0] == minute else 1
            realm.window = (minute, count)
            if count > self.per_minute:
                fault = Fault(429, "3001", "ThrottleExceeded", "ThrottleExceeded", "ThrottleExceeded")
                fault.headers["Retry-After"] = str(max(1, int((minute + 1) * 60 - self.now())))
                raise fault

    def take_fault(self, realm_id: str, method: str, entity: str) -> dict[str, Any] | None:
        with self.lock:
            for f in self.faults:
                if f.get("realm_id") and f["realm_id"] != realm_id:
                    continue
                if f.get("entity") and f["entity"].lower() != entity.lower():
                    continue
                if f.get("method") and f["method"].upper() != method:
                    continue
                f["times"] -= 1
                if f["times"] <= 0:
                    self.faults.remove(f)
                return dict(f)
        return None

    def inject(self, **fault: Any) -> None:
        """Faults: ``kind`` "drop_after_commit" (create, then close the connection without answering),
        "status" (answer ``status`` with QBO ``code``, ``retry_after`` for 429s), "delay" (answer
        after ``seconds``); ``times`` (1),
        optional ``realm_id``, ``entity``, ``method``."""
        fault.setdefault("times", 1)
        with self.lock:
            self.faults.append(fault)


class OAuthError(Exception):
    pass


# --------------------------------------------------------------------------- HTTP


class _Handler(base.FakeHandler):
    fake: FakeQbo
    content_type = "application/json;charset=UTF-8"

    # ----------------------------------------------------------------- plumbing
    def answer_headers(self) -> dict[str, str]:
        return {"intuit_tid": f"1-{uuid.uuid4().hex[:24]}"}  # every QBO answer carries one

    def _send(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        self._done_serving()
        self.send_json(status, body, headers)

    def _json(self, raw: bytes) -> dict[str, Any]:
        try:
            data = json.loads(raw or b"{}")
        except ValueError as exc:
            raise Fault(400, "2010", "Request has invalid or unsupported property", str(exc)) from exc
        if not isinstance(data, dict):
            raise Fault(400, "2010", "Request has invalid or unsupported property", "an object is expected")
        return data

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def _dispatch(self, method: str) -> None:
        fake = self.fake
        url = urllib.parse.urlsplit(self.path)
        params = {k: v[-1] for k, v in urllib.parse.parse_qs(url.query).items()}
        raw = self.read_body() if method == "POST" else b""
        try:
            if url.path.startswith("/.well-known/openid"):
                return self._send(200, self._discovery())
            if url.path == "/oauth2/authorize" and method == "GET":
                return self._authorize(params)
            if url.path == "/oauth2/v1/tokens/bearer" and method == "POST":
                return self._token(raw)
            if url.path == "/oauth2/v1/tokens/revoke" and method == "POST":
                return self._revoke(raw)
            if url.path.startswith("/_control/"):
                return self._control(method, url.path[len("/_control/") :], params, raw)
            m = re.fullmatch(r"/v3/company/([^/]+)/(\w+)(?:/(\w+))?", url.path)
            if m:
                return self._api(method, m.group(1), m.group(2), m.group(3), params, raw)
            self._send(404, {"detail": "not found"})
        except Fault as fault:
            self._send(fault.status, fault.body(fake.now()), fault.headers)

    # ----------------------------------------------------------------- OAuth endpoints
    def _discovery(self) -> dict[str, Any]:
        base = self.fake.url
        return {
            "issuer": "https://oauth.platform.intuit.com/op/v1",
            "authorization_endpoint": f"{base}/oauth2/authorize",
            "token_endpoint": f"{base}/oauth2/v1/tokens/bearer",
            "userinfo_endpoint": f"{base}/v1/openid_connect/userinfo",
            "revocation_endpoint": f"{base}/oauth2/v1/tokens/revoke",
            "jwks_uri": f"{base}/op/v1/jwks",
            "response_types_supported": ["code"],
            "scopes_supported": [
                "openid",
                "email",
                "profile",
                "address",
                "phone",
                "com.intuit.quickbooks.accounting",
                "com.intuit.quickbooks.payment",
            ],
            "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
        }

    def _authorize(self, params: dict[str, str]) -> None:
        fake = self.fake
        redirect = params.get("redirect_uri", "")
        if params.get("client_id") != fake.client_id or not redirect or params.get("response_type") != "code":
            return self._send(400, {"error": "invalid_request"})
        if "com.intuit.quickbooks.accounting" not in params.get("scope", "").split():
            return self._send(400, {"error": "invalid_scope"})
        code, realm_id = fake.authorize(redirect)
        query = urllib.parse.urlencode({"code": code, "state": params.get("state", ""), "realmId": realm_id})
        self.redirect(f"{redirect}{'&' if '?' in redirect else '?'}{query}")

    def _client_ok(self) -> bool:
        header = self.headers.get("Authorization", "")
        if not header.startswith("Basic "):
            return False
        try:
            user, _, password = base64.b64decode(header[6:]).decode().partition(":")
        except ValueError:
            return False
        return hmac.compare_digest(user, self.fake.client_id) and hmac.compare_digest(
            password, self.fake.client_secret
        )

    def _token(self, raw: bytes) -> None:
        if not self._client_ok():
            return self._send(401, {"error": "invalid_client"})
        form = {k: v[-1] for k, v in urllib.parse.parse_qs(raw.decode()).items()}
        try:
            self._send(200, self.fake.token(form))
        except OAuthError as exc:
            self._send(400, {"error": str(exc)})

    def _revoke(self, raw: bytes) -> None:
        if not self._client_ok():
            return self._send(401, {"error": "invalid_client"})
        token = str(self._json(raw).get("token", ""))
        self.fake.revoke(token)
        self._send(200, None)

    # ----------------------------------------------------------------- the accounting API
    def _api(
        self, method: str, realm_id: str, resource: str, rid: str | None, params: dict[str, str], raw: bytes
    ) -> None:
        fake = self.fake
        fake.authenticate(self.headers.get("Authorization", ""), realm_id)
        realm = fake.realm(realm_id)
        fake.count(f"api:{realm_id}")
        with fake.lock:
            realm.in_flight += 1
            realm.max_in_flight = max(realm.max_in_flight, realm.in_flight)
        self._serving: Realm | None = realm
        try:
            self._api_call(fake, realm, method, realm_id, resource, rid, params, raw)
        finally:
            self._done_serving()

    def _done_serving(self) -> None:
        """The request no longer counts as in flight: called before the answer is written, since the
        client may send its next request the moment it reads this one's answer."""
        realm = getattr(self, "_serving", None)
        if realm is not None:
            self._serving = None
            with self.fake.lock:
                realm.in_flight -= 1

    def _api_call(
        self,
        fake: FakeQbo,
        realm: Realm,
        method: str,
        realm_id: str,
        resource: str,
        rid: str | None,
        params: dict[str, str],
        raw: bytes,
    ) -> None:
        entity = ENTITIES.get(resource.lower(), resource)
        fault = fake.take_fault(realm_id, method, entity)
        if fault and fault.get("kind") == "delay":  # a slow answer (to see the client's in-flight cap)
            time.sleep(float(fault.get("seconds", 0.2)))
        if fault and fault.get("kind") == "status":
            err = Fault(
                int(fault.get("status", 400)),
                str(fault.get("code", "6210")),
                str(fault.get("message", "Injected fault")),
                str(fault.get("detail", "")),
            )
            if err.status == 429:
                err.headers["Retry-After"] = str(fault.get("retry_after", 1))
            raise err
        fake.throttle(realm)
        if resource == "query":
            text = params.get("query") or (raw.decode() if raw else "")
            return self._send(200, {**fake.query(realm_id, text), "time": iso(fake.now())})
        if resource == "cdc":
            since = params.get("changedSince", "")
            try:
                since_ts = parse_iso(since)
            except ValueError:
                raise Fault(400, "4000", "Invalid changedSince", f"Invalid changedSince {since!r}") from None
            entities = [e for e in params.get("entities", "").split(",") if e]
            return self._send(200, {**fake.cdc(realm_id, entities, since_ts), "time": iso(fake.now())})
        if resource == "companyinfo":
            info = {"Id": "1", "CompanyName": realm.company_name, "Country": realm.country, "SyncToken": "0"}
            return self._send(200, {"CompanyInfo": info, "time": iso(fake.now())})
        if resource.lower() not in ENTITIES:
            raise Fault(400, "4001", "Unsupported Operation", f"Operation {resource} is not supported")
        if method == "GET":
            if not rid:
                raise Fault(400, "4001", "Unsupported Operation", "An id is required")
            with fake.lock:
                record = realm.table(entity).get(rid)
            if record is None:
                raise not_found(f"{entity} {rid}")
            return self._send(200, {entity: copy.deepcopy(record), "time": iso(fake.now())})
        body = self._json(raw)
        requestid = params.get("requestid", "")
        key = f"{entity}:{requestid}"
        if requestid:
            with fake.lock:
                seen = realm.requestids.get(key)
            if seen is not None:
                fake.count("replayed")
                return self._send(seen[0], seen[1])
        if body.get("Id"):
            record = fake.update(realm_id, entity, body)
        else:
            record = fake.create(realm_id, entity, body)
        answer = {entity: record, "time": iso(fake.now())}
        if requestid:
            with fake.lock:
                realm.requestids[key] = (200, answer)
        if fault and fault.get("kind") == "drop_after_commit":
            return self.drop()
        self._send(200, answer)

    # ----------------------------------------------------------------- control
    def _control(self, method: str, path: str, params: dict[str, str], raw: bytes) -> None:
        fake = self.fake
        body = self._json(raw) if method == "POST" else {}
        parts = path.strip("/").split("/")
        if parts == ["state"]:
            with fake.lock:
                state = {
                    "now": iso(fake.now()),
                    "calls": dict(fake.calls),
                    "realms": {
                        r.realm_id: {
                            "company_name": r.company_name,
                            "counts": {e: len(t) for e, t in r.records.items()},
                            "requests": r.requests,
                        }
                        for r in fake.realms.values()
                    },
                    "grants": len(fake.grants),
                    "faults": list(fake.faults),
                }
            return self._send(200, state)
        if method != "POST" and parts[0] != "realms":
            return self._send(405, {"detail": "POST"})
        if parts == ["clock"]:
            fake.advance(float(body.get("advance", 0)))
            return self._send(200, {"now": iso(fake.now())})
        if parts == ["faults"]:
            fake.inject(**body)
            return self._send(200, {"faults": len(fake.faults)})
        if parts == ["revoke"]:
            fake.revoke_realm(str(body.get("realm_id", "")))
            return self._send(200, {})
        if parts == ["expire-access-tokens"]:
            fake.expire_access_tokens()
            return self._send(200, {})
        if parts == ["rate-limit"]:
            fake.per_minute = int(body.get("per_minute", 500))
            return self._send(200, {"per_minute": fake.per_minute})
        if parts == ["next-authorize"]:
            realm = fake.add_realm(str(body.get("realm_id") or "") or None, str(body.get("company_name", "")))
            fake.next_authorize_realm = realm.realm_id
            return self._send(200, {"realm_id": realm.realm_id})
        if parts == ["webhook"]:
            fake.webhook_url = str(body.get("url", ""))
            return self._send(200, {"url": fake.webhook_url})
        if parts[0] == "realms" and len(parts) >= 3:
            entity = ENTITIES.get(parts[2].lower())
            if entity is None:
                return self._send(404, {"detail": "unknown entity"})
            if method == "GET":
                return self._send(200, {entity: fake.records(parts[1], entity)})
            if len(parts) == 4:  # an edit by a QBO user: sparse, bumps SyncToken
                record = fake.update(parts[1], entity, {**body, "Id": parts[3]}, as_user=True)
            else:
                record = fake.create(parts[1], entity, body)
            if fake.webhook_url:
                threading.Thread(
                    target=signed_webhook,
                    args=(
                        fake.webhook_url,
                        fake.verifier_token,
                        legacy_payload(
                            parts[1], [(entity, record["Id"], "Create" if len(parts) == 3 else "Update")]
                        ),
                    ),
                    daemon=True,
                ).start()
            return self._send(200, {entity: record})
        self._send(404, {"detail": "unknown control"})


# --------------------------------------------------------------------------- webhooks


def legacy_payload(realm_id: str, changes: list[tuple[str, str, str]], when: str = "") -> bytes:
    """Intuit's ``eventNotifications`` payload; ``changes`` = [(entity, id, operation)]."""
    stamp = when or iso(time.time())
    return json.dumps(
        {
            "eventNotifications": [
                {
                    "realmId": realm_id,
                    "dataChangeEvent": {
                        "entities": [
                            {"name": e, "id": i, "operation": op, "lastUpdated": stamp}
                            for e, i, op in changes
                        ]
                    },
                }
            ]
        }
    ).encode()


def cloudevents_payload(realm_id: str, changes: list[tuple[str, str, str]], when: str = "") -> bytes:
    """The CloudEvents form (a JSON array of events, ``type`` ``qbo.<entity>.<operation>.v1``)."""
    stamp = when or iso(time.time())
    return json.dumps(
        [
            {
                "specversion": "1.0",
                "id": str(uuid.uuid4()),
                "source": "intuit.dsnBgbseACLLRZNxo2dfc4evmEJdxde58xeeYcZliOU=",
                "type": f"qbo.{e.lower()}.{op.lower().rstrip('e')}ed.v1",
                "datacontenttype": "application/json",
                "time": stamp,
                "intuitentityid": i,
                "intuitaccountid": realm_id,
                "data": {},
            }
            for e, i, op in changes
        ]
    ).encode()


def signature(body: bytes, verifier_token: str) -> str:
    return base64.b64encode(hmac.new(verifier_token.encode(), body, hashlib.sha256).digest()).decode()


def signed_webhook(url: str, verifier_token: str, body: bytes, timeout: float = 10) -> int:
    """POST ``body`` as Intuit does, signed with ``verifier_token``; answers the HTTP status."""
    request = urllib.request.Request(  # noqa: S310 - the caller's own URL
        url,
        data=body,
        method="POST",
        headers={"Content-Type": "application/json", "intuit-signature": signature(body, verifier_token)},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A fake QuickBooks Online (OAuth + Accounting API)")
    parser.add_argument("--port", type=int, default=8790)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--client-id", default=DEFAULT_CLIENT_ID)
    parser.add_argument("--client-secret", default=DEFAULT_CLIENT_SECRET)
    parser.add_argument("--verifier-token", default=DEFAULT_VERIFIER)
    parser.add_argument(
        "--webhook-url", default="", help="send a webhook when a record is made via /_control"
    )
    args = parser.parse_args(argv)
    fake = FakeQbo(
        client_id=args.client_id, client_secret=args.client_secret, verifier_token=args.verifier_token
    )
    fake.webhook_url = args.webhook_url
    fake.start(port=args.port, host=args.host)
    print(f"fake QBO on {fake.url} (discovery {fake.discovery_url})", flush=True)
    fake.serve_until_interrupted()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
