"""How every operation reads its input, checked once for every route (`FuelDeskAPI(parser=...)`).

- A JSON body must be sent as JSON: any other Content-Type (`text/plain`, a form) is a 415 on an
  operation that takes a JSON body. Uploads (multipart) and forms are read by their own parsers.
- No text the API takes may hold a NUL character (U+0000): Postgres text cannot store it, and a
  search or filter that carries one to the database used to fail with a 500. A query parameter, a
  form field or any string (or key) of a JSON body that holds one is a 422 naming the field.

django-ninja wraps whatever its body parser raises in a 400 "Cannot parse request body"; the API's
HttpError handler answers the `ApiError` underneath instead (core/errors.py).
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest
from django.utils.datastructures import MultiValueDict
from ninja.parser import Parser

from core.errors import ApiError

NUL = "\x00"
JSON_TYPES = ("application/json",)
NOT_JSON = "Send the body as JSON, with the header Content-Type: application/json."


def nul_error(loc: list[str | int]) -> ApiError:
    where = ".".join(str(p) for p in loc[1:]) or "the body"
    return ApiError(
        422,
        f"Invalid input: {where} must not contain a NUL character (\\u0000).",
        errors=[{"loc": loc, "msg": "must not contain a NUL character", "type": "string_nul"}],
    )


def find_nul(value: Any, loc: list[str | int]) -> list[str | int] | None:
    """Where in a parsed JSON value a string (or an object's key) holds a NUL, or None."""
    if isinstance(value, str):
        return loc if NUL in value else None
    if isinstance(value, dict):
        for key, item in value.items():
            if NUL in key:
                return [*loc, key]
            found = find_nul(item, [*loc, key])
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = find_nul(item, [*loc, index])
            if found is not None:
                return found
    return None


def is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media in JSON_TYPES or (media.startswith("application/") and media.endswith("+json"))


class KitParser(Parser):
    def parse_body(self, request: HttpRequest) -> Any:
        if not is_json(request.META.get("CONTENT_TYPE", "")):
            raise ApiError(415, NOT_JSON)
        raw = request.body
        data = json.loads(raw)
        # A NUL can only reach a parsed string through its escape: skip the walk for every other body.
        if b"\\u0000" in raw:
            found = find_nul(data, ["body"])
            if found is not None:
                raise nul_error(found)
        return data

    def parse_querydict(
        self, data: MultiValueDict[str, Any], list_fields: list[str], request: HttpRequest
    ) -> Any:
        where = "form" if data is request.POST else "query"
        for key, values in data.lists():
            if NUL in key or any(isinstance(v, str) and NUL in v for v in values):
                raise nul_error([where, key])
        return super().parse_querydict(data, list_fields, request)
