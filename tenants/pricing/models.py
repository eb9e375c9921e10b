"""Models of the pricing domain."""
