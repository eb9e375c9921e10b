"""Signals other apps connect to.

`rack_price_changed(sender, supplier_id, terminal_id, product_id, effective_from)` is sent once the
transaction that saved (or deleted) a buying price has committed. The sales app connects a receiver
that reprices its open lines priced from that rack (in the worker) through
`tenants.pricing.services.price_document` and lists margin-guard violations
(`tenants.pricing.services.margin_guard`).
"""

from django.dispatch import Signal

rack_price_changed = Signal()
