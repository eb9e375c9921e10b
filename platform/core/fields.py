"""Field types shared by request schemas."""

from typing import Annotated

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from pydantic import AfterValidator, StringConstraints


def _email(value: str) -> str:
    value = value.strip().lower()
    try:
        validate_email(value)
    except ValidationError as exc:
        raise ValueError("enter a valid email address") from exc
    return value


# Django's validator rather than email-validator's: it accepts the reserved test domains
# (example.com, *.test) that demo data and test suites rely on.
Email = Annotated[str, StringConstraints(min_length=3, max_length=254), AfterValidator(_email)]
