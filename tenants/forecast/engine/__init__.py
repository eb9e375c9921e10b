"""The forecast's arithmetic: fitting usage, projecting levels, ranking what is due.

Pure Python and numpy, no ORM: the app's services feed it rows and store what it answers, and the
simulation benchmark drives the same functions.
"""

from .due import DueTank, due_list
from .projection import Projection, TankState, project
from .usage import (
    TYPICAL,
    UsageFit,
    UsageInterval,
    UsageParams,
    fit_usage,
    hdd,
    intervals_from_fills,
    override_fit,
    typical_params,
)
from .weather import normals, series

__all__ = [
    "TYPICAL",
    "DueTank",
    "Projection",
    "TankState",
    "UsageFit",
    "UsageInterval",
    "UsageParams",
    "due_list",
    "fit_usage",
    "hdd",
    "intervals_from_fills",
    "normals",
    "override_fit",
    "project",
    "series",
    "typical_params",
]
