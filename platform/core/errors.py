"""Every failure answers `{"detail": "<sentence>"}` with the right 4xx; a 500 is a bug."""

from __future__ import annotations

import logging
from typing import Any

import redis
from django.conf import settings
from django.core.exceptions import (
    BadRequest,
    ObjectDoesNotExist,
    PermissionDenied,
    RequestDataTooBig,
    SuspiciousOperation,
)
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError
from django.db.models import ProtectedError, RestrictedError
from django.http import Http404, HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

log = logging.getLogger(__name__)


class ApiError(HttpError):
    """An expected failure with the sentence users see (spec sections 5 and 8)."""

    def __init__(self, status_code: int, detail: str, **extra: Any) -> None:
        super().__init__(status_code, detail)
        self.extra = extra


# Redis failures (unreachable, or hanging past the socket timeout): an API answers 503, never a 500.
REDIS_ERRORS: tuple[type[Exception], ...] = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
UNAVAILABLE = (
    "The service is briefly unavailable: its job queue and cache (Redis) cannot be reached. "
    "Try again in a moment."
)


class ServiceUnavailable(Exception):
    """A dependency (Redis) cannot be reached: 503 with a clear detail, and nothing is answered
    from a guess (authenticated requests fail closed: a token's revocation cannot be checked)."""

    def __init__(self, detail: str = UNAVAILABLE) -> None:
        super().__init__(detail)


# A list's enums (core.listing): the same sentence as the run-time check's.
LIST_ENUMS = {"sort_by": ("sort", "Sortable"), "filter_field": ("filter", "Filterable")}


def _describe_validation(errors: list[dict[str, Any]], query: Any = None) -> str:
    parts = []
    for err in errors[:5]:
        loc = [str(p) for p in err.get("loc", ()) if p not in ("body", "query", "path", "form", "payload")]
        where = ".".join(loc)
        msg = err.get("msg", "is invalid")
        if err.get("type") in ("literal_error", "none_required") and where in LIST_ENUMS:
            expected = str(err.get("ctx", {}).get("expected", "none")).replace("'", "")
            verb, adjective = LIST_ENUMS[where]
            given = err.get("input") or (query.get(where) if query is not None else None)
            parts.append(f"Cannot {verb} by '{given}'. {adjective} fields: {expected}.")
            continue
        parts.append(f"{where}: {msg}" if where else msg)
    if len(parts) == 1 and parts[0].startswith("Cannot "):
        return parts[0]
    return "Invalid input: " + "; ".join(parts) if parts else "Invalid input."


def _clean_errors(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # pydantic puts the raw input and exception objects in `ctx`; keep what is JSON-safe and useful.
    return [
        {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))}
        for e in errors
    ]


def too_large_message() -> str:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if limit is None:  # pragma: no cover - the settings always set it
        return "The request body is too large."
    size = f"{limit / (1024 * 1024):.0f} MB" if limit >= 1024 * 1024 else f"{limit:,} bytes"
    return f"The request body is too large: the limit is {size}."


MULTIPART_MESSAGE = (
    "The upload could not be read: send multipart/form-data with its boundary (let the browser or "
    "HTTP library set the Content-Type)."
)


def install_error_handlers(api: NinjaAPI) -> None:
    def respond(request: HttpRequest, status: int, detail: str, **extra: Any) -> HttpResponse:
        return api.create_response(request, {"detail": detail, **extra}, status=status)

    @api.exception_handler(ApiError)
    def api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
        return respond(request, exc.status_code, str(exc), **exc.extra)

    @api.exception_handler(HttpError)
    def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
        # django-ninja answers 400 for anything its body parser raises: the kit's parser raises the
        # real answer (a 415 for a body that is not JSON, a 422 for a NUL), core/parser.py.
        if isinstance(exc.__cause__, ApiError):
            return api_error(request, exc.__cause__)
        return respond(request, exc.status_code, str(exc))

    @api.exception_handler(ValidationError)
    def validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
        errors = list(exc.errors)
        if any(e.get("type") == "json_invalid" or "JSON" in str(e.get("msg", "")) for e in errors):
            return respond(request, 400, "The request body is not valid JSON.")
        return respond(request, 422, _describe_validation(errors, request.GET), errors=_clean_errors(errors))

    @api.exception_handler(AuthenticationError)
    def unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
        status, detail = getattr(request, "auth_error", None) or (
            401,
            "Authentication required. Please log in.",
        )
        return respond(request, status, detail)

    @api.exception_handler(PermissionDenied)
    def forbidden(request: HttpRequest, exc: PermissionDenied) -> HttpResponse:
        return respond(request, 403, str(exc) or "You do not have permission to do this.")

    @api.exception_handler(Http404)
    def http404(request: HttpRequest, exc: Http404) -> HttpResponse:
        return respond(request, 404, str(exc) or "Not found")

    @api.exception_handler(ObjectDoesNotExist)
    def missing(request: HttpRequest, exc: ObjectDoesNotExist) -> HttpResponse:
        return respond(request, 404, "Not found")

    @api.exception_handler(ProtectedError)
    def protected(request: HttpRequest, exc: ProtectedError) -> HttpResponse:
        return respond(request, 409, describe_dependents(exc.protected_objects))

    @api.exception_handler(RestrictedError)
    def restricted(request: HttpRequest, exc: RestrictedError) -> HttpResponse:
        return respond(request, 409, describe_dependents(exc.restricted_objects))

    @api.exception_handler(IntegrityError)
    def integrity(request: HttpRequest, exc: IntegrityError) -> HttpResponse:
        log.info("integrity error: %s", exc)
        return respond(
            request, 409, "This conflicts with an existing record (a value that must be unique is taken)."
        )

    @api.exception_handler(DataError)
    def data_error(request: HttpRequest, exc: DataError) -> HttpResponse:
        return respond(request, 422, "A value is out of range or badly formed.")

    @api.exception_handler(DjangoValidationError)
    def django_validation(request: HttpRequest, exc: DjangoValidationError) -> HttpResponse:
        return respond(request, 422, "; ".join(exc.messages))

    @api.exception_handler(RequestDataTooBig)
    def too_big(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
        return respond(request, 413, too_large_message())

    @api.exception_handler(MultiPartParserError)
    def bad_multipart(request: HttpRequest, exc: MultiPartParserError) -> HttpResponse:
        return respond(request, 400, MULTIPART_MESSAGE)

    @api.exception_handler(SuspiciousOperation)
    def suspicious(request: HttpRequest, exc: SuspiciousOperation) -> HttpResponse:
        # Too many fields or files, a malformed Host...: the request is refused, the server is fine.
        log.info("suspicious request on %s: %s", request.path, exc)
        return respond(request, 400, "The request is malformed and was refused.")

    @api.exception_handler(BadRequest)
    def bad_request(request: HttpRequest, exc: BadRequest) -> HttpResponse:
        return respond(request, 400, str(exc) or "The request is malformed.")

    @api.exception_handler(ServiceUnavailable)
    def unavailable(request: HttpRequest, exc: ServiceUnavailable) -> HttpResponse:
        response = respond(request, 503, str(exc))
        response["Retry-After"] = "5"
        return response

    for redis_error in REDIS_ERRORS:

        @api.exception_handler(redis_error)
        def redis_unavailable(request: HttpRequest, exc: Exception) -> HttpResponse:
            log.warning("Redis unavailable on %s %s: %s", request.method, request.path, exc)
            response = respond(request, 503, UNAVAILABLE)
            response["Retry-After"] = "5"
            return response

    @api.exception_handler(Exception)
    def unexpected(request: HttpRequest, exc: Exception) -> HttpResponse:
        log.exception("unhandled error on %s %s", request.method, request.path)
        return respond(request, 500, "Something went wrong on our side. The error has been recorded.")


def describe_dependents(objects: Any, *, can_deactivate: bool = True) -> str:
    counts: dict[str, int] = {}
    for obj in objects:
        meta = obj._meta
        counts.setdefault(str(meta.verbose_name_plural), 0)
        counts[str(meta.verbose_name_plural)] += 1
    used_by = ", ".join(f"{n} {label if n != 1 else _singular(label)}" for label, n in sorted(counts.items()))
    advice = " Deactivate it instead." if can_deactivate else ""
    return f"This record cannot be deleted because it is used by {used_by}.{advice}"


def _singular(plural: str) -> str:
    if plural.endswith("ies"):
        return plural[:-3] + "y"
    return plural[:-1] if plural.endswith("s") else plural
