from ninja import Router

router = Router(tags=["routing"])

# (prefix, router) pairs mounted by fueldesk.api
routes: list[tuple[str, Router]] = []
