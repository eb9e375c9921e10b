"""Local infrastructure: run scripts, service management and protocol fakes (infra/fakes)."""
