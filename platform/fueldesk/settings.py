"""Django settings for FuelDesk. Every deploy-time knob is an environment variable (README)."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse, urlsplit

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parents[2]
VAR_DIR = Path(os.environ.get("FUELDESK_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool = False) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


def database_from_url(url: str) -> dict[str, object]:
    parsed = urlparse(url)
    query = parse_qs(parsed.query)
    # Django binds client-side and never prepares; the kit's kept list statements run on server-binding
    # cursors (core.kept.prepared_cursor), prepared by psycopg on their 5th run on a connection.
    options: dict[str, object] = {"prepare_threshold": int(os.environ.get("DB_PREPARE_THRESHOLD", "5"))}
    # Parallel query for this process's sessions (unset: the server's default). The web server sets 0
    # (infra/gunicorn.conf.py): a list page must not wait ~15 ms for parallel workers that a guessed
    # row count chose (`= ANY(ARRAY(subquery))` is planned as 10 ids); batch workers keep the default.
    parallel = os.environ.get("DB_MAX_PARALLEL_WORKERS_PER_GATHER", "").strip()
    if parallel:
        options["options"] = f"-c max_parallel_workers_per_gather={int(parallel)}"
    host = unquote(parsed.hostname or "")
    if "host" in query:  # unix socket directories, as embedded servers hand them out
        host = query["host"][0]
    return {
        "ENGINE": "django_tenants.postgresql_backend",
        "NAME": unquote(parsed.path.lstrip("/")) or "fueldesk",
        "USER": unquote(parsed.username or ""),
        "PASSWORD": unquote(parsed.password or ""),
        "HOST": host,
        "PORT": str(parsed.port or ""),
        "CONN_MAX_AGE": int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        "CONN_HEALTH_CHECKS": True,
        "OPTIONS": options,
        "TEST": {"NAME": os.environ.get("TEST_DATABASE_NAME", "test_fueldesk")},
    }


DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "*").split(",") if h.strip()]
# `dev` (make run, the default) and `test` may use the built-in development keys; any other value
# (staging, production, ...) refuses to start without real keys (docs/operations.md, "Secrets").
ENVIRONMENT = os.environ.get("FUELDESK_ENV", "dev").strip().lower() or "dev"
DEVELOPMENT = ENVIRONMENT in {"dev", "test"}
DEV_SECRET_KEY = "dev-only-insecure-secret-key-change-me-in-production-0123456789"
DEV_JWT_SIGNING_KEY = "dev-only-insecure-jwt-signing-key-change-me-0123456789"
SECRET_KEY_MIN_LENGTH = 50  # Django's own deploy check wants 50 characters
JWT_KEY_MIN_BYTES = 32  # RFC 7518: an HS256 key is at least as long as the hash (32 bytes)


def _secret(name: str, dev_default: str, min_bytes: int) -> str:
    value = os.environ.get(name, "")
    if DEVELOPMENT:
        return value or dev_default
    if not value:
        raise ImproperlyConfigured(
            f"{name} is not set. FUELDESK_ENV={ENVIRONMENT} is not a development environment, so the "
            f"server does not start with a built-in key: set {name} to a random value of at least "
            f"{min_bytes} bytes (docs/operations.md, 'Secrets')."
        )
    if len(value.encode()) < min_bytes or len(set(value)) < 5:
        raise ImproperlyConfigured(f"{name} is too short: use a random value of at least {min_bytes} bytes.")
    if value in {DEV_SECRET_KEY, DEV_JWT_SIGNING_KEY}:
        raise ImproperlyConfigured(f"{name} is the public development key: set a secret one.")
    return value


def _secret_list(name: str, min_bytes: int) -> list[str]:
    values = [v.strip() for v in os.environ.get(name, "").split(",") if v.strip()]
    if not DEVELOPMENT and any(len(v.encode()) < min_bytes for v in values):
        raise ImproperlyConfigured(f"{name}: every key must be at least {min_bytes} bytes.")
    return values


SECRET_KEY = _secret("SECRET_KEY", DEV_SECRET_KEY, SECRET_KEY_MIN_LENGTH)
# Old SECRET_KEYs still accepted for Django's signatures while a rotation settles.
SECRET_KEY_FALLBACKS = _secret_list("SECRET_KEY_FALLBACKS", SECRET_KEY_MIN_LENGTH)

SHARED_APPS = [
    "django_tenants",
    "tenancy",
    "django.contrib.contenttypes",
    "django.contrib.staticfiles",
    # Trigram GIN indexes (customer search) and their operator classes.
    "django.contrib.postgres",
]
TENANT_APPS = [
    "tenants.accounts",
    "tenants.geo",
    "tenants.company",
    "tenants.jobs",
    "tenants.fleet",
    "tenants.catalog",
    "tenants.parties",
    "tenants.pricing",
    "tenants.imports",
    "tenants.documents",
    "tenants.mail",
    "tenants.sequences",
    "tenants.sales",
    "tenants.invoicing",
    "tenants.purchasing",
    "tenants.billparse",
    "tenants.driver",
    "tenants.dashboard",
    "tenants.delivery",
    "tenants.quotes",
    "tenants.inbox",
    "tenants.onboarding",
    "tenants.google",
    "tenants.quickbooks",
    "tenants.dataexport",
    "tenants.forecast",
    "tenants.routing",
]
INSTALLED_APPS = [
    *SHARED_APPS,
    *(app for app in TENANT_APPS if app not in SHARED_APPS),
    # The composition root (no models): last, so its ready() loads every API once the apps are ready.
    "fueldesk",
]

TENANT_MODEL = "tenancy.Tenant"
TENANT_DOMAIN_MODEL = "tenancy.Domain"
# The company's staff user (not Django's auth user): kit models name it through this setting.
USER_MODEL = "accounts.User"
# New tenants are cloned from this migrated, row-less schema instead of running every migration.
TENANT_BASE_SCHEMA = "tenant_template"
TENANT_CREATION_FAKES_MIGRATIONS = True
# migrate_schemas leaves out the schemas that already record every migration (tenancy/migration_executor.py).
GET_EXECUTOR_FUNCTION = "tenancy.migration_executor.get_executor"
# TENANT_LIMIT_SET_CALLS stays off: a savepoint rollback could otherwise serve another tenant's rows.
SPARE_SCHEMA_POOL_SIZE = int(os.environ.get("SPARE_SCHEMA_POOL_SIZE", "3"))
# Kit lists render .values() rows without output validation where the schema allows (core/rows.py);
# KIT_FAST_LISTS=0 turns it off (for the benchmark's before/after).
KIT_FAST_LISTS = os.environ.get("KIT_FAST_LISTS", "1") != "0"

MIDDLEWARE = [
    # Outermost: the request id (X-Request-ID), the request's log line and metrics see the final answer.
    "core.middleware.RequestTelemetryMiddleware",
    "core.middleware.ApiJsonErrorsMiddleware",
    "core.middleware.ApiPathMiddleware",
    "core.middleware.TenantFromTokenMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # WhiteNoise (core.middleware.StaticFilesMiddleware), except the SPA's HTML pages: those come from
    # the view that signs their CSP nonce.
    "core.csp.SpaFilesMiddleware",
    "django.middleware.common.CommonMiddleware",
    # The API takes bearer tokens, not cookies (django-ninja marks its views CSRF-exempt); the
    # middleware stays for anything cookie-based added later.
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
X_FRAME_OPTIONS = "DENY"
APPEND_SLASH = False

ROOT_URLCONF = "fueldesk.urls"
WSGI_APPLICATION = "fueldesk.wsgi.application"
DATABASE_ROUTERS = ("django_tenants.routers.TenantSyncRouter",)
DATABASES = {
    "default": database_from_url(os.environ.get("DATABASE_URL", "postgres://root@127.0.0.1:5432/fueldesk"))
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
# An unreachable or hanging Redis fails fast (a 503 with a clear detail), never hangs a request.
REDIS_CONNECT_TIMEOUT_SECONDS = float(os.environ.get("REDIS_CONNECT_TIMEOUT_SECONDS", "2"))
REDIS_SOCKET_TIMEOUT_SECONDS = float(os.environ.get("REDIS_SOCKET_TIMEOUT_SECONDS", "3"))
CACHES = {
    "default": {
        "BACKEND": "core.cache.ReusingRedisCache",
        "LOCATION": REDIS_URL,
        "KEY_FUNCTION": "django_tenants.cache.make_key",
        "REVERSE_KEY_FUNCTION": "django_tenants.cache.reverse_key",
        "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "fd"),
        "OPTIONS": {
            "socket_connect_timeout": REDIS_CONNECT_TIMEOUT_SECONDS,
            "socket_timeout": REDIS_SOCKET_TIMEOUT_SECONDS,
        },
    }
}

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "platform" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": []},
    }
]

PASSWORD_HASHERS = [
    "tenants.accounts.hashers.ServerArgon2PasswordHasher",  # why its parameters: the module's docstring
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
PASSWORD_MIN_LENGTH = 10

# Access tokens: HS256 JWT, `exp` in seconds, `tid` names the tenant schema.
JWT_ALGORITHM = "HS256"
# In development a SECRET_KEY given without JWT_SIGNING_KEY also signs tokens (docker-compose).
JWT_SIGNING_KEY = _secret(
    "JWT_SIGNING_KEY", os.environ.get("SECRET_KEY") or DEV_JWT_SIGNING_KEY, JWT_KEY_MIN_BYTES
)
# Key rotation: tokens signed with a previous key are still accepted until JWT_PREVIOUS_KEYS_UNTIL
# (ISO 8601, required with previous keys; one token lifetime after the switch is enough).
JWT_PREVIOUS_SIGNING_KEYS = _secret_list("JWT_PREVIOUS_SIGNING_KEYS", JWT_KEY_MIN_BYTES)


def _previous_keys_until() -> datetime | None:
    raw = os.environ.get("JWT_PREVIOUS_KEYS_UNTIL", "").strip()
    if not raw:
        if JWT_PREVIOUS_SIGNING_KEYS:
            raise ImproperlyConfigured(
                "JWT_PREVIOUS_SIGNING_KEYS needs JWT_PREVIOUS_KEYS_UNTIL (ISO 8601 date and time with its "
                "time zone, e.g. 2026-01-31T12:00:00Z): the end of the grace period of the old keys."
            )
        return None
    try:
        until = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError as exc:
        raise ImproperlyConfigured(
            f"JWT_PREVIOUS_KEYS_UNTIL is not an ISO 8601 date and time: {raw!r}"
        ) from exc
    if until.tzinfo is None:
        raise ImproperlyConfigured("JWT_PREVIOUS_KEYS_UNTIL needs a time zone (e.g. a trailing Z for UTC).")
    return until


JWT_PREVIOUS_KEYS_UNTIL = _previous_keys_until()
# How long one process may reuse its answer to "is this token revoked, who is its user" (core/authcache.py).
LOCAL_AUTH_CACHE_SECONDS = float(os.environ.get("LOCAL_AUTH_CACHE_SECONDS", "1"))
ACCESS_TOKEN_TTL_SECONDS = int(os.environ.get("ACCESS_TOKEN_TTL_SECONDS", str(12 * 3600)))
PASSWORD_RESET_TTL_SECONDS = int(os.environ.get("PASSWORD_RESET_TTL_SECONDS", "3600"))
LOGIN_RATE_LIMIT_PER_IP = int(os.environ.get("LOGIN_RATE_LIMIT_PER_IP", "30"))
# Wrong passwords never lock an account for everyone: they block one account-and-address pair,
# and slow the account down (one attempt per 1, 2, 4 ... up to LOGIN_SLOWDOWN_MAX_SECONDS seconds
# once LOGIN_SLOWDOWN_AFTER_FAILURES failures are counted, from any address).
LOGIN_FAILURES_PER_ACCOUNT_AND_IP = int(os.environ.get("LOGIN_FAILURES_PER_ACCOUNT_AND_IP", "10"))
LOGIN_SLOWDOWN_AFTER_FAILURES = int(os.environ.get("LOGIN_SLOWDOWN_AFTER_FAILURES", "5"))
LOGIN_SLOWDOWN_MAX_SECONDS = int(os.environ.get("LOGIN_SLOWDOWN_MAX_SECONDS", "30"))
LOGIN_RATE_LIMIT_WINDOW_SECONDS = int(os.environ.get("LOGIN_RATE_LIMIT_WINDOW_SECONDS", "300"))
SIGNUP_RATE_LIMIT_PER_IP = int(os.environ.get("SIGNUP_RATE_LIMIT_PER_IP", "20"))
PUBLIC_BASE_URL = os.environ.get("PUBLIC_BASE_URL", "http://127.0.0.1:8000")

# Reverse proxies (load balancers) in front of the app. Each one appends the address it received
# the request from to X-Forwarded-For; the client is the entry that many places from the right.
# 0 (the default): the header is ignored and REMOTE_ADDR is the client (a client can write the
# header itself, so trusting it without a proxy would let anyone pick their own address).
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT must be 0 or more.")
if TRUSTED_PROXY_COUNT:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# HTTPS outside development: redirect plain HTTP (but not the load balancer's health checks) and
# send HSTS.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEVELOPMENT)
SECURE_REDIRECT_EXEMPT = [r"^api/(health|health/live|ping)/?$"]
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEVELOPMENT else str(365 * 24 * 3600)))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEVELOPMENT)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEVELOPMENT)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE = not DEVELOPMENT

# Files: S3 when a bucket is configured, else a local folder. Keys always start with the tenant prefix.
FILE_UPLOAD_MAX_BYTES = int(os.environ.get("FILE_UPLOAD_MAX_BYTES", str(5 * 1024 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = FILE_UPLOAD_MAX_BYTES + 1024 * 1024
# A route taking several files at once (the bill parser's batch) reads at most this much in one
# request; over it (or one file over FILE_UPLOAD_MAX_BYTES) is a 413 before the body is read (core.uploads).
UPLOAD_REQUEST_MAX_BYTES = int(os.environ.get("UPLOAD_REQUEST_MAX_BYTES", str(25 * 1024 * 1024)))
AWS_STORAGE_BUCKET_NAME = os.environ.get("AWS_STORAGE_BUCKET_NAME", "")
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", VAR_DIR / "media"))
if AWS_STORAGE_BUCKET_NAME:
    default_storage: dict[str, object] = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": AWS_STORAGE_BUCKET_NAME,
            "endpoint_url": os.environ.get("AWS_S3_ENDPOINT_URL") or None,
            "region_name": os.environ.get("AWS_S3_REGION_NAME") or None,
            "default_acl": None,
            "querystring_auth": True,
            "file_overwrite": False,
        },
    }
else:
    default_storage = {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": MEDIA_ROOT},
    }
STORAGES = {
    "default": default_storage,
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
SPA_DIST_DIR = BASE_DIR / "spa" / "dist"
WHITENOISE_ROOT = SPA_DIST_DIR if SPA_DIST_DIR.exists() else None
WHITENOISE_INDEX_FILE = False

# Content-Security-Policy of the SPA's pages (core/csp.py, docs/security.md). CSP_CONNECT_SRC: origins
# the page calls besides its own, space-separated (e.g. a Sentry ingest origin when VITE_SENTRY_DSN
# is built in; that DSN's origin is added by itself when the server sees the same variable).
CSP_CONNECT_SRC = os.environ.get("CSP_CONNECT_SRC", "").split()
_browser_dsn = os.environ.get("VITE_SENTRY_DSN", "")
if _browser_dsn.startswith(("https://", "http://")):
    _dsn = urlsplit(_browser_dsn)
    CSP_CONNECT_SRC.append(f"{_dsn.scheme}://{_dsn.hostname}" + (f":{_dsn.port}" if _dsn.port else ""))
CSP_REPORTS_PER_MINUTE = int(os.environ.get("CSP_REPORTS_PER_MINUTE", "60"))

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "FuelDesk <no-reply@fueldesk.local>")

# Google (tenants/google, docs/google.md): a company's Gmail account for sending, and "Sign in with
# Google". Every endpoint comes from the discovery document, so `make run` and the tests point these
# at the local fake (infra/fakes/google.py).
GOOGLE_DISCOVERY_URL = os.environ.get(
    "GOOGLE_DISCOVERY_URL", "https://accounts.google.com/.well-known/openid-configuration"
)
GMAIL_API_BASE = os.environ.get("GMAIL_API_BASE", "https://gmail.googleapis.com/gmail/v1").rstrip("/")
# A Gmail 429/503 with Retry-After up to this long is waited out in the worker; a longer one queues
# the email again for when Gmail said (tenants/google/gmail.py), without counting an attempt.
GMAIL_MAX_WAIT_SECONDS = float(os.environ.get("GMAIL_MAX_WAIT_SECONDS", "10"))
GOOGLE_CLIENT_ID = os.environ.get("GOOGLE_CLIENT_ID", "")
GOOGLE_CLIENT_SECRET = os.environ.get("GOOGLE_CLIENT_SECRET", "")
GOOGLE_HTTP_TIMEOUT_SECONDS = float(os.environ.get("GOOGLE_HTTP_TIMEOUT_SECONDS", "10"))

DRAMATIQ_BROKER_URL = os.environ.get("DRAMATIQ_BROKER_URL", REDIS_URL)
# The Redis key prefix of the queues (a test runs its own worker in a namespace of its own).
DRAMATIQ_NAMESPACE = os.environ.get("DRAMATIQ_NAMESPACE", "dramatiq")
# A worker silent this long is dead: its unacked messages go back to their queue (core/jobs.py).
DRAMATIQ_HEARTBEAT_TIMEOUT_MS = int(os.environ.get("DRAMATIQ_HEARTBEAT_TIMEOUT_MS", "30000"))
DRAMATIQ_MAINTENANCE_INTERVAL_MS = int(os.environ.get("DRAMATIQ_MAINTENANCE_INTERVAL_MS", "5000"))
# A running job with no progress for this long is marked failed (retryable) by the stuck-job reaper.
JOB_STUCK_AFTER_SECONDS = int(os.environ.get("JOB_STUCK_AFTER_SECONDS", "600"))
# Tenant backups (tenancy/backup.py, docs/operations.md "Backups"): where the nightly job and
# `tenant_backup` write (a folder, or s3://bucket/prefix), how many days they are kept, and the KMS key
# of the S3 objects (empty: SSE-S3, AES256). The nightly job is off with BACKUP_NIGHTLY=0.
BACKUP_LOCATION = os.environ.get("BACKUP_LOCATION", str(VAR_DIR / "backups"))
BACKUP_RETENTION_DAYS = int(os.environ.get("BACKUP_RETENTION_DAYS", "30"))
BACKUP_S3_KMS_KEY_ID = os.environ.get("BACKUP_S3_KMS_KEY_ID", "")
BACKUP_S3_ENDPOINT_URL = os.environ.get("BACKUP_S3_ENDPOINT_URL") or os.environ.get("AWS_S3_ENDPOINT_URL", "")
BACKUP_NIGHTLY = env_bool("BACKUP_NIGHTLY", True)
# Tests run actors synchronously through the stub broker unless told otherwise.
DRAMATIQ_EAGER = env_bool("DRAMATIQ_EAGER", False)
# Fair queues (core/fairness.py): a company's messages waiting in a queue's main lane before the
# next go to its bulk lane; FAIR_QUEUES=0 turns the lanes off (the benchmark's before/after).
FAIR_QUEUES = env_bool("FAIR_QUEUES", True)
FAIR_QUEUED_PER_COMPANY = int(os.environ.get("FAIR_QUEUED_PER_COMPANY", "20"))
FAIR_WAITING_LEASE_MS = int(os.environ.get("FAIR_WAITING_LEASE_MS", str(3600 * 1000)))

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

# One JSON object per line (core.observability.JsonFormatter: request id, tenant, user, role and each
# line's fields) outside development; `LOG_FORMAT=text|json` chooses.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text" if DEVELOPMENT else "json").strip().lower()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "core.observability.JsonFormatter"},
        "text": {"format": "%(levelname)s %(name)s: %(message)s"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "json" if LOG_FORMAT == "json" else "text"}
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # WeasyPrint narrates every step and font subset at INFO.
        "weasyprint": {"level": "ERROR"},
        "fontTools": {"level": "WARNING"},
        # httpx narrates every request at INFO (Google's authorize URL and the like).
        "httpx": {"level": "WARNING"},
    },
}

SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
# The build's version, on every Sentry event (the image sets it from the git commit it was built from).
RELEASE = os.environ.get("FUELDESK_RELEASE", "").strip()
if SENTRY_DSN:
    from core.observability import init_sentry

    init_sentry(SENTRY_DSN, ENVIRONMENT, RELEASE or None)

# GET /api/metrics (Prometheus) answers only `Authorization: Bearer <METRICS_TOKEN>`; unset: 404.
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
# The scheduler puts the queue depth into this CloudWatch namespace each minute (the worker service
# scales on it in AWS, terraform/ecs.tf); empty: not published.
CLOUDWATCH_METRICS_NAMESPACE = os.environ.get("CLOUDWATCH_METRICS_NAMESPACE", "")
# /api/health calls the worker stale when its newest heartbeat is older than this.
WORKER_HEARTBEAT_STALE_SECONDS = float(os.environ.get("WORKER_HEARTBEAT_STALE_SECONDS", "60"))

# QuickBooks Online (docs/quickbooks.md). Every endpoint comes from here, so tests and `make run`
# point them at the local fake (infra/fakes/qbo.py). Intuit's sandbox: the discovery document
# ".../openid_sandbox_configuration" and "https://sandbox-quickbooks.api.intuit.com/v3/company".
QBO_DISCOVERY_URL = os.environ.get(
    "QBO_DISCOVERY_URL", "https://developer.api.intuit.com/.well-known/openid_configuration"
)
QBO_API_BASE = os.environ.get("QBO_API_BASE", "https://quickbooks.api.intuit.com/v3/company")
QBO_CLIENT_ID = os.environ.get("QBO_CLIENT_ID", "")
QBO_CLIENT_SECRET = os.environ.get("QBO_CLIENT_SECRET", "")
QBO_WEBHOOK_VERIFIER_TOKEN = os.environ.get("QBO_WEBHOOK_VERIFIER_TOKEN", "")
# Where Intuit sends the browser back: the SPA's /quickbook/login page, which posts the code to the API.
QBO_REDIRECT_URI = os.environ.get("QBO_REDIRECT_URI", f"{PUBLIC_BASE_URL}/quickbook/login")
QBO_MINOR_VERSION = os.environ.get("QBO_MINOR_VERSION", "75")
QBO_CONNECT_TIMEOUT_SECONDS = float(os.environ.get("QBO_CONNECT_TIMEOUT_SECONDS", "5"))
QBO_READ_TIMEOUT_SECONDS = float(os.environ.get("QBO_READ_TIMEOUT_SECONDS", "30"))
# Intuit's limits per company (realm): 10 requests in flight, 500 a minute.
QBO_MAX_IN_FLIGHT = int(os.environ.get("QBO_MAX_IN_FLIGHT", "10"))
QBO_PER_MINUTE = int(os.environ.get("QBO_PER_MINUTE", "500"))
# The longest a call waits for a slot or honours a Retry-After before it gives up (and fails, retryable).
QBO_MAX_WAIT_SECONDS = float(os.environ.get("QBO_MAX_WAIT_SECONDS", "60"))
QBO_CDC_EVERY_SECONDS = int(os.environ.get("QBO_CDC_EVERY_SECONDS", "300"))
LOGGING["loggers"]["httpx"] = {"level": "WARNING"}  # type: ignore[index]
LOGGING["loggers"]["httpcore"] = {"level": "WARNING"}  # type: ignore[index]
