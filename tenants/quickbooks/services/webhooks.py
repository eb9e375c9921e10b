"""Intuit's webhooks: the signature check and the events a body names."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

from core.errors import ApiError
from django.conf import settings


def signature_ok(body: bytes, signature: str) -> bool:
    """Intuit signs the raw body: base64(HMAC-SHA256(verifier token, body)); compared in constant time."""
    token = settings.QBO_WEBHOOK_VERIFIER_TOKEN
    if not token or not signature:
        return False
    expected = base64.b64encode(hmac.new(token.encode(), body, hashlib.sha256).digest()).decode()
    return hmac.compare_digest(expected.encode(), signature.strip().encode())


def webhook_events(body: bytes) -> list[tuple[str, str, str]]:
    """(realmId, entity, id) of each change, from the legacy ``eventNotifications`` payload or the
    CloudEvents one (an array of events typed ``qbo.<entity>.<operation>.v1``)."""
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError(400, "The webhook body is not JSON.") from exc
    events: list[tuple[str, str, str]] = []
    if isinstance(data, dict) and isinstance(data.get("eventNotifications"), list):
        for note in data["eventNotifications"]:
            if not isinstance(note, dict):
                continue
            realm = str(note.get("realmId") or "")
            change = note.get("dataChangeEvent")
            entities = change.get("entities") if isinstance(change, dict) else None
            for e in entities if isinstance(entities, list) else []:
                if isinstance(e, dict) and e.get("name") and e.get("id"):
                    events.append((realm, str(e["name"]), str(e["id"])))
        return events
    items = data if isinstance(data, list) else [data]
    for ev in items:
        if not isinstance(ev, dict) or not isinstance(ev.get("type"), str):
            raise ApiError(
                400, "The webhook body is neither an eventNotifications nor a CloudEvents payload."
            )
        parts = ev["type"].split(".")
        if len(parts) >= 3 and parts[0] == "qbo" and ev.get("intuitentityid"):
            events.append(
                (str(ev.get("intuitaccountid") or ""), parts[1].capitalize(), str(ev["intuitentityid"]))
            )
    return events
