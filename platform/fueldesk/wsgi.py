import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for entry in (str(ROOT), str(ROOT / "platform")):
    if entry not in sys.path:
        sys.path.insert(0, entry)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fueldesk.settings")

from django.core.wsgi import get_wsgi_application  # noqa: E402

application = get_wsgi_application()
