"""Password hashing sized for a web server, not a desktop.

Django's Argon2 defaults (time cost 2, 100 MiB, parallelism 8) cost ~250 ms of CPU per sign-in on
this product's 2-core web tasks: `make load` found sign-in to be the knee, a burst of sign-ins
holding every gunicorn worker (docs/benchmarks.md, "Load across 200 companies"). OWASP's Password
Storage Cheat Sheet lists equivalent Argon2id configurations; its first, 19 MiB with time cost 2 and
parallelism 1, costs ~28 ms here, and parallelism 8 buys nothing on 2 cores. Hashes made with other
parameters still verify (they are encoded in the hash) and are rehashed with these at the user's
next sign-in (``User.check_password``'s setter).
"""

from __future__ import annotations

from django.contrib.auth.hashers import Argon2PasswordHasher


class ServerArgon2PasswordHasher(Argon2PasswordHasher):
    """Argon2id, OWASP's m=19 MiB, t=2, p=1. Same algorithm name as Django's ("argon2")."""

    time_cost = 2
    memory_cost = 19 * 1024  # KiB
    parallelism = 1
