"""Configures the global Dramatiq broker once, before any actor is declared (core.jobs builds it)."""

from core.jobs import setup_broker

broker = setup_broker()
