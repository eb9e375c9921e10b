"""Entry point of the worker (`dramatiq fueldesk.tasks`): sets Django up and imports every actor."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fueldesk.settings")
django.setup()

import tenancy.tasks  # noqa: E402,F401

import fueldesk.dramatiq_setup  # noqa: E402,F401  (the broker comes before the actors)
import tenants.accounts.tasks  # noqa: E402,F401
import tenants.catalog.tasks  # noqa: E402,F401
