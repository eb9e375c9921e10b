from datetime import datetime

from ninja import Field, Schema


class DataExportOut(Schema):
    id: int
    status: str = Field(..., description="queued, running, ready or failed")
    done: int = Field(..., description="parts written (a list's CSV, a document's PDF, a file)")
    total: int = Field(..., description="parts to write (0 until the worker has counted them)")
    step: str = Field(..., description="what is being written")
    size: int = Field(..., description="the zip's size in bytes, once ready")
    error: str
    created_at: datetime
    finished_at: datetime | None


class DataExportsData(Schema):
    items: list[DataExportOut]
