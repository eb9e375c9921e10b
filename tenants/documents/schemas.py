"""Templates as the designer's JSON: components on a canvas (spec section 3)."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from ninja import Schema
from pydantic import ConfigDict, Field

from tenants.documents.contract import DocumentType

ComponentType = Literal["sales-order-field", "sales-order-table", "container", "text", "image", "line", "box"]
StyleValue = str | int | float
Style = dict[str, StyleValue]
Coord = float


class Point(Schema):
    x: Coord = Field(0, ge=-2000, le=5000)
    y: Coord = Field(0, ge=-2000, le=5000)


class Size(Schema):
    width: Coord = Field(100, ge=1, le=5000)
    height: Coord = Field(20, ge=1, le=5000)


class TableColumn(Schema):
    key: str = Field(..., min_length=1, max_length=60, description="A column of the table type (contract)")
    label: str = Field("", max_length=120)
    width: float | None = Field(None, ge=1, le=100, description="Percent of the table width")
    align: Literal["left", "center", "right"] | None = None


class Component(Schema):
    model_config = ConfigDict(extra="ignore")

    id: str = Field(..., min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
    type: ComponentType
    position: Point = Field(default_factory=lambda: Point.model_validate({}))
    size: Size = Field(default_factory=lambda: Size.model_validate({}))
    zIndex: int = Field(1, ge=0, le=100_000)
    # Containers: the ids of the components inside (each belongs to at most one container).
    children: list[str] = Field(default_factory=list, max_length=200)
    parentId: str | None = Field(None, max_length=64, description="The container holding it, if any")
    originalPosition: Point | None = Field(None, description="Where it was before it joined its container")
    content: str = Field("", max_length=5000, description="Text of a text component; a file key for images")
    variableName: str = Field("", max_length=120, description="Dotted path into the document data")
    label: str = Field("", max_length=200)
    fieldType: str = Field("text", max_length=20)
    keyVisible: bool = True
    keyStyle: Style = Field(default_factory=dict)
    valueStyle: Style = Field(default_factory=dict)
    style: Style = Field(default_factory=dict, description="The component box: border, background")
    layout: Literal["horizontal", "vertical"] = "horizontal"
    columns: list[TableColumn] = Field(default_factory=list, max_length=30)
    rows: list[list[str]] = Field(default_factory=list, max_length=200, description="Static table rows")
    showHeaders: bool = True
    tableType: Literal["line_items", "fees", "taxes", "static"] = "line_items"


class Padding(Schema):
    top: float = Field(20, ge=0, le=300)
    right: float = Field(20, ge=0, le=300)
    bottom: float = Field(20, ge=0, le=300)
    left: float = Field(20, ge=0, le=300)


class Border(Schema):
    width: float = Field(0, ge=0, le=20)
    color: str = Field("#e0e0e0", max_length=40)


class Shadow(Schema):
    enabled: bool = False
    x: float = Field(0, ge=-50, le=50)
    y: float = Field(2, ge=-50, le=50)
    blur: float = Field(8, ge=0, le=100)
    spread: float = Field(0, ge=-50, le=50)
    color: str = Field("rgba(0,0,0,0.15)", max_length=40)


class CanvasSettings(Schema):
    width: float = Field(794, ge=200, le=2000)
    height: float = Field(1123, ge=200, le=3000)
    backgroundColor: str = Field("#ffffff", max_length=40)
    padding: Padding = Field(default_factory=lambda: Padding.model_validate({}))
    pageSize: Literal["A4", "Letter"] = "A4"
    border: Border = Field(default_factory=lambda: Border.model_validate({}))
    shadow: Shadow = Field(default_factory=lambda: Shadow.model_validate({}))


class TemplateIn(Schema):
    name: str = Field(..., min_length=1, max_length=120)
    type: DocumentType
    components: list[Component] = Field(default_factory=list, max_length=500)
    canvasSettings: CanvasSettings = Field(default_factory=lambda: CanvasSettings.model_validate({}))


class TemplateUpdate(Schema):
    name: str | None = Field(None, min_length=1, max_length=120)
    components: list[Component] | None = Field(None, max_length=500)
    canvasSettings: CanvasSettings | None = None


class TemplateOut(Schema):
    id: int
    name: str
    type: str
    components: list[Component]
    canvasSettings: CanvasSettings = Field(..., alias="canvas_settings")
    isDefault: bool = Field(..., alias="is_default")
    createdAt: dt.datetime = Field(..., alias="created_at")
    updatedAt: dt.datetime = Field(..., alias="updated_at")


class TemplateSummary(Schema):
    id: int
    name: str
    type: str
    isDefault: bool = Field(..., alias="is_default")
    createdAt: dt.datetime = Field(..., alias="created_at")
    updatedAt: dt.datetime = Field(..., alias="updated_at")


class TemplateQuery(Schema):
    type: DocumentType | None = None


class RenderIn(Schema):
    """An unsaved template, as the designer holds it, rendered with sample data of its type."""

    type: DocumentType
    components: list[Component] = Field(default_factory=list, max_length=500)
    canvasSettings: CanvasSettings = Field(default_factory=lambda: CanvasSettings.model_validate({}))


class RenderedHtml(Schema):
    html: str


class VariableOut(Schema):
    variableName: str
    label: str
    fieldType: str


class ColumnOut(Schema):
    key: str
    label: str
    fieldType: str


class ContractOut(Schema):
    type: str
    label: str
    variables: list[VariableOut]
    tables: dict[str, list[ColumnOut]]


class RenderQuery(Schema):
    source_id: int | None = Field(
        None,
        ge=1,
        le=2**62,
        description="Render with this real document of the template's type (an invoice, a delivery "
        "ticket) instead of the sample data",
    )


class DocumentSourceOut(Schema):
    id: int
    label: str


class DocumentSourceQuery(Schema):
    search: str = Field("", max_length=100)
    limit: int = Field(20, ge=1, le=100)


class PrintQuery(Schema):
    template_id: int | None = Field(
        None, ge=1, le=2**62, description="Print with this template instead of the type's default"
    )
