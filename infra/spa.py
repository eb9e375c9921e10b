#!/usr/bin/env python3
"""SPA helpers for the Makefile and infra/run.py (standard library only).

Every command is a no-op (exit 0) when ``spa/package.json`` does not exist yet::

    python infra/spa.py exists            # exit 0 when spa/package.json exists, else 1
    python infra/spa.py has-script NAME   # exit 0 when package.json defines that npm script
    python infra/spa.py install           # node/npm (apt when missing) + `npm ci` when the lock changed
    python infra/spa.py build             # install + `npm run build` unless spa/dist is newer than sources
    python infra/spa.py test              # install + `npm run check:api` and `lint` (if any) + `npm test`
    python infra/spa.py e2e               # + chromium (apt when missing), a server, `npm run e2e` (if any)
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

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
    """`npm run check:api`, `lint` (when defined) and `npm test`: all run, then any failure is reported."""
    if not exists():
        log("no spa/package.json: no SPA tests")
        return
    install()
    env = {**os.environ, "CI": "true"}  # vitest runs once instead of watching
    failed: list[str] = []
    for script in ("check:api", "lint", "test"):
        if not has_script(script):
            continue
        try:
            run(["npm", "run", script], cwd=SPA, env=env)
        except subprocess.CalledProcessError:
            failed.append(script)
    if failed:
        raise SystemExit(f"[spa] failed: {', '.join('npm run ' + f for f in failed)}")


def e2e_database_url(url: str) -> str:
    """A fresh ``<db>_e2e`` database beside DATABASE_URL's (dropped and created again each run)."""
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    name = unquote(parts.path.lstrip("/")) or "fueldesk"
    e2e_name = f"{name}_e2e"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(e2e_name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(e2e_name)))
    return urlunsplit(parts._replace(path="/" + quote(e2e_name)))


def e2e() -> None:
    """Browser tests through the real server: `infra/run.py` on a free port against a fresh database.

    With E2E_BASE_URL set, the tests run against that server instead and nothing is started.
    """
    if not has_script("e2e"):
        log("no e2e script in spa/package.json: skipped")
        return
    install()
    chromium = ensure_chromium()
    env = {**os.environ, "CI": "true", "CHROMIUM_PATH": chromium, "CHROME_PATH": chromium}
    if env.get("E2E_BASE_URL"):
        run(["npm", "run", "e2e"], cwd=SPA, env=env)
        return
    build()  # strict here: a broken SPA fails the e2e step
    import services  # same folder; needs the venv (psycopg)

    with services.running() as found:
        server_env = {**env, **found.env()}
        server_env["DATABASE_URL"] = e2e_database_url(server_env["DATABASE_URL"])
        # Its own Redis database too: the e2e worker must not take other runs' messages.
        server_env["REDIS_URL"] = urlunsplit(urlsplit(server_env["REDIS_URL"])._replace(path="/2"))
        server_env.pop("DRAMATIQ_BROKER_URL", None)
        port = services.free_port(0)
        base_url = f"http://127.0.0.1:{port}"
        database = urlsplit(server_env["DATABASE_URL"]).path.lstrip("/")
        log(f"e2e server on {base_url}: database {database}, Redis database 2")
        server = subprocess.Popen(  # noqa: S603
            [sys.executable, str(ROOT / "infra" / "run.py"), "--port", str(port), "--no-spa"], env=server_env
        )
        try:
            wait_for_server(base_url, server, timeout=300)
            run(["npm", "run", "e2e"], cwd=SPA, env={**env, "E2E_BASE_URL": base_url})
        finally:
            if server.poll() is None:
                server.send_signal(signal.SIGTERM)
                try:
                    server.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    server.kill()


def wait_for_server(base_url: str, server: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"[spa] the e2e server exited with status {server.returncode} before answering")
        try:
            with urllib.request.urlopen(f"{base_url}/api/health/live", timeout=3) as resp:  # noqa: S310
                if resp.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(1)
    raise SystemExit(f"[spa] the e2e server did not become healthy within {timeout:.0f}s")


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
