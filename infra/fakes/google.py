"""A small fake of Google for development and tests: OpenID discovery, authorize (consent given at
once), token (authorization_code and refresh_token grants, RS256 ID tokens with a `kid`), revoke,
JWKS and Gmail's `users.messages.send`, plus a control API under `/_control/` (docs/google.md).

    python -m infra.fakes.google --port 8791

In tests: ``with FakeGoogle() as google: ...`` serves it on a free loopback port from a thread
(the server plumbing and the grant are `infra/fakes/base.py`'s). Keys from `cryptography`, tokens
signed with PyJWT.
"""

from __future__ import annotations

import argparse
import base64
import email
import email.policy
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa

from infra.fakes import base

GMAIL_SEND_SCOPE = "https://www.googleapis.com/auth/gmail.send"
ACCESS_TOKEN_SECONDS = 3599


def _b64url_uint(n: int) -> str:
    raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass(kw_only=True)
class Grant(base.Grant):
    """What one consent gave: the identity and the scopes (the tokens are the base's)."""

    client_id: str
    scope: str
    identity: dict[str, Any]
    nonce: str | None


@dataclass
class State:
    identity: dict[str, Any] = field(
        default_factory=lambda: {
            "email": "office@fueldesk-demo.test",
            "email_verified": True,
            "sub": "108000000000000000001",
            "name": "FuelDesk Office",
        }
    )
    # When False the ID token carries no nonce (a provider that ignores it: the client must refuse).
    echo_nonce: bool = True
    authorizations: list[dict[str, Any]] = field(default_factory=list)
    codes: dict[str, Grant] = field(default_factory=dict)
    refresh: dict[str, Grant] = field(default_factory=dict)
    access: dict[str, Grant] = field(default_factory=dict)  # access token -> its grant
    messages: list[dict[str, Any]] = field(default_factory=list)
    # endpoint name ("token", "gmail_send", ...) -> list of HTTP statuses to answer next, in order.
    failures: dict[str, list[int]] = field(default_factory=dict)
    # endpoint name -> the Retry-After (seconds) its injected failures carry (Gmail sends one on a 429).
    retry_after: dict[str, int] = field(default_factory=dict)
    token_requests: list[dict[str, str]] = field(default_factory=list)
    revocations: list[str] = field(default_factory=list)


class FakeGoogle(base.FakeServer):
    """The fake's state and its HTTP server. `base_url` is known once started."""

    thread_name = "fake-google"

    def __init__(self, host: str = "127.0.0.1", port: int = 0, client_id: str = "", client_secret: str = ""):
        super().__init__()
        self.host, self.port = host, port
        self.client_id, self.client_secret = client_id, client_secret  # "" accepts any client
        self.state = State()
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.kid = "fake-" + secrets.token_hex(4)
        # Tests: called with each message Gmail is about to accept; False drops the connection
        # without an answer (the message is not stored), e.g. after killing the sender.
        self.before_send: Callable[[dict[str, Any]], bool] | None = None

    # --- life ------------------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def discovery_url(self) -> str:
        return f"{self.base_url}/.well-known/openid-configuration"

    @property
    def gmail_base(self) -> str:
        return f"{self.base_url}/gmail/v1"

    def start(self) -> FakeGoogle:
        self.serve(self.host, self.port, _Handler)
        self.port = self.server_port
        return self

    def settings(self) -> dict[str, str]:
        """The FuelDesk settings that point at this fake."""
        return {
            "GOOGLE_DISCOVERY_URL": self.discovery_url,
            "GMAIL_API_BASE": self.gmail_base,
            "GOOGLE_CLIENT_ID": self.client_id or "fueldesk-test-client",
            "GOOGLE_CLIENT_SECRET": self.client_secret or "fueldesk-test-secret",
        }

    # --- documents -------------------------------------------------------------------------------
    def discovery(self) -> dict[str, Any]:
        return {
            "issuer": self.base_url,
            "authorization_endpoint": f"{self.base_url}/o/oauth2/v2/auth",
            "token_endpoint": f"{self.base_url}/token",
            "revocation_endpoint": f"{self.base_url}/revoke",
            "jwks_uri": f"{self.base_url}/oauth2/v3/certs",
            "userinfo_endpoint": f"{self.base_url}/v1/userinfo",
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "scopes_supported": ["openid", "email", "profile"],
        }

    def jwks(self) -> dict[str, Any]:
        numbers = self.key.public_key().public_numbers()
        return {
            "keys": [
                {
                    "kty": "RSA",
                    "alg": "RS256",
                    "use": "sig",
                    "kid": self.kid,
                    "n": _b64url_uint(numbers.n),
                    "e": _b64url_uint(numbers.e),
                }
            ]
        }

    def id_token(self, claims: dict[str, Any], *, kid: str | None = None, key: Any = None) -> str:
        """An ID token signed with this fake's key (or `key`), for the token endpoint and for tests."""
        return jwt.encode(claims, key or self.key, algorithm="RS256", headers={"kid": kid or self.kid})

    def id_claims(self, grant: Grant, client_id: str) -> dict[str, Any]:
        now = int(time.time())
        claims: dict[str, Any] = {
            "iss": self.base_url,
            "aud": client_id,
            "azp": client_id,
            "iat": now,
            "exp": now + 3600,
            **{k: v for k, v in grant.identity.items() if k in {"sub", "email", "email_verified", "name"}},
        }
        if grant.nonce and self.state.echo_nonce:
            claims["nonce"] = grant.nonce
        return claims

    # --- control ---------------------------------------------------------------------------------
    def revoke_all(self) -> int:
        """Revoke every grant (the user removed the app at myaccount.google.com)."""
        with self.lock:
            grants = {id(g): g for g in self.state.refresh.values()}
            for grant in grants.values():
                grant.revoked = True
            return len(grants)

    def expire_access_tokens(self) -> None:
        with self.lock:
            for grant in {id(g): g for g in self.state.access.values()}.values():
                grant.expire_access(time.time())

    def fail_next(self, endpoint: str, status: int, times: int = 1, retry_after: int | None = None) -> None:
        with self.lock:
            self.state.failures.setdefault(endpoint, []).extend([status] * times)
            if retry_after is not None:
                self.state.retry_after[endpoint] = retry_after

    def reset(self) -> None:
        with self.lock:
            self.state = State()

    def take_failure(self, endpoint: str) -> int | None:
        with self.lock:
            queue = self.state.failures.get(endpoint) or []
            return queue.pop(0) if queue else None

    @property
    def messages(self) -> list[dict[str, Any]]:
        with self.lock:
            return list(self.state.messages)


class _Handler(base.FakeHandler):
    fake: FakeGoogle

    # --- plumbing --------------------------------------------------------------------------------
    def answer_headers(self) -> dict[str, str]:
        return {"Access-Control-Allow-Origin": "*"}  # the e2e calls the control API from a page

    def _form(self) -> dict[str, str]:
        return self.parse_form(self.read_body())

    def _oauth_error(self, status: int, error: str, description: str) -> None:
        self.send_json(status, {"error": error, "error_description": description})

    def _gmail_error(
        self, status: int, message: str, reason: str, headers: dict[str, str] | None = None
    ) -> None:
        self.send_json(
            status,
            {
                "error": {
                    "code": status,
                    "message": message,
                    "status": reason,
                    "errors": [{"message": message}],
                }
            },
            headers,
        )

    def do_OPTIONS(self) -> None:  # CORS preflight for the control API (the e2e calls it from a page)
        self.send_response(204)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
        self.send_header("Access-Control-Allow-Headers", "Content-Type, Authorization")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        g = self.fake
        if url.path == "/.well-known/openid-configuration":
            return self.send_json(200, g.discovery())
        if url.path == "/oauth2/v3/certs":
            return self.send_json(200, g.jwks())
        if url.path == "/o/oauth2/v2/auth":
            return self._authorize({k: v[-1] for k, v in parse_qs(url.query).items()})
        if url.path == "/_control/messages":
            return self.send_json(200, {"messages": g.messages})
        if url.path == "/_control/authorizations":
            with g.lock:
                return self.send_json(200, {"authorizations": list(g.state.authorizations)})
        if url.path == "/_control/state":
            with g.lock:
                return self.send_json(
                    200,
                    {
                        "identity": g.state.identity,
                        "grants": len({id(x) for x in g.state.refresh.values()}),
                        "revoked": sum(
                            1 for x in {id(x): x for x in g.state.refresh.values()}.values() if x.revoked
                        ),
                        "token_requests": [r.get("grant_type") for r in g.state.token_requests],
                        "revocations": len(g.state.revocations),
                    },
                )
        return self.send_json(404, {"error": "not_found"})

    def do_POST(self) -> None:
        url = urlsplit(self.path)
        if url.path == "/token":
            return self._token(self._form())
        if url.path == "/revoke":
            form = self._form()
            token = form.get("token") or parse_qs(url.query).get("token", [""])[-1]
            return self._revoke(token)
        if url.path == "/gmail/v1/users/me/messages/send":
            return self._gmail_send()
        if url.path.startswith("/_control/"):
            return self._control(url.path.removeprefix("/_control/"))
        return self.send_json(404, {"error": "not_found"})

    # --- OAuth -----------------------------------------------------------------------------------
    def _authorize(self, q: dict[str, str]) -> None:
        g = self.fake
        redirect_uri = q.get("redirect_uri", "")
        if not redirect_uri or q.get("response_type") != "code" or not q.get("client_id"):
            return self.send_json(
                400, {"error": "invalid_request", "error_description": "Missing parameters"}
            )
        if g.client_id and q["client_id"] != g.client_id:
            return self.send_json(
                401, {"error": "invalid_client", "error_description": "The OAuth client was not found."}
            )
        with g.lock:
            g.state.authorizations.append(dict(q))
            code = "code-" + secrets.token_urlsafe(16)
            g.state.codes[code] = Grant(
                client_id=q["client_id"],
                scope=q.get("scope", ""),
                identity=dict(g.state.identity),
                nonce=q.get("nonce"),
                # A refresh token only for offline access, and (as Google) only with a fresh consent.
                refresh_token=("refresh-" + secrets.token_urlsafe(24))
                if q.get("access_type") == "offline" and q.get("prompt") == "consent"
                else None,
            )
        params = {"code": code, "scope": q.get("scope", "")}
        if "state" in q:
            params["state"] = q["state"]
        sep = "&" if "?" in redirect_uri else "?"
        self.redirect(f"{redirect_uri}{sep}{urlencode(params)}")

    def _client_ok(self, form: dict[str, str]) -> bool:
        g = self.fake
        client_id, client_secret = form.get("client_id", ""), form.get("client_secret", "")
        auth = self.headers.get("Authorization", "")
        if auth.startswith("Basic "):
            client_id, _, client_secret = base64.b64decode(auth[6:]).decode().partition(":")
        if not client_id:
            return False
        return not g.client_id or (client_id == g.client_id and client_secret == g.client_secret)

    def _token(self, form: dict[str, str]) -> None:
        g = self.fake
        with g.lock:
            g.state.token_requests.append({k: v for k, v in form.items() if k == "grant_type"})
        failure = g.take_failure("token")
        if failure:
            return self._oauth_error(
                failure, "internal_failure" if failure >= 500 else "invalid_request", "Injected"
            )
        if not self._client_ok(form):
            return self._oauth_error(401, "invalid_client", "Unauthorized")
        grant_type = form.get("grant_type")
        with g.lock:
            if grant_type == "authorization_code":
                grant = g.state.codes.pop(form.get("code", ""), None)
                if grant is None:
                    return self._oauth_error(400, "invalid_grant", "Malformed auth code.")
                if grant.refresh_token:
                    g.state.refresh[grant.refresh_token] = grant
                access = grant.issue_access(time.time(), ACCESS_TOKEN_SECONDS, "access-")
                g.state.access[access] = grant
                payload: dict[str, Any] = {
                    "access_token": access,
                    "expires_in": ACCESS_TOKEN_SECONDS,
                    "scope": grant.scope,
                    "token_type": "Bearer",
                }
                if grant.refresh_token:
                    payload["refresh_token"] = grant.refresh_token
                if "openid" in grant.scope.split():
                    payload["id_token"] = g.id_token(
                        g.id_claims(grant, form.get("client_id") or grant.client_id)
                    )
                return self.send_json(200, payload)
            if grant_type == "refresh_token":
                grant_or_none = g.state.refresh.get(form.get("refresh_token", ""))
                if grant_or_none is None or grant_or_none.revoked:
                    return self._oauth_error(400, "invalid_grant", "Token has been expired or revoked.")
                access = grant_or_none.issue_access(time.time(), ACCESS_TOKEN_SECONDS, "access-")
                g.state.access[access] = grant_or_none
                return self.send_json(
                    200,
                    {
                        "access_token": access,
                        "expires_in": ACCESS_TOKEN_SECONDS,
                        "scope": grant_or_none.scope,
                        "token_type": "Bearer",
                    },
                )
        return self._oauth_error(400, "unsupported_grant_type", "Invalid grant_type: " + str(grant_type))

    def _revoke(self, token: str) -> None:
        g = self.fake
        with g.lock:
            g.state.revocations.append(token[:12])
            grant = g.state.refresh.get(token) or g.state.access.get(token)
            if grant is None:
                return self._oauth_error(400, "invalid_token", "Token expired or revoked")
            grant.revoked = True
        return self.send_json(200, {})

    # --- Gmail -----------------------------------------------------------------------------------
    def _gmail_send(self) -> None:
        g = self.fake
        body = self.read_body()
        auth = self.headers.get("Authorization", "")
        token = auth[7:] if auth.startswith("Bearer ") else ""
        with g.lock:
            grant = g.state.access.get(token)
            expires = grant.access_tokens.get(token, 0.0) if grant is not None else 0.0
        if grant is None or grant.revoked or expires < time.time():
            return self._gmail_error(
                401,
                "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie "
                "or other valid authentication credential.",
                "UNAUTHENTICATED",
            )
        if GMAIL_SEND_SCOPE not in grant.scope.split():
            return self._gmail_error(
                403, "Request had insufficient authentication scopes.", "PERMISSION_DENIED"
            )
        failure = g.take_failure("gmail_send")
        if failure:
            wait = g.state.retry_after.get("gmail_send")
            return self._gmail_error(
                failure,
                "User-rate limit exceeded" if failure == 429 else "Injected failure",
                "UNAVAILABLE" if failure >= 500 else "RESOURCE_EXHAUSTED" if failure == 429 else "FAILED",
                headers={"Retry-After": str(wait)} if wait is not None and failure in (429, 503) else None,
            )
        try:
            raw = json.loads(body)["raw"]
            mime = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4))
            parsed = email.message_from_bytes(mime, policy=email.policy.default)
        except (ValueError, KeyError, TypeError):
            return self._gmail_error(400, "Invalid value for ByteString", "INVALID_ARGUMENT")
        recipients = [parsed.get(h, "") for h in ("To", "Cc", "Bcc")]
        if not any(recipients):
            return self._gmail_error(400, "Recipient address required", "INVALID_ARGUMENT")
        message_id = "gm" + secrets.token_hex(8)
        attachments = [p.get_filename() for p in parsed.walk() if p.get_filename()]
        record = {
            "id": message_id,
            "account": grant.identity.get("email"),
            "from": parsed.get("From", ""),
            "to": parsed.get("To", ""),
            "cc": parsed.get("Cc", ""),
            "bcc": parsed.get("Bcc", ""),
            "reply_to": parsed.get("Reply-To", ""),
            "subject": parsed.get("Subject", ""),
            "message_id": parsed.get("Message-ID", ""),
            "attachments": attachments,
            "raw": raw,
        }
        if g.before_send is not None and not g.before_send(record):
            self.close_connection = True
            return None
        with g.lock:
            g.state.messages.append(record)
        return self.send_json(200, {"id": message_id, "threadId": message_id, "labelIds": ["SENT"]})

    # --- control ---------------------------------------------------------------------------------
    def _control(self, action: str) -> None:
        g = self.fake
        try:
            data = json.loads(self.read_body() or b"{}")
        except ValueError:
            return self.send_json(400, {"error": "invalid json"})
        if action == "revoke":
            return self.send_json(200, {"revoked": g.revoke_all()})
        if action == "expire-access-tokens":
            g.expire_access_tokens()
            return self.send_json(200, {})
        if action == "fail":
            wait = data.get("retry_after")
            g.fail_next(
                str(data.get("endpoint", "")),
                int(data.get("status", 500)),
                int(data.get("times", 1)),
                retry_after=int(wait) if wait is not None else None,
            )
            return self.send_json(200, {})
        if action == "identity":
            with g.lock:
                g.state.identity.update(
                    {k: data[k] for k in ("email", "email_verified", "sub", "name") if k in data}
                )
                if "echo_nonce" in data:
                    g.state.echo_nonce = bool(data["echo_nonce"])
                return self.send_json(200, {"identity": g.state.identity})
        if action == "reset":
            g.reset()
            return self.send_json(200, {})
        return self.send_json(404, {"error": "unknown control action"})


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="A fake of Google's OAuth, JWKS and Gmail send.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8791)
    parser.add_argument("--client-id", default="")
    parser.add_argument("--client-secret", default="")
    args = parser.parse_args(argv)
    fake = FakeGoogle(args.host, args.port, args.client_id, args.client_secret).start()
    print(f"fake Google on {fake.base_url} (discovery {fake.discovery_url})", flush=True)
    fake.serve_until_interrupted()


if __name__ == "__main__":
    main()
