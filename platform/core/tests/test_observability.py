from core.observability import FILTERED, Context, before_send


def test_sentry_events_carry_no_passwords_or_tokens() -> None:
    event = {
        "request": {
            "headers": {"Authorization": "Bearer abc.def.ghi", "User-Agent": "x"},
            "data": {"email": "a@b.test", "password": "Secret-123", "nested": {"access_token": "t"}},
        },
        "extra": {"token": "zzz", "note": "kept"},
    }
    # Outside any request or job (a test calling an auth function directly may have bound a tenant
    # to this thread): a context of its own, as the middleware opens for every request.
    context = Context("test-request")
    try:
        out = before_send(event, {})
    finally:
        context.close()
    assert out["request"]["headers"]["Authorization"] == FILTERED
    assert out["request"]["headers"]["User-Agent"] == "x"
    assert out["request"]["data"]["password"] == FILTERED
    assert out["request"]["data"]["nested"]["access_token"] == FILTERED
    assert out["request"]["data"]["email"] == "a@b.test"
    assert out["extra"] == {"token": FILTERED, "note": "kept"}
    assert out["tags"]["tenant"] == "public"
