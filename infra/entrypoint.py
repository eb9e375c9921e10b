#!/usr/bin/env python3
"""Container entrypoint: complete the service URLs from separately injected secrets, then exec.

In AWS the task definitions pass ``DATABASE_URL`` / ``REDIS_URL`` without credentials and the
secrets ``DATABASE_PASSWORD`` / ``REDIS_PASSWORD`` from Secrets Manager (so no URL holding a
password is ever written into a task definition or the Terraform state). This puts each password
into its URL when the URL has none, and runs the command: ``entrypoint.py gunicorn ...``.
"""

from __future__ import annotations

import os
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
    os.execvp(command[0], command)  # noqa: S606


if __name__ == "__main__":
    main()
