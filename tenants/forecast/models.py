"""Models of the forecast app."""
