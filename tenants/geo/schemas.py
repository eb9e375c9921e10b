from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Annotated, Any

from ninja import Field, Schema
from pydantic import BeforeValidator, ConfigDict


class StateIn(Schema):
    name: str = Field(..., min_length=1, max_length=100)
    code: str = Field(..., min_length=1, max_length=10)
    country: str = Field("US", min_length=2, max_length=2)


class StateOut(Schema):
    id: int
    name: str
    code: str
    country: str


class CityIn(Schema):
    name: str = Field(..., min_length=1, max_length=120)
    state_id: int = Field(..., ge=1)


class CityRef(Schema):
    id: int
    name: str


class CityOut(Schema):
    id: int
    name: str
    state_id: int
    state: StateOut


class CityQuery(Schema):
    state_id: int | None = Field(None, ge=1)


# --- regions and yards ---------------------------------------------------------------------------
class StrippedIn(Schema):
    """Input whose strings arrive trimmed ('  Houston ' is 'Houston')."""

    model_config = ConfigDict(str_strip_whitespace=True)


def _coordinate(value: Any) -> Any:
    """GPS coordinates are kept to 6 decimals (about 10 cm); longer input is rounded, not refused."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return value  # let the field's own validation refuse it
    try:
        return Decimal(str(value)).quantize(Decimal("0.000001"), rounding=ROUND_HALF_UP)
    except (InvalidOperation, ValueError, TypeError):
        return value


Latitude = Annotated[Decimal, BeforeValidator(_coordinate), Field(ge=-90, le=90)]
Longitude = Annotated[Decimal, BeforeValidator(_coordinate), Field(ge=-180, le=180)]


class RegionIn(StrippedIn):
    name: str = Field(..., min_length=1, max_length=100)
    code: str = Field("", max_length=20, description="Short code, e.g. GC; unique when set")
    description: str = Field("", max_length=2000)


class RegionRef(Schema):
    id: int
    name: str
    code: str


class RegionOut(RegionRef):
    description: str
    created_at: datetime
    updated_at: datetime


class StateRef(Schema):
    id: int
    name: str
    code: str


class YardIn(StrippedIn):
    name: str = Field(..., min_length=1, max_length=120)
    code: str = Field("", max_length=20, description="Short code, e.g. HOU; unique when set")
    address: str = Field("", max_length=255)
    zip_code: str = Field("", max_length=12)
    state_id: int | None = Field(None, ge=1)
    city_id: int | None = Field(
        None, ge=1, description="Must be in state_id; sets state_id when that is empty"
    )
    region_id: int | None = Field(None, ge=1)
    latitude: Latitude | None = None
    longitude: Longitude | None = None
    is_active: bool = True


class YardRef(Schema):
    id: int
    name: str
    code: str


class YardOut(YardRef):
    address: str
    zip_code: str
    state_id: int | None
    state: StateRef | None
    city_id: int | None
    city: CityRef | None
    region_id: int | None
    region: RegionRef | None
    latitude: float | None
    longitude: float | None
    is_active: bool
    created_at: datetime
    updated_at: datetime


class YardQuery(Schema):
    region_id: int | None = Field(None, ge=1, description="Only yards of this region")
    state_id: int | None = Field(None, ge=1, description="Only yards in this state")
    is_active: bool | None = Field(None, description="Only active (true) or inactive (false) yards")
