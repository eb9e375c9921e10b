"""Models of the routing app."""
