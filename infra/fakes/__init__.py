"""Fakes of outside services that speak their real protocols (tests and `make run`)."""
