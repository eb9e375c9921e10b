"""Django settings for FuelDesk. Every deploy-time knob is an environment variable (README)."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

BASE_DIR = Path(__file__).resolve().parents[2]
VAR_DIR = Path(os.environ.get("FUELDESK_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool = False) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


def database_from_url(url: str) -> dict[str, object]:
    parsed = urlparse(url)
    query = parse_qs(parsed.query)
    options: dict[str, object] = {}
    host = unquote(parsed.hostname or "")
    if "host" in query:  # unix socket directories, as pgserver hands them out
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
SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only-insecure-secret-key-change-me-in-production-0123456789")
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "*").split(",") if h.strip()]
ENVIRONMENT = os.environ.get("FUELDESK_ENV", "dev")

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
]
INSTALLED_APPS = SHARED_APPS + [app for app in TENANT_APPS if app not in SHARED_APPS]

TENANT_MODEL = "tenancy.Tenant"
TENANT_DOMAIN_MODEL = "tenancy.Domain"
# New tenants are cloned from this migrated, row-less schema instead of running every migration.
TENANT_BASE_SCHEMA = "tenant_template"
TENANT_CREATION_FAKES_MIGRATIONS = True
# TENANT_LIMIT_SET_CALLS stays off: a savepoint rollback could otherwise serve another tenant's rows.
SPARE_SCHEMA_POOL_SIZE = int(os.environ.get("SPARE_SCHEMA_POOL_SIZE", "3"))

MIDDLEWARE = [
    "core.middleware.ApiPathMiddleware",
    "core.middleware.TenantFromTokenMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.common.CommonMiddleware",
]
APPEND_SLASH = False

ROOT_URLCONF = "fueldesk.urls"
WSGI_APPLICATION = "fueldesk.wsgi.application"
DATABASE_ROUTERS = ("django_tenants.routers.TenantSyncRouter",)
DATABASES = {
    "default": database_from_url(os.environ.get("DATABASE_URL", "postgres://root@127.0.0.1:5432/fueldesk"))
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
CACHES = {
    "default": {
        "BACKEND": "core.cache.ReusingRedisCache",
        "LOCATION": REDIS_URL,
        "KEY_FUNCTION": "django_tenants.cache.make_key",
        "REVERSE_KEY_FUNCTION": "django_tenants.cache.reverse_key",
        "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "fd"),
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
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
PASSWORD_MIN_LENGTH = 10

# Access tokens: HS256 JWT, `exp` in seconds, `tid` names the tenant schema.
JWT_ALGORITHM = "HS256"
JWT_SIGNING_KEY = os.environ.get("JWT_SIGNING_KEY", SECRET_KEY)
# How long one process may reuse its answer to "is this token revoked, who is its user" (core/authcache.py).
LOCAL_AUTH_CACHE_SECONDS = float(os.environ.get("LOCAL_AUTH_CACHE_SECONDS", "1"))
ACCESS_TOKEN_TTL_SECONDS = int(os.environ.get("ACCESS_TOKEN_TTL_SECONDS", str(12 * 3600)))
PASSWORD_RESET_TTL_SECONDS = int(os.environ.get("PASSWORD_RESET_TTL_SECONDS", "3600"))
LOGIN_RATE_LIMIT_PER_IP = int(os.environ.get("LOGIN_RATE_LIMIT_PER_IP", "30"))
LOGIN_RATE_LIMIT_PER_ACCOUNT = int(os.environ.get("LOGIN_RATE_LIMIT_PER_ACCOUNT", "10"))
LOGIN_RATE_LIMIT_WINDOW_SECONDS = int(os.environ.get("LOGIN_RATE_LIMIT_WINDOW_SECONDS", "300"))
SIGNUP_RATE_LIMIT_PER_IP = int(os.environ.get("SIGNUP_RATE_LIMIT_PER_IP", "20"))
PUBLIC_BASE_URL = os.environ.get("PUBLIC_BASE_URL", "http://127.0.0.1:8000")

# Files: S3 when a bucket is configured, else a local folder. Keys always start with the tenant prefix.
FILE_UPLOAD_MAX_BYTES = int(os.environ.get("FILE_UPLOAD_MAX_BYTES", str(5 * 1024 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = FILE_UPLOAD_MAX_BYTES + 1024 * 1024
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

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "FuelDesk <no-reply@fueldesk.local>")

DRAMATIQ_BROKER_URL = os.environ.get("DRAMATIQ_BROKER_URL", REDIS_URL)
# Tests run actors synchronously through the stub broker unless told otherwise.
DRAMATIQ_EAGER = env_bool("DRAMATIQ_EAGER", False)

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}

SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    from core.observability import init_sentry

    init_sentry(SENTRY_DSN, ENVIRONMENT)
