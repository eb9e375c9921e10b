"""Distance (metres) and duration (seconds) matrices between locations.

Three ways, by the settings: OSRM's `table` service when `osrm_url` is set (road network; the
request is split in blocks of at most OSRM_BLOCK sources x OSRM_BLOCK destinations, OSRM's default
`--max-table-size` being 100), else the great-circle distance x circuity at the average speed, or
(metric "euclidean") planar coordinates with the distance rounded to an integer (CVRPLIB).
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Sequence

import numpy as np

from tenants.routing.solver.problem import Location, Settings

EARTH_RADIUS_M = 6_371_008.8
METRES_PER_MILE = 1609.344
OSRM_BLOCK = 100
UNREACHABLE_M = 10_000_000  # what an OSRM `null` (no road between two points) becomes: 10,000 km


class DistanceError(RuntimeError):
    """The road engine failed (unreachable, an error code): the caller may fall back."""


def matrix(locations: Sequence[Location], settings: Settings) -> tuple[np.ndarray, np.ndarray]:
    if settings.metric == "euclidean":
        return euclidean(locations)
    if settings.osrm_url:
        return osrm_table(locations, settings.osrm_url)
    return great_circle(locations, settings)


def euclidean(locations: Sequence[Location]) -> tuple[np.ndarray, np.ndarray]:
    xy = np.array([(loc.lat, loc.lng) for loc in locations], dtype=float).reshape(-1, 2)
    diff = xy[:, None, :] - xy[None, :, :]
    dist = np.rint(np.sqrt((diff**2).sum(axis=2))).astype(np.int64)
    return dist, dist.copy()


def great_circle(locations: Sequence[Location], settings: Settings) -> tuple[np.ndarray, np.ndarray]:
    rad = np.radians(np.array([(loc.lat, loc.lng) for loc in locations], dtype=float).reshape(-1, 2))
    lat, lng = rad[:, 0], rad[:, 1]
    dlat = lat[:, None] - lat[None, :]
    dlng = lng[:, None] - lng[None, :]
    a = np.sin(dlat / 2) ** 2 + np.cos(lat)[:, None] * np.cos(lat)[None, :] * np.sin(dlng / 2) ** 2
    metres = 2 * EARTH_RADIUS_M * np.arcsin(np.sqrt(np.clip(a, 0.0, 1.0))) * settings.circuity
    speed_ms = settings.speed_mph * METRES_PER_MILE / 3600.0
    dist = np.rint(metres).astype(np.int64)
    dur = np.rint(metres / speed_ms).astype(np.int64)
    return dist, dur


def osrm_table(
    locations: Sequence[Location], base_url: str, timeout: float = 30.0, block: int = OSRM_BLOCK
) -> tuple[np.ndarray, np.ndarray]:
    """OSRM `GET /table/v1/driving/{lng,lat;...}?annotations=distance,duration&sources=..&destinations=..`."""
    n = len(locations)
    dist = np.zeros((n, n), dtype=np.int64)
    dur = np.zeros((n, n), dtype=np.int64)
    if n == 0:
        return dist, dur
    coords = ";".join(f"{loc.lng:.6f},{loc.lat:.6f}" for loc in locations)
    url0 = f"{base_url.rstrip('/')}/table/v1/driving/{coords}?annotations=distance,duration"
    for s0 in range(0, n, block):
        src = list(range(s0, min(n, s0 + block)))
        for d0 in range(0, n, block):
            dst = list(range(d0, min(n, d0 + block)))
            url = url0
            if n > block:
                url += "&sources=" + ";".join(map(str, src)) + "&destinations=" + ";".join(map(str, dst))
            body = _get_json(url, timeout)
            if body.get("code") != "Ok":
                raise DistanceError(f"OSRM answered {body.get('code')}: {body.get('message', '')}")
            dists, durs = body.get("distances"), body.get("durations")
            if dists is None or durs is None:
                raise DistanceError("OSRM answered without distances or durations")
            for i, row in enumerate(dists):
                for j, value in enumerate(row):
                    dist[src[i], dst[j]] = UNREACHABLE_M if value is None else round(value)
            for i, row in enumerate(durs):
                for j, value in enumerate(row):
                    dur[src[i], dst[j]] = UNREACHABLE_M if value is None else round(value)
    return dist, dur


def _get_json(url: str, timeout: float) -> dict:
    if not url.startswith(("http://", "https://")):
        raise DistanceError(f"not an http(s) OSRM url: {url[:40]}")
    req = urllib.request.Request(url, headers={"Accept": "application/json"})  # noqa: S310 (checked above)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310
            return dict(json.loads(resp.read()))
    except urllib.error.HTTPError as exc:
        try:
            payload = json.loads(exc.read())
        except ValueError:
            raise DistanceError(f"OSRM HTTP {exc.code}") from exc
        raise DistanceError(f"OSRM answered {payload.get('code')}: {payload.get('message', '')}") from exc
    except (OSError, ValueError) as exc:
        raise DistanceError(f"OSRM unreachable: {exc}") from exc
