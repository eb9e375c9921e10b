"""Field-level precision and recall of the bill parser against the generator's ground truth.

For every field of every document: a predicted value equal to the truth is a true positive; a
predicted value that differs is a false positive (and, the truth being missed, a false negative);
no prediction where there is a truth is a false negative. BOL numbers and taxes are counted item by
item (a tax is right when its printed name and its amount are); lines are paired in order and each of
their fields (product, gross, net, unit price, amount) is counted like a scalar.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from tenants.billparse.extract import AliasHint, ParseHints, ParseResult, SupplierHint, TerminalHint
from tenants.billparse.tests.invoicegen import DIRECTORY, Truth

LINE_FIELDS = ("product", "gross", "net", "unit_price", "amount")
FIELDS = (
    "supplier",
    "bill_number",
    "bill_date",
    "due_date",
    "bol_numbers",
    "terminal",
    "total",
    *(f"line.{f}" for f in LINE_FIELDS),
    "taxes",
)


def bench_hints(layouts: dict[Any, dict[str, dict[str, str]]] | None = None) -> ParseHints:
    suppliers = tuple(
        SupplierHint(
            id=s["name"],
            name=s["name"],
            address=f"{s['address_one']}, {s['city']}",
            aliases=tuple(AliasHint(name=n, code=c, product=code) for code, (n, c) in s["aliases"].items()),
        )
        for s in DIRECTORY["suppliers"]
    )
    terminals = tuple(
        TerminalHint(id=t["name"], name=t["name"], code=t["code"]) for t in DIRECTORY["terminals"]
    )
    return ParseHints(suppliers=suppliers, terminals=terminals, layouts=layouts or {})


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, other: Counts) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


def _scalar(pred: Any, truth: Any) -> Counts:
    if pred is None or pred == "" or pred == []:
        return Counts(fn=1 if truth not in (None, "") else 0)
    if pred == truth:
        return Counts(tp=1)
    return Counts(fp=1, fn=1 if truth not in (None, "") else 0)


def _items(pred: list[Any], truth: list[Any]) -> Counts:
    p, t = Counter(pred), Counter(truth)
    tp = sum((p & t).values())
    return Counts(tp=tp, fp=sum(p.values()) - tp, fn=sum(t.values()) - tp)


def _dec(value: Any) -> Decimal | None:
    return value if isinstance(value, Decimal) else None


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


@dataclass
class DocScore:
    layout: str
    fields: dict[str, Counts] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


def score(result: ParseResult, truth: Truth) -> DocScore:
    out = DocScore(truth.layout)
    f = result.field
    out.fields["supplier"] = _scalar(f("supplier").value, truth.supplier)
    out.fields["bill_number"] = _scalar(f("bill_number").value, truth.bill_number)
    out.fields["bill_date"] = _scalar(f("bill_date").value, truth.bill_date)
    out.fields["due_date"] = _scalar(f("due_date").value, truth.due_date)
    out.fields["terminal"] = _scalar(f("terminal").value, truth.terminal)
    out.fields["total"] = _scalar(_dec(f("total").value), truth.total)
    out.fields["bol_numbers"] = _items(list(f("bol_numbers").value or []), truth.bol_numbers)
    for name in LINE_FIELDS:
        c = Counts()
        for i in range(max(len(result.lines), len(truth.lines))):
            pred = getattr(result.lines[i], name).value if i < len(result.lines) else None
            want = truth.lines[i][name] if i < len(truth.lines) else None
            if isinstance(pred, Decimal) and isinstance(want, Decimal):
                pred = pred if pred != want else want
            c.add(_scalar(pred, want))
        out.fields[f"line.{name}"] = c
    out.fields["taxes"] = _items(
        [(_squash(str(t.description.value or "")), t.amount.value) for t in result.taxes],
        [(_squash(t["name"]), t["amount"]) for t in truth.taxes],
    )
    for name, c in out.fields.items():
        if c.fp or c.fn:
            out.errors.append(name)
    return out


def summarize(scores: list[DocScore]) -> dict[str, Any]:
    overall = Counts()
    per_field: dict[str, Counts] = defaultdict(Counts)
    per_layout: dict[str, Counts] = defaultdict(Counts)
    per_layout_field: dict[str, dict[str, Counts]] = defaultdict(lambda: defaultdict(Counts))
    for s in scores:
        for name, c in s.fields.items():
            overall.add(c)
            per_field[name].add(c)
            per_layout[s.layout].add(c)
            per_layout_field[s.layout][name].add(c)

    def pr(c: Counts) -> dict[str, float]:
        return {
            "precision": round(c.precision, 4),
            "recall": round(c.recall, 4),
            "tp": c.tp,
            "fp": c.fp,
            "fn": c.fn,
        }

    return {
        "documents": len(scores),
        "overall": pr(overall),
        "per_field": {k: pr(per_field[k]) for k in FIELDS if k in per_field},
        "per_layout": {k: pr(v) for k, v in sorted(per_layout.items())},
        "per_layout_field": {
            lay: {k: pr(v) for k, v in fields.items() if v.fp or v.fn}
            for lay, fields in sorted(per_layout_field.items())
        },
    }
