"""The worker (`dramatiq fueldesk.tasks`) knows every actor the code can send: each app's tasks
module is imported by the worker's entry point. A missing one is not an error anywhere until its
first message, which the worker then drops ("actor not found") while the job log waits forever."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_worker_declares_every_tenant_actor():
    modules = sorted(
        ".".join(p.relative_to(ROOT).with_suffix("").parts) for p in (ROOT / "tenants").glob("*/tasks.py")
    )
    script = (
        "import sys, fueldesk.tasks, dramatiq; "
        "print('\\n'.join(m for m in sys.modules if m.startswith('tenants.') and m.endswith('.tasks'))); "
        "print('actors:', ' '.join(sorted(dramatiq.get_broker().actors)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={
            **os.environ,
            "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}",
            "DJANGO_SETTINGS_MODULE": "fueldesk.settings",
        },
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    imported = set(out.splitlines())
    missing = [m for m in modules if m not in imported]
    assert not missing, f"fueldesk/tasks.py does not import {missing}"
    assert "invoice_delivered_day" in out.split("actors:")[1].split()
