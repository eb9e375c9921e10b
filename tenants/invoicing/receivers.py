"""Connections to other domains: the pricing app's tax summary of an invoice
(`GET /api/tax/invoices/taxes/{id}`) and the sales orders' credit control (open receivables)."""

from __future__ import annotations

from tenants.invoicing import selectors, services
from tenants.pricing import services as pricing_services
from tenants.sales import services as sales_services

pricing_services.register_tax_document_source("invoices", selectors.priced_document)
sales_services.register_receivables_provider(services.receivables_of)
