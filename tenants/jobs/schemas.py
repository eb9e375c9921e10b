import datetime as dt

from ninja import Field, Schema


class JobLogOut(Schema):
    id: int
    actor: str
    status: str
    attempts: int
    message: str
    error: str
    invoice_id: int | None
    bill_id: int | None
    logs: list[dict[str, str]]
    created: dt.datetime
    updated: dt.datetime


class JobLogQuery(Schema):
    invoice_id: int | None = Field(None, ge=1)
    bill_id: int | None = Field(None, ge=1)


class JobLogsData(Schema):
    logs: list[JobLogOut]
