#!/usr/bin/env python
"""Django's command-line utility for FuelDesk."""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
# `platform/` is a source folder, not a package: it would shadow the stdlib module (ARCHITECTURE.md).
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "platform"))


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fueldesk.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
