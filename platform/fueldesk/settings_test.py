"""Settings for the test suites: the real Postgres and Redis, isolated cache keys, in-process jobs."""

import os
import tempfile
import uuid

os.environ.setdefault("LOGIN_RATE_LIMIT_PER_IP", "100000")
os.environ.setdefault("LOGIN_FAILURES_PER_ACCOUNT_AND_IP", "100000")
os.environ.setdefault("LOGIN_SLOWDOWN_AFTER_FAILURES", "100000")
os.environ.setdefault("SIGNUP_RATE_LIMIT_PER_IP", "100000")
os.environ.setdefault("SPARE_SCHEMA_POOL_SIZE", "0")

from fueldesk.settings import *  # noqa: F403
from fueldesk.settings import CACHES

# Every run (and every xdist worker) gets its own cache namespace in the shared Redis.
CACHES["default"]["KEY_PREFIX"] = f"test-{uuid.uuid4().hex[:8]}"
DRAMATIQ_STUB = True
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
MEDIA_ROOT = tempfile.mkdtemp(prefix="fueldesk-media-")  # type: ignore[assignment]
STORAGES = {
    "default": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": MEDIA_ROOT},
    },
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed: hashing is not under test here
# The per-process memo of verified tokens lasts the whole test: a request's query count must not
# depend on whether the machine was slow enough for a 1-second memo to lapse between two calls. Every
# change that matters (role, password, logout) clears the memo through bump_generation/revoke, so
# tests still see it at once; tests/reliability sets 0 where it tests the round trip itself.
LOCAL_AUTH_CACHE_SECONDS = 3600.0
