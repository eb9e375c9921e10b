import pytest
from django.urls import Resolver404, resolve, reverse


def test_a_path_resolves_the_same_the_second_time_and_the_kwargs_are_the_callers_own():
    first = resolve("/api/customer/customers/7")
    first.kwargs["id"] = 99  # a view changing its kwargs must not change the next request's
    second = resolve("/api/customer/customers/7")
    assert second.func is first.func and second.kwargs == {"id": 7}
    assert resolve("/api/customer/customers/8").kwargs == {"id": 8}
    assert resolve("/api/customer/customers").func is not second.func


def test_unknown_api_paths_are_not_found_every_time_and_reverse_still_works():
    for _ in range(2):
        with pytest.raises(Resolver404):
            resolve("/api/no-such-thing/at-all")
    assert reverse("api:ping") == "/api/ping"


def test_many_paths_do_not_grow_the_memo_without_end(monkeypatch):
    from fueldesk.urls import urlpatterns

    from core import routing

    memo = next(p for p in urlpatterns if isinstance(p, routing.MemoResolver))
    monkeypatch.setattr(routing, "MAX_PATHS", 10)
    for n in range(1, 40):
        resolve(f"/api/customer/customers/{n}")
    assert 1 <= len(memo._matches) <= 10
