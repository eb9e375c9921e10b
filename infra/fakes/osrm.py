"""A small fake of OSRM's HTTP `table` service (http://project-osrm.org/docs/v5.24.0/api/#table-service)
for development and tests: `GET /table/v1/{profile}/{lng,lat;lng,lat...}?annotations=distance,duration
&sources=0;1&destinations=2;3` answers `{"code": "Ok", "distances": [[m]], "durations": [[s]],
"sources": [...], "destinations": [...]}` like OSRM, with its errors (`InvalidUrl`, `InvalidQuery`,
`InvalidOptions`, `TooBig` beyond `max_table_size` sources x destinations, as osrm-routed's
`--max-table-size`).

The "road network" is the great-circle distance x `detour` at `speed_kmh`, so a test knows every
answer; points listed in `islands` have no road to anyone else (OSRM answers `null`).

    python -m infra.fakes.osrm --port 5000
    with FakeOsrm() as osrm: Settings(osrm_url=f"http://127.0.0.1:{osrm.server_port}")
"""

from __future__ import annotations

import argparse
import math
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from infra.fakes import base

EARTH_RADIUS_M = 6_371_008.8


def great_circle_m(a: tuple[float, float], b: tuple[float, float]) -> float:
    """a, b: (lng, lat) in degrees, as OSRM takes them."""
    lng1, lat1, lng2, lat2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lng2 - lng1) / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(min(1.0, math.sqrt(h)))


class FakeOsrm(base.FakeServer):
    thread_name = "fake-osrm"

    def __init__(self, *, detour: float = 1.25, speed_kmh: float = 60.0, max_table_size: int = 100) -> None:
        super().__init__()
        self.detour = detour
        self.speed_kmh = speed_kmh
        self.max_table_size = max_table_size
        self.islands: set[tuple[float, float]] = set()  # (lng, lat) with no road
        self.requests: list[str] = []

    def start(self) -> FakeOsrm:
        self.serve("127.0.0.1", 0, _Handler)
        return self

    def road(self, a: tuple[float, float], b: tuple[float, float]) -> tuple[float | None, float | None]:
        if a == b:
            return 0.0, 0.0
        if a in self.islands or b in self.islands:
            return None, None
        metres = round(great_circle_m(a, b) * self.detour, 1)
        return metres, round(metres / (self.speed_kmh / 3.6), 1)

    def table(self, path: str, query: dict[str, list[str]]) -> tuple[int, dict[str, Any]]:
        parts = path.strip("/").split("/")
        if len(parts) != 4 or parts[0] != "table" or parts[1] != "v1":
            return 400, {"code": "InvalidUrl", "message": "URL string malformed"}
        try:
            coords = [tuple(float(x) for x in c.split(",")) for c in unquote(parts[3]).split(";")]
        except ValueError:
            return 400, {"code": "InvalidQuery", "message": "Query string malformed"}
        if any(len(c) != 2 or not (-180 <= c[0] <= 180 and -90 <= c[1] <= 90) for c in coords):
            return 400, {"code": "InvalidQuery", "message": "Query string malformed"}
        points: list[tuple[float, float]] = [(c[0], c[1]) for c in coords]
        annotations = (query.get("annotations") or ["duration"])[-1].split(",")
        if not set(annotations) <= {"duration", "distance"}:
            return 400, {"code": "InvalidOptions", "message": "annotations must be duration, distance"}

        def indexes(name: str) -> list[int] | None:
            raw = (query.get(name) or ["all"])[-1]
            if raw == "all":
                return list(range(len(points)))
            try:
                out = [int(i) for i in raw.split(";")]
            except ValueError:
                return None
            return out if all(0 <= i < len(points) for i in out) else None

        sources, destinations = indexes("sources"), indexes("destinations")
        if sources is None or destinations is None:
            return 400, {"code": "InvalidOptions", "message": "sources/destinations index out of range"}
        if len(sources) * len(destinations) > self.max_table_size**2:
            return 400, {"code": "TooBig", "message": "Too many table coordinates"}
        body: dict[str, Any] = {"code": "Ok"}
        cells = [[self.road(points[i], points[j]) for j in destinations] for i in sources]
        if "distance" in annotations:
            body["distances"] = [[c[0] for c in row] for row in cells]
        if "duration" in annotations:
            body["durations"] = [[c[1] for c in row] for row in cells]
        body["sources"] = [{"location": list(points[i]), "name": "", "distance": 0} for i in sources]
        body["destinations"] = [
            {"location": list(points[j]), "name": "", "distance": 0} for j in destinations
        ]
        return 200, body


class _Handler(base.FakeHandler):
    fake: FakeOsrm

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        with self.fake.lock:
            self.fake.requests.append(self.path)
        status, body = self.fake.table(url.path, parse_qs(url.query))
        self.send_json(status, body)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=5000)
    args = parser.parse_args()
    fake = FakeOsrm()
    fake.serve("127.0.0.1", args.port, _Handler)
    print(f"fake OSRM on http://127.0.0.1:{args.port}")
    fake.serve_until_interrupted()


if __name__ == "__main__":
    main()
