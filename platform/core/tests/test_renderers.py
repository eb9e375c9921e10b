import datetime as dt
import decimal
import json
import uuid

from django.core.serializers.json import DjangoJSONEncoder

from core.renderers import dumps


def test_orjson_output_means_what_the_stdlib_encoder_said():
    data = {
        "when": dt.datetime(2026, 11, 22, 1, 2, 3, 456789, tzinfo=dt.UTC),
        "day": dt.date(2026, 11, 22),
        "price": decimal.Decimal("3.4567"),
        "id": uuid.UUID("12345678-1234-5678-1234-567812345678"),
        "items": [{"n": 1, "none": None, "ok": True}],
        "text": "Ünïcode ⛽",
    }
    assert json.loads(dumps(data)) == json.loads(json.dumps(data, cls=DjangoJSONEncoder))


def test_the_fast_datetime_path_formats_exactly_as_django():
    # Whole seconds, milliseconds, other offsets and naive values: byte for byte what Django wrote.
    zones = [dt.UTC, dt.timezone(dt.timedelta(hours=-6)), None]
    stamps = [
        dt.datetime(2026, 1, 2, 3, 4, 5, micro, tzinfo=tz)
        for micro in (0, 1, 999, 123456, 999999)
        for tz in zones
    ]
    values = [*stamps, dt.date(2026, 2, 28), decimal.Decimal("0.10"), decimal.Decimal("-1E+2")]
    assert dumps(values) == json.dumps(values, cls=DjangoJSONEncoder, separators=(",", ":")).encode()


def test_an_integer_beyond_64_bits_is_written_not_a_500():
    # An answer may echo an id it was sent (the fuzz suite sends 2**70): orjson stops at 64 bits.
    data = {"product_id": 2**70, "when": dt.datetime(2026, 1, 2, 3, 4, 5, 6000, tzinfo=dt.UTC)}
    assert json.loads(dumps(data)) == {"product_id": 2**70, "when": "2026-01-02T03:04:05.006Z"}
