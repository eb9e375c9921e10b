"""Configures the global Dramatiq broker once, before any actor is declared."""

import dramatiq
from core.jobs import build_broker

broker = build_broker()
dramatiq.set_broker(broker)
