"""Day arithmetic for filters and reports, inside the calendar Python can hold.

A date parameter may be any day from 0001-01-01 to 9999-12-31; the day after the last one (a range's
exclusive end) or before the first does not exist, and `date + timedelta` raises OverflowError
there (a 500). Every filter that turns a day into a bound goes through these helpers, which answer a
422 naming the parameter instead."""

from __future__ import annotations

import datetime as dt

from core.errors import ApiError


def out_of_range(field: str, value: object) -> ApiError:
    return ApiError(
        422,
        f"Invalid input: {field} {value} is outside the range of dates this can use.",
        errors=[{"loc": ["query", field], "msg": "date out of range", "type": "date_out_of_range"}],
    )


def shift_day(day: dt.date, days: int, *, field: str) -> dt.date:
    """`day` moved by `days` days; a 422 naming `field` past either end of the calendar."""
    try:
        return day + dt.timedelta(days=days)
    except OverflowError as exc:
        raise out_of_range(field, day.isoformat()) from exc


def day_start(day: dt.date, tz: dt.tzinfo = dt.UTC) -> dt.datetime:
    return dt.datetime.combine(day, dt.time.min, tzinfo=tz)


def day_span(day: dt.date, *, field: str, tz: dt.tzinfo = dt.UTC) -> tuple[dt.datetime, dt.datetime]:
    """The instants of `day` in `tz` as a half-open range [start, next day's start)."""
    return day_start(day, tz), day_start(shift_day(day, 1, field=field), tz)


def until_end_of(day: dt.date, *, field: str, tz: dt.tzinfo = dt.UTC) -> dt.datetime:
    """The exclusive end of a range that includes `day` (`created < this`)."""
    return day_span(day, field=field, tz=tz)[1]
