from ninja import Router

router = Router(tags=["forecast"])

# (prefix, router) pairs mounted by fueldesk.api
routes: list[tuple[str, Router]] = []
