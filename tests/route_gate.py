"""The route gate: every operation of /api/openapi.json is called with a success status (2xx) by at
least one test. The generic suites (tests/fuzz, tests/isolation) do not count: they prove that a
route is safe, not that it does what its user needs.

A pytest plugin (loaded by the root conftest). With `--route-gate=enforce` (or `report`) it records,
for every request the tests send through the Django test client, the operation the request resolved
to and its status; at the end of a complete run it lists the operations that no test called with a
2xx answer, and with `enforce` fails the run. A partial run (paths, -k, -m, --lf...) is not checked.
Works with pytest-xdist: each worker sends what it saw to the controller.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

NOT_COUNTED = ("tests/fuzz/", "tests/isolation/")
# Operations no test can call with a success status, with the reason (keep it empty if you can).
EXEMPT: dict[str, str] = {}
STASH = pytest.StashKey["Recorder"]()


@dataclass
class Recorder:
    mode: str
    counting: bool = True
    called: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Operation:
    op_id: str
    method: str
    path: str
    module: str


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--route-gate",
        choices=("off", "report", "enforce"),
        default="off",
        help="Check that every API operation is called with a 2xx by a test (report, or enforce: fail).",
    )


def pytest_configure(config: pytest.Config) -> None:
    mode = config.getoption("--route-gate")
    if mode == "off":
        return
    recorder = Recorder(mode=mode)
    config.stash[STASH] = recorder
    from ninja.operation import Operation as NinjaOperation

    original = NinjaOperation.run

    def run(self: Any, request: Any, **kw: Any) -> Any:
        response = original(self, request, **kw)
        if recorder.counting and 200 <= response.status_code < 300:
            recorder.called.add(self.operation_id or self.api.get_openapi_operation_id(self))
        return response

    NinjaOperation.run = run  # type: ignore[method-assign]
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(XdistController(recorder), "route-gate-xdist")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    recorder = item.config.stash.get(STASH, None)
    if recorder is not None:
        recorder.counting = not item.nodeid.startswith(NOT_COUNTED)
    return (yield)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    recorder = session.config.stash.get(STASH, None)
    if recorder is None:
        return
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: hand the calls to the controller
        workeroutput["route_gate"] = sorted(recorder.called)
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")

    def write(text: str, **markup: bool) -> None:
        if reporter is not None:
            reporter.write_line(text, **markup)
        else:
            print(text)

    if not _complete_run(session.config):
        write("route gate: not checked (a partial run: it needs the whole suite)")
        return
    if exitstatus not in (0, pytest.ExitCode.OK):
        write("route gate: tests failed, so an operation below may only lack its passing test")
    operations = api_operations()
    missing = [op for op in operations if op.op_id not in recorder.called and op.op_id not in EXEMPT]
    if not missing:
        write(f"route gate: all {len(operations)} operations are called with a 2xx by a test")
        return
    write(failure_message(missing, len(operations)), red=recorder.mode == "enforce", bold=True)
    if recorder.mode == "enforce":
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


class XdistController:
    """On the xdist controller: collect what each worker recorded when it finishes."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder

    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        self.recorder.called.update(getattr(node, "workeroutput", {}).get("route_gate", []))


def _complete_run(config: pytest.Config) -> bool:
    option = config.option
    if option.keyword or option.markexpr or getattr(option, "lf", False):
        return False
    if config.args_source == pytest.Config.ArgsSource.TESTPATHS:
        return True
    # The test paths named explicitly (e.g. with --ignore=tests/fuzz --ignore=tests/isolation, which
    # do not count anyway) are a complete run too.
    return {a.rstrip("/") for a in config.args} >= set(config.getini("testpaths"))


def api_operations() -> list[Operation]:
    """Every operation of the OpenAPI document, with the module that declares it."""
    from importlib import import_module

    from fueldesk.api import DOMAIN_API_MODULES, api

    schema = api.get_openapi_schema(path_prefix="/api")  # first: it settles each operation's tags
    modules: dict[str, str] = {}  # full path -> the api module that declares it
    for module_name in DOMAIN_API_MODULES:
        for prefix, router in getattr(import_module(module_name), "routes", []):
            for path in router.path_operations:
                full = re.sub(r"\{\w+:(\w+)\}", r"{\1}", f"/api{prefix}{path}").rstrip("/")
                modules[full] = module_name
    found = []
    for path, methods in schema["paths"].items():
        for method, spec in methods.items():
            op_id = spec["operationId"]
            found.append(Operation(op_id, method.upper(), path, modules.get(path.rstrip("/"), "?")))
    return sorted(found, key=lambda o: (o.module, o.path, o.method))


def failure_message(missing: list[Operation], total: int) -> str:
    width = max(len(f"{o.method} {o.path}") for o in missing)
    lines = [
        "",
        f"ROUTE GATE: {len(missing)} of {total} API operations are never called with a success (2xx) "
        "answer by a test.",
        "(tests/fuzz and tests/isolation do not count: they check safety, not behaviour.)",
        "",
    ]
    lines += [f"  {f'{o.method} {o.path}':<{width}}  {o.op_id}  [{o.module}]" for o in missing]
    lines += [
        "",
        "What to do: for each operation above, add a test in the tests/ folder of the app that declares it",
        "(the api module in brackets: tenants.geo.api -> tenants/geo/tests/) that calls it through the",
        "API as a user would (the api_a fixture, or Api(token_for(tenant_a, role=...))) and asserts what",
        "that user would check: the values, the message, the list order, what changed. A 2xx answer is",
        "what counts. See docs/contributing.md, section 7. Check again with the whole suite:",
        "  make pytest PYTEST_ARGS=--route-gate=enforce",
        "An operation that truly cannot answer 2xx in a test goes in EXEMPT (tests/route_gate.py), with why.",
    ]
    return "\n".join(lines)
