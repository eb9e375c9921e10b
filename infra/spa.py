#!/usr/bin/env python3
"""SPA helpers for the Makefile and infra/run.py (standard library only).

Every command is a no-op (exit 0) when ``spa/package.json`` does not exist yet::

    python infra/spa.py exists            # exit 0 when spa/package.json exists, else 1
    python infra/spa.py has-script NAME   # exit 0 when package.json defines that npm script
    python infra/spa.py install           # node/npm (apt when missing) + `npm ci` when the lock changed
    python infra/spa.py build             # install + `npm run build` unless spa/dist is newer than sources
    python infra/spa.py test              # install + `npm run check:api` (if any) + `npm test`
    python infra/spa.py e2e               # install + chromium (apt when missing) + `npm run e2e` (if any)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPA = ROOT / "spa"
PACKAGE_JSON = SPA / "package.json"
# Folders that are outputs or caches, never build inputs.
NOT_SOURCES = {"node_modules", "dist", "coverage", "test-results", "playwright-report", ".vite", ".cache"}
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")


def log(msg: str) -> None:
    print(f"[spa] {msg}", file=sys.stderr, flush=True)


def exists() -> bool:
    return PACKAGE_JSON.is_file()


def scripts() -> dict[str, str]:
    if not exists():
        return {}
    return dict(json.loads(PACKAGE_JSON.read_text()).get("scripts", {}))


def has_script(name: str) -> bool:
    return name in scripts()


def run(cmd: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    log("$ " + " ".join(cmd))
    subprocess.run(cmd, check=True, cwd=cwd, env=env)  # noqa: S603


def apt_install(*packages: str) -> None:
    if not shutil.which("apt-get"):
        raise SystemExit(f"[spa] {', '.join(packages)} missing and no apt-get here: install them by hand")
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    run([*sudo, "apt-get", "update", "-q"], env=env)
    run([*sudo, "apt-get", "install", "-y", "-q", "--no-install-recommends", *packages], env=env)


def ensure_node() -> None:
    if shutil.which("npm") and shutil.which("node"):
        return
    log("node/npm not found: installing Debian's nodejs and npm")
    apt_install("nodejs", "npm")


def chromium_path() -> str | None:
    for candidate in CHROMIUM_CANDIDATES:
        if os.access(candidate, os.X_OK):
            return candidate
    return None


def ensure_chromium() -> str:
    path = chromium_path()
    if path:
        return path
    log("chromium not found: installing Debian's chromium")
    apt_install("chromium", "fonts-liberation")
    path = chromium_path()
    if not path:
        raise SystemExit("[spa] chromium still missing after apt-get install")
    return path


def newest_mtime(path: Path) -> float:
    newest = 0.0
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames[:] = [d for d in dirnames if d not in NOT_SOURCES]
        for name in filenames:
            try:
                newest = max(newest, os.stat(os.path.join(dirpath, name)).st_mtime)
            except OSError:
                continue
    return newest


def install() -> None:
    if not exists():
        return
    ensure_node()
    lock = SPA / "package-lock.json"
    marker = SPA / "node_modules" / ".package-lock.json"  # npm writes it on every install
    inputs = [p for p in (PACKAGE_JSON, lock) if p.exists()]
    if marker.exists() and all(p.stat().st_mtime <= marker.stat().st_mtime for p in inputs):
        return
    run(["npm", "ci" if lock.exists() else "install", "--no-audit", "--no-fund"], cwd=SPA)
    marker.touch(exist_ok=True)


def build(force: bool = False) -> None:
    if not exists():
        log("no spa/package.json: nothing to build")
        return
    install()
    index = SPA / "dist" / "index.html"
    if not force and index.exists() and index.stat().st_mtime >= newest_mtime(SPA):
        log("spa/dist is up to date")
        return
    run(["npm", "run", "build"], cwd=SPA)
    if index.exists():
        index.touch()


def test() -> None:
    if not exists():
        log("no spa/package.json: no SPA tests")
        return
    install()
    env = {**os.environ, "CI": "true"}  # vitest runs once instead of watching
    if has_script("check:api"):
        run(["npm", "run", "check:api"], cwd=SPA, env=env)
    if has_script("test"):
        run(["npm", "test"], cwd=SPA, env=env)


def e2e() -> None:
    if not has_script("e2e"):
        log("no e2e script in spa/package.json: skipped")
        return
    install()
    chromium = ensure_chromium()
    env = {**os.environ, "CI": "true", "CHROMIUM_PATH": chromium, "CHROME_PATH": chromium}
    run(["npm", "run", "e2e"], cwd=SPA, env=env)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    cmd, rest = argv[0], argv[1:]
    try:
        if cmd == "exists":
            return 0 if exists() else 1
        if cmd == "has-script":
            return 0 if rest and has_script(rest[0]) else 1
        actions = {"install": install, "build": lambda: build("--force" in rest), "test": test, "e2e": e2e}
        if cmd not in actions:
            print(__doc__)
            return 2
        actions[cmd]()
    except subprocess.CalledProcessError as exc:
        log(f"failed ({exc.returncode}): {' '.join(map(str, exc.cmd))}")
        return exc.returncode or 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
