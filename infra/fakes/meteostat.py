"""A small fake of Meteostat's JSON API (daily station data) for development and tests:
`GET /stations/daily?station=..&start=YYYY-MM-DD&end=YYYY-MM-DD[&units=imperial][&model=1]` with the
`x-rapidapi-key` header, answering `{"meta": {...}, "data": [{"date", "tavg", "tmin", "tmax"}, ...]}`
(°C unless `units=imperial`, then °F), as the production provider (tenants/forecast/weather.py) calls it.

    python -m infra.fakes.meteostat --port 8793

In tests: ``with FakeMeteostat(api_key="k") as fake: fake.daily["72317"] = {date: mean_f, ...}``.
`failures` answers the next requests with the given statuses (429, 500 ...) first.
"""

from __future__ import annotations

import argparse
import datetime as dt
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from infra.fakes import base


@dataclass
class State:
    # station -> day -> mean °F (the fake's truth; tmin/tmax are the mean -/+ 8 °F)
    daily: dict[str, dict[dt.date, float]] = field(default_factory=dict)
    failures: list[int] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)


class FakeMeteostat(base.FakeServer):
    thread_name = "fake-meteostat"

    def __init__(self, host: str = "127.0.0.1", port: int = 0, api_key: str = "") -> None:
        super().__init__()
        self.host, self.port, self.api_key = host, port, api_key
        self.state = State()

    @property
    def daily(self) -> dict[str, dict[dt.date, float]]:
        return self.state.daily

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.server_port}"

    def start(self) -> FakeMeteostat:
        self.serve(self.host, self.port, _Handler)
        return self


def _to_c(f: float) -> float:
    return round((f - 32) * 5 / 9, 1)


class _Handler(base.FakeHandler):
    fake: FakeMeteostat

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        q = {k: v[-1] for k, v in parse_qs(url.query).items()}
        fake = self.fake
        with fake.lock:
            fake.state.requests.append(
                {"path": url.path, "query": q, "key": self.headers.get("x-rapidapi-key")}
            )
            if fake.state.failures:
                status = fake.state.failures.pop(0)
                self.send_json(status, {"message": "injected failure"})
                return
        if fake.api_key and self.headers.get("x-rapidapi-key") != fake.api_key:
            self.send_json(403, {"message": "You are not subscribed to this API."})
            return
        if url.path != "/stations/daily":
            self.send_json(404, {"message": "Endpoint does not exist"})
            return
        try:
            start = dt.date.fromisoformat(q["start"])
            end = dt.date.fromisoformat(q["end"])
        except (KeyError, ValueError):
            self.send_json(400, {"message": "start and end (YYYY-MM-DD) are required"})
            return
        imperial = q.get("units") == "imperial"
        days = fake.state.daily.get(q.get("station", ""), {})
        data = []
        d = start
        while d <= end:
            mean = days.get(d)
            if mean is not None and (q.get("model") == "1" or d < dt.date.today()):
                lo, hi = mean - 8, mean + 8
                conv = (lambda x: round(x, 1)) if imperial else _to_c
                data.append({"date": d.isoformat(), "tavg": conv(mean), "tmin": conv(lo), "tmax": conv(hi)})
            d += dt.timedelta(days=1)
        self.send_json(
            200, {"meta": {"generated": dt.datetime.now().isoformat(timespec="seconds")}, "data": data}
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8793)
    parser.add_argument("--api-key", default="")
    args = parser.parse_args()
    fake = FakeMeteostat(port=args.port, api_key=args.api_key).start()
    print(f"fake Meteostat on {fake.base_url}")
    fake.serve_until_interrupted()


if __name__ == "__main__":
    main()
