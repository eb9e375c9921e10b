from django.test import override_settings

from core import secretbox


def test_a_secret_round_trips_and_is_not_stored_in_clear() -> None:
    token = secretbox.encrypt("refresh-token-123", purpose="test/oauth")
    assert "refresh-token-123" not in token
    assert secretbox.decrypt(token, purpose="test/oauth") == "refresh-token-123"


def test_a_token_of_one_purpose_does_not_open_as_another() -> None:
    token = secretbox.encrypt("s3cret", purpose="test/a")
    assert secretbox.decrypt(token, purpose="test/b") is None


def test_a_rotated_secret_key_still_decrypts_through_the_fallbacks() -> None:
    with override_settings(SECRET_KEY="old-key-" + "x" * 40):
        token = secretbox.encrypt("s3cret", purpose="test/rotation")
    with override_settings(SECRET_KEY="new-key-" + "y" * 40, SECRET_KEY_FALLBACKS=["old-key-" + "x" * 40]):
        assert secretbox.decrypt(token, purpose="test/rotation") == "s3cret"
    with override_settings(SECRET_KEY="new-key-" + "y" * 40, SECRET_KEY_FALLBACKS=[]):
        assert secretbox.decrypt(token, purpose="test/rotation") is None


def test_empty_stays_empty() -> None:
    assert secretbox.encrypt("", purpose="test/x") == ""
    assert secretbox.decrypt("", purpose="test/x") == ""
