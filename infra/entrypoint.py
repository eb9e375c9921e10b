#!/usr/bin/env python3
"""Container entrypoint: complete the service URLs from separately injected secrets, then exec.

In AWS the task definitions pass ``DATABASE_URL`` / ``REDIS_URL`` without credentials and the
secrets ``DATABASE_PASSWORD`` / ``REDIS_PASSWORD`` from Secrets Manager (so no URL holding a
password is ever written into a task definition or the Terraform state). This puts each password
into its URL when the URL has none, and runs the command: ``entrypoint.py gunicorn ...``.

Before a web server (``gunicorn``) starts, pending migrations are applied with ``manage.py bootstrap
--if-needed``: under a Postgres advisory lock and only when some are pending, so web tasks starting
at once migrate once (the others wait for the lock, then find nothing to do). A failed migration
stops the container. ``FUELDESK_MIGRATE_ON_START=0`` leaves it to the one-off manage task;
``=1`` does it before any command.
"""

from __future__ import annotations

import os
import subprocess
import sys
from urllib.parse import quote, urlsplit, urlunsplit


def with_password(url: str, password: str, default_user: str = "") -> str:
    parts = urlsplit(url)
    if not password or parts.password or not parts.hostname:
        return url
    user = parts.username or default_user
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    netloc = f"{quote(user, safe='')}:{quote(password, safe='')}@{host}"
    if parts.port:
        netloc += f":{parts.port}"
    return urlunsplit(parts._replace(netloc=netloc))


def main() -> None:
    env = os.environ
    if env.get("DATABASE_URL"):
        env["DATABASE_URL"] = with_password(env["DATABASE_URL"], env.pop("DATABASE_PASSWORD", ""))
    if env.get("REDIS_URL"):
        env["REDIS_URL"] = with_password(env["REDIS_URL"], env.pop("REDIS_PASSWORD", ""))
    command = sys.argv[1:]
    if not command:
        sys.exit("entrypoint.py: no command given")
    if migrate_first(command, env.get("FUELDESK_MIGRATE_ON_START", "")):
        manage = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "manage.py")
        done = subprocess.run([sys.executable, manage, "bootstrap", "--if-needed"], check=False)  # noqa: S603
        if done.returncode != 0:
            sys.exit(
                f"entrypoint.py: migrations failed (status {done.returncode}); not starting {command[0]}"
            )
    os.execvp(command[0], command)  # noqa: S606


def migrate_first(command: list[str], setting: str) -> bool:
    if setting.strip() in {"0", "false", "no"}:
        return False
    if setting.strip() in {"1", "true", "yes"}:
        return True
    return os.path.basename(command[0]) == "gunicorn"


if __name__ == "__main__":
    main()
