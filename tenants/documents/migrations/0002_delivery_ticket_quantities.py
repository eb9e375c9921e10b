"""The shipped delivery-ticket template printed no quantities when a delivery was typed in as a
delivered quantity (no meters, no gross): its line table had only Tank, Meter, Temp, Gross and Net.
Companies that still print with that table get the Ordered, Delivered and Unit columns and the
gallons ordered/delivered totals (issue 23). A template whose table was edited is left as it is.

Self-contained: the new columns are written here, not read from defaults/ (which may change later).
"""

import copy
from typing import Any

from django.db import migrations

OLD_KEYS = ["product_name", "tank", "meter_start", "meter_end", "temperature", "gross_volume", "net_volume"]
NEW_COLUMNS = [
    {"key": "product_name", "label": "Product", "width": 17},
    {"key": "tank", "label": "Tank", "width": 11},
    {"key": "meter_start", "label": "Meter start", "width": 10},
    {"key": "meter_end", "label": "Meter end", "width": 10},
    {"key": "temperature", "label": "Temp °F", "width": 7},
    {"key": "quantity_ordered", "label": "Ordered", "width": 9},
    {"key": "quantity_delivered", "label": "Delivered", "width": 10},
    {"key": "unit", "label": "Unit", "width": 5},
    {"key": "gross_volume", "label": "Gross gal", "width": 9},
    {"key": "net_volume", "label": "Net gal @60°F", "width": 12},
]


def upgrade_components(components: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The shipped ticket's components with the quantities added, or None when this template's line
    table is not the shipped one (the company changed it: theirs to keep)."""
    out = copy.deepcopy(components)
    by_id = {c.get("id"): c for c in out if isinstance(c, dict)}
    table = by_id.get("lines")
    if not table or table.get("tableType") != "line_items":
        return None
    if [col.get("key") for col in table.get("columns") or []] != OLD_KEYS:
        return None
    table["columns"] = copy.deepcopy(NEW_COLUMNS)
    box, gross, net = by_id.get("volumes"), by_id.get("tot-gross"), by_id.get("tot-net")
    shipped_box = (
        box is not None
        and gross is not None
        and net is not None
        and box.get("children") == ["tot-gross", "tot-net"]
        and box.get("position") == {"x": 470, "y": 514}
        and gross.get("position") == {"x": 480, "y": 522}
        and net.get("position") == {"x": 480, "y": 542}
        and "tot-ordered" not in by_id
    )
    if not shipped_box:
        return out  # the columns alone: the totals box was moved or changed
    assert box is not None and gross is not None and net is not None
    box["size"] = {**box.get("size", {}), "height": 98}
    box["children"] = ["tot-ordered", "tot-delivered", "tot-gross", "tot-net"]
    top = max((int(c.get("zIndex") or 0) for c in out if isinstance(c, dict)), default=0)
    added = []
    for i, (cid, var, label, y) in enumerate(
        (
            ("tot-ordered", "totals.gallons_ordered", "Total gallons ordered", 522),
            ("tot-delivered", "totals.gallons_delivered", "Total gallons delivered", 542),
        ),
        start=1,
    ):
        c = copy.deepcopy(gross)
        c.update(
            id=cid,
            variableName=var,
            label=label,
            position={"x": 480, "y": y},
            originalPosition={"x": 480, "y": y},
            zIndex=top + i,
        )
        added.append(c)
    gross["position"] = {"x": 480, "y": 562}
    gross["originalPosition"] = {"x": 480, "y": 562}
    net["position"] = {"x": 480, "y": 582}
    net["originalPosition"] = {"x": 480, "y": 582}
    at = out.index(gross)
    out[at:at] = added
    return out


def forward(apps: Any, schema_editor: Any) -> None:
    template_model = apps.get_model("documents", "DocumentTemplate")
    for template in template_model.objects.filter(type="delivery_ticket"):
        components = template.components if isinstance(template.components, list) else None
        upgraded = upgrade_components(components) if components is not None else None
        if upgraded is not None:
            template.components = upgraded
            template.save(update_fields=["components", "updated_at"])


class Migration(migrations.Migration):
    dependencies = [("documents", "0001_initial")]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
