# Seeded roles take their permissions from the resource registry, which the API modules fill on import;
# import them before the session's tenants are provisioned (collection runs before any fixture).
import fueldesk.api  # noqa: F401
