"""Configures the global Dramatiq broker once, before any actor is declared (core.jobs builds it).

A tasks module that declares plain `dramatiq.actor`s imports this first; `tenant_actor` installs the
broker itself. It lives in the kit (not the composition root) so that every layer may import it."""

from core.jobs import setup_broker

broker = setup_broker()
