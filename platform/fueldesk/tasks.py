"""Entry point of the worker (`dramatiq fueldesk.tasks`): sets Django up and imports every actor.
Each tasks module imports `core.dramatiq_setup` first, so the broker exists before its actors."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fueldesk.settings")
django.setup()

import tenancy.tasks  # noqa: E402,F401

import tenants.accounts.tasks  # noqa: E402
import tenants.billparse.tasks  # noqa: E402
import tenants.dataexport.tasks  # noqa: E402
import tenants.imports.tasks  # noqa: E402
import tenants.inbox.tasks  # noqa: E402
import tenants.invoicing.tasks  # noqa: E402
import tenants.jobs.tasks  # noqa: E402
import tenants.mail.tasks  # noqa: E402
import tenants.quickbooks.tasks  # noqa: E402
import tenants.routing.tasks  # noqa: E402
import tenants.sales.tasks  # noqa: E402,F401
