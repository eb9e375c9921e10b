"""Where one request's time goes: pyinstrument over N runs of it, in-process, as a company's admin of
var/load/companies.json (the load test's worst endpoint at the knee, issue 25 §1).

    python tests/load/profile.py GET "/api/dispatch/day" [--company LD001] [--n 20] [--body '{...}']

Prints the profile (text) and writes it to var/load/profile-<method>-<path>.txt.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fueldesk.settings")
MANIFEST = Path(os.environ.get("LOAD_MANIFEST", ROOT / "var" / "load" / "companies.json"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("method")
    parser.add_argument("path")
    parser.add_argument("--company", default="LD001")
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--body", default="")
    parser.add_argument("--pdf", action="store_true", help="ask for the PDF (Accept: application/pdf)")
    args = parser.parse_args(argv)
    import django

    django.setup()
    from django.test import Client
    from pyinstrument import Profiler

    manifest = json.loads(MANIFEST.read_text())
    company = next(c for c in manifest["companies"] if c["tag"] == args.company)
    client = Client()
    res = client.post(
        "/api/login",
        json.dumps({"email": company["admin"], "password": manifest["password"]}),
        content_type="application/json",
    )
    assert res.status_code == 200, res.content[:300]
    headers = {"HTTP_AUTHORIZATION": f"Bearer {res.json()['data']['access_token']}"}
    if args.pdf:
        headers["HTTP_ACCEPT"] = "application/pdf"
    call = getattr(client, args.method.lower())

    def once() -> int:
        if args.body:
            return int(call(args.path, args.body, content_type="application/json", **headers).status_code)
        return int(call(args.path, **headers).status_code)

    assert once() in (200, 201), "the request must succeed before it is profiled"  # warm-up
    profiler = Profiler(interval=0.0005)
    t0 = time.perf_counter()
    with profiler:
        statuses = [once() for _ in range(args.n)]
    per = (time.perf_counter() - t0) / args.n * 1000
    text = profiler.output_text(unicode=False, color=False, show_all=False)
    head = f"{args.method} {args.path} as {args.company}: {args.n} runs, {per:.1f} ms each"
    head += f" (statuses {set(statuses)}; CPU {profiler.last_session.cpu_time:.2f} s of"  # type: ignore[union-attr]
    head += f" {profiler.last_session.duration:.2f} s)\n"  # type: ignore[union-attr]
    out = (
        ROOT
        / "var"
        / "load"
        / f"profile-{args.method.lower()}-{re.sub(r'[^a-z0-9]+', '-', args.path.lower())}.txt"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(head + text)
    print(head + text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
