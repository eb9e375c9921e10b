"""Signals the kit sends, so that domain apps can react without the kit importing them."""

from django.dispatch import Signal

# Sent inside a new company's schema (the tenant active) right after its roles and first admin are made,
# within the provisioning transaction. Receivers seed the rows every company starts with.
tenant_provisioned = Signal()  # kwargs: tenant
