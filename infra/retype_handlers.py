"""Give every route handler that returns `Any` a real return type (issue 24 §6), re-runnable after a
merge brought new handlers:

    .venv/bin/python infra/retype_handlers.py

1. Each route handler (decorated `@<router>.get/post/put/patch/delete/api_operation(...)`, or handed
   to `<router>.get(...)(fn)` / `add_api_operation` as the kit does in core/crud.py) whose return
   annotation is `Any` gets `-> Answer` (core.envelope.Answer: what `ok()` returns), and the module
   imports it (ruff's isort merges and sorts the import).
2. mypy then names the handlers that also return a response (`got "HttpResponse"`): those become
   `-> Answer | HttpResponse` when they call `ok()` too, else `-> HttpResponse` (a file, a CSV, a
   PDF); likewise for `StreamingHttpResponse` (imported from django.http where it is not).

Needs `core.envelope.Answer` (this change's) in place.

It prints what it changed; run the lint afterwards. Handlers already typed are left alone.
"""

from __future__ import annotations

import ast
import collections
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VERBS = {"get", "post", "put", "patch", "delete", "api_operation"}
FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _registered(tree: ast.AST) -> set[str]:
    """Functions registered without a decorator: `<router>.get(...)(fn)`, `add_api_operation(p, m, fn)`."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        inner = node.func
        if (
            isinstance(inner, ast.Call)
            and isinstance(inner.func, ast.Attribute)
            and inner.func.attr in VERBS
            and node.args
            and isinstance(node.args[0], ast.Name)
        ):
            names.add(node.args[0].id)
        if isinstance(inner, ast.Attribute) and inner.attr == "add_api_operation":
            args = list(node.args[2:3]) + [k.value for k in node.keywords if k.arg == "view_func"]
            names |= {a.id for a in args if isinstance(a, ast.Name)}
    return names


def _is_route(node: ast.FunctionDef | ast.AsyncFunctionDef, registered: set[str]) -> bool:
    if node.name in registered:
        return True
    for d in node.decorator_list:
        f = d.func if isinstance(d, ast.Call) else d
        if isinstance(f, ast.Attribute) and f.attr in VERBS:
            return True
    return False


def _retype(lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef, new: str) -> None:
    r = node.returns
    assert r is not None and r.end_col_offset is not None
    line = lines[r.lineno - 1]
    lines[r.lineno - 1] = line[: r.col_offset] + new + line[r.end_col_offset :]


def _add_import(text: str, line: str = "from core.envelope import Answer") -> str:
    """`line` after the module's last top-level import line (isort moves it and merges it with an
    existing import from the same module)."""
    lines = text.split("\n")
    last = max(i for i, line in enumerate(lines) if line.startswith(("from ", "import ")))
    while lines[last].rstrip().endswith("("):  # a parenthesised import: after its closing line
        last = next(i for i in range(last, len(lines)) if lines[i].startswith(")"))
    lines.insert(last + 1, line)
    return "\n".join(lines)


def step_one(files: list[Path]) -> int:
    total = 0
    for path in files:
        text = path.read_text()
        tree = ast.parse(text)
        registered = _registered(tree)
        found = [
            n
            for n in ast.walk(tree)
            if isinstance(n, FUNCS)
            and n.returns is not None
            and ast.unparse(n.returns) == "Any"
            and _is_route(n, registered)
        ]
        if not found:
            continue
        lines = text.split("\n")
        for node in found:
            _retype(lines, node, "Answer")
        text = "\n".join(lines)
        if path.relative_to(ROOT).as_posix() != "platform/core/envelope.py":
            text = _add_import(text)
        path.write_text(text)
        total += len(found)
        print(f"{path.relative_to(ROOT)}: {len(found)} -> Answer")
    return total


def step_two(mypy_output: str) -> None:
    pattern = re.compile(r'^([^:]+):(\d+): error: Incompatible return value type \(got "(\w*Response)"')
    wanted: dict[str, dict[int, str]] = collections.defaultdict(dict)
    for line in mypy_output.splitlines():
        m = pattern.match(line)
        if m:
            wanted[m.group(1)][int(m.group(2))] = m.group(3)
    for name, got in wanted.items():
        path = ROOT / name
        text = path.read_text()
        lines = text.split("\n")
        funcs = [n for n in ast.walk(ast.parse(text)) if isinstance(n, FUNCS)]
        done: set[str] = set()
        for lineno, cls in got.items():
            node = max(
                (n for n in funcs if n.lineno <= lineno <= (n.end_lineno or n.lineno)), key=lambda n: n.lineno
            )
            if node.name in done or node.returns is None or ast.unparse(node.returns) != "Answer":
                continue
            done.add(node.name)
            calls_ok = any(
                isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == "ok"
                for c in ast.walk(node)
            )
            new = f"Answer | {cls}" if calls_ok else cls
            _retype(lines, node, new)
            print(f"{name}: {node.name} -> {new}")
        text = "\n".join(lines)
        for cls in set(got.values()):
            if not re.search(rf"^from django\.http import .*\b{cls}\b", text, re.M):
                text = _add_import(text, f"from django.http import {cls}")
        path.write_text(text)


def main() -> None:
    py = sys.executable
    files = [
        p
        for top in ("platform", "tenants")
        for p in sorted((ROOT / top).rglob("*.py"))
        if "tests" not in p.parts and "migrations" not in p.parts
    ]
    print(f"{step_one(files)} handlers")
    isort = [py, "-m", "ruff", "check", "--fix", "--select", "I,F401", "-q", "platform", "tenants"]
    subprocess.run(isort, cwd=ROOT, check=False)  # noqa: S603
    mypy = [py, "-m", "mypy", "platform", "tenants"]
    step_two(subprocess.run(mypy, cwd=ROOT, capture_output=True, text=True, check=False).stdout)  # noqa: S603
    subprocess.run(isort, cwd=ROOT, check=False)  # noqa: S603
    fmt = [py, "-m", "ruff", "format", "-q", "platform", "tenants"]
    subprocess.run(fmt, cwd=ROOT, check=False)  # noqa: S603


if __name__ == "__main__":
    main()
