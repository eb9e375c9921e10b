"""The production image's contract, checked without a Docker engine: the runtime is built the way the
Dockerfile builds it (its requirement list in a venv of its own, the same files copied, collectstatic
with FUELDESK_ENV=dev) and started through infra/entrypoint.py with FUELDESK_ENV=production.

- without secrets it refuses to start, naming the missing one;
- with them it migrates an empty database and serves /api/health (JSON naming each dependency);
- two containers started at once against the same empty database run the migrations once.

The venv is made once per requirement list (var/image-venv-<hash>, a minute or two the first time).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import psycopg
import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def _requirements() -> str:
    # The Dockerfile's own command (its deps stage), read from it so a change there is followed here.
    line = next(ln for ln in DOCKERFILE.splitlines() if "infra/deps.py --exclude" in ln)
    exclude = line.split("--exclude", 1)[1].split()[0]
    out = subprocess.run(
        [sys.executable, str(ROOT / "infra" / "deps.py"), "--exclude", exclude],
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout


@pytest.fixture(scope="module")
def image_python() -> Path:
    requirements = _requirements()
    digest = hashlib.sha256(requirements.encode()).hexdigest()[:12]
    venv = ROOT / "var" / f"image-venv-{digest}"
    python = venv / "bin" / "python"
    if not (venv / ".complete").exists():
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        (venv / "requirements.txt").write_text(requirements)
        subprocess.run(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "-q",
                "--disable-pip-version-check",
                "-r",
                str(venv / "requirements.txt"),
            ],
            check=True,
        )
        (venv / ".complete").write_text(digest)
    return python


@pytest.fixture(scope="module")
def app_dir(tmp_path_factory: pytest.TempPathFactory, image_python: Path) -> Path:
    """/app as the runtime stage lays it out: only what the Dockerfile copies."""
    app = tmp_path_factory.mktemp("image") / "app"
    app.mkdir()
    copied = []
    runtime = DOCKERFILE.split(" AS runtime", 1)[1]  # the runtime stage's own COPY lines
    for line in runtime.splitlines():
        if line.startswith("COPY ") and "--from=" not in line:
            *sources, _dest = line.split()[1:]
            copied.extend(sources)
    assert "platform/" in copied and "infra/entrypoint.py" in copied, copied
    ignore = shutil.ignore_patterns("__pycache__", "tests")
    for source in copied:
        src = ROOT / source.rstrip("/")
        if src.is_dir():
            shutil.copytree(src, app / source.rstrip("/"), ignore=ignore)
        else:
            (app / source).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, app / source)
    (app / "spa" / "dist").mkdir(parents=True)  # the SPA stage's output
    (app / "spa" / "dist" / "index.html").write_text("<!doctype html><title>FuelDesk</title>")
    env = _base_env(app, image_python) | {"FUELDESK_ENV": "dev"}
    subprocess.run(
        [str(image_python), "manage.py", "collectstatic", "--noinput"],
        cwd=app,
        env=env,
        check=True,
        capture_output=True,
    )
    return app


def _base_env(app: Path, python: Path) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if k in {"LANG", "LC_ALL", "TZ", "HOME"}}
    return keep | {
        "PATH": f"{python.parent}:/usr/local/bin:/usr/bin:/bin",
        "PYTHONPATH": f"{app}/platform:{app}",
        "PYTHONDONTWRITEBYTECODE": "1",
        "DJANGO_SETTINGS_MODULE": "fueldesk.settings",
        "FUELDESK_ENV": "production",
        "FUELDESK_VAR_DIR": str(app / "var"),
        "HOST": "127.0.0.1",
    }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def empty_database():
    base = os.environ.get("DATABASE_URL", "postgres://root@127.0.0.1:5432/fueldesk")
    name = f"fd_image_{uuid.uuid4().hex[:8]}"
    admin = base.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield base.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _secrets() -> dict[str, str]:
    return {"SECRET_KEY": "s" + uuid.uuid4().hex * 2, "JWT_SIGNING_KEY": "j" + uuid.uuid4().hex * 2}


def test_it_refuses_to_start_without_secrets(app_dir: Path, image_python: Path, empty_database: str) -> None:
    env = _base_env(app_dir, image_python) | {"DATABASE_URL": empty_database, "PORT": str(_free_port())}
    started = subprocess.run(
        [
            str(image_python),
            "infra/entrypoint.py",
            "gunicorn",
            "-c",
            "infra/gunicorn.conf.py",
            "fueldesk.wsgi:application",
        ],
        cwd=app_dir,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert started.returncode != 0
    assert "SECRET_KEY is not set" in started.stderr, started.stderr[-2000:]


def _get(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_two_containers_at_once_migrate_once_and_serve_health(
    app_dir: Path, image_python: Path, empty_database: str
) -> None:
    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    shared = (
        _base_env(app_dir, image_python)
        | _secrets()
        | {
            "DATABASE_URL": empty_database,
            "REDIS_URL": redis_url,
            "CACHE_KEY_PREFIX": f"img{uuid.uuid4().hex[:6]}",
            "DRAMATIQ_NAMESPACE": f"img{uuid.uuid4().hex[:6]}",
            "SPARE_SCHEMA_POOL_SIZE": "0",
            "WEB_CONCURRENCY": "1",
            "SECURE_SSL_REDIRECT": "0",
        }
    )
    ports = [_free_port(), _free_port()]
    procs = []
    logs = []
    try:
        for port in ports:
            # Append mode: every write of the container goes to the file's end, whatever the offset of
            # the file description it shares with this process (a reader here never moves its writes).
            log = (app_dir.parent / f"container-{port}.log").open("a")
            logs.append(log)
            procs.append(
                subprocess.Popen(
                    [
                        str(image_python),
                        "infra/entrypoint.py",
                        "gunicorn",
                        "-c",
                        "infra/gunicorn.conf.py",
                        "fueldesk.wsgi:application",
                    ],
                    cwd=app_dir,
                    env=shared | {"PORT": str(port)},
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        deadline = time.monotonic() + 420
        answers: dict[int, tuple[int, dict]] = {}
        while time.monotonic() < deadline and len(answers) < len(ports):
            for port, proc in zip(ports, procs, strict=True):
                assert proc.poll() is None, _tail(logs)
                if port not in answers:
                    with contextlib.suppress(urllib.error.URLError, OSError):  # not listening yet
                        answers[port] = _get(f"http://127.0.0.1:{port}/api/health")
            time.sleep(1)
        assert len(answers) == len(ports), _tail(logs)
        for status, body in answers.values():
            data = body["data"]
            assert data["database"] == "ok" and data["redis"] == "ok" and data["migrations"] == "ok", body
            # No worker runs beside these containers: the page says so (and is a 503 for it).
            assert status == 503 and data["worker"].startswith("error: no worker"), body
        assert _get(f"http://127.0.0.1:{ports[0]}/api/health/live")[0] == 200
        text = _tail(logs, lines=10_000)
        assert text.count("Database ready: migrations applied.") == 1, text[-3000:]
        assert text.count("Database already up to date: nothing to migrate.") == 1, text[-3000:]
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        for log in logs:
            log.close()


def _tail(logs: list, lines: int = 60) -> str:
    # Read through a handle of our own: seeking the one the running container writes through moved its
    # next line to the file's start, over the first lines (a flaky count of the migration's message).
    out = []
    for log in logs:
        text = Path(log.name).read_text(errors="replace")
        out.append("".join(text.splitlines(keepends=True)[-lines:]))
    return "\n----\n".join(out)
