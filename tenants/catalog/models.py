"""Models of the catalog domain."""
