"""Models of the parties domain."""
