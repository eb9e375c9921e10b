"""Route planning: plan the day's loads and stops with a vehicle-routing solver (issue 27)."""
