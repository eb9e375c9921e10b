from ninja import Field, Schema


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
