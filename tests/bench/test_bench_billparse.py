"""Bill parser accuracy: field-level precision and recall over the generated corpus (11 layout
families, BILLPARSE_PER_LAYOUT documents each, 55 by default: 605 documents), per field and per
layout, and the held-out layouts (F, J, K: never used to tune the parser) on their own. Also the
time per document, and the confidence on layout F before and after one confirmed bill per supplier."""

from __future__ import annotations

import os
import time
from statistics import mean
from typing import Any

from tenants.billparse.extract import learn_layout, parse_pdf
from tenants.billparse.tests.invoicegen import HELD_OUT, HELD_OUT_SET, LAYOUTS, TUNED, make_invoice
from tenants.billparse.tests.scoring import bench_hints, score, summarize

PER_LAYOUT = int(os.environ.get("BILLPARSE_PER_LAYOUT", "55"))


def test_bench_bill_parser_accuracy(record: Any) -> None:
    hints = bench_hints()
    scores = []
    seconds: list[float] = []
    for layout in LAYOUTS:
        for seed in range(PER_LAYOUT):
            data, truth = make_invoice(layout, seed)
            t0 = time.perf_counter()
            result = parse_pdf(data, hints=hints)
            seconds.append(time.perf_counter() - t0)
            scores.append(score(result, truth))
    summary = summarize(scores)
    tuned = summarize([s for s in scores if s.layout in TUNED])
    held = summarize([s for s in scores if s.layout in HELD_OUT_SET])
    summary["tuned_layouts"] = tuned["overall"]
    summary["held_out_layouts"] = {"layouts": HELD_OUT_SET, **held["overall"]}
    summary["held_out_per_field"] = held["per_field"]
    summary["held_out_errors"] = {k: v for k, v in held["per_layout_field"].items() if v}
    summary["seconds_per_document"] = {"mean": round(mean(seconds), 4), "max": round(max(seconds), 4)}
    record["bill_parser"] = summary
    print("\nbill parser:", summary["documents"], "documents")
    print("overall", summary["overall"], "tuned", summary["tuned_layouts"])
    print("held out", summary["held_out_layouts"])
    for name, pr in summary["held_out_per_field"].items():
        print(f"  held out {name:18} P={pr['precision']:.4f} R={pr['recall']:.4f}")
    print("held-out errors", summary["held_out_errors"])
    for name, pr in summary["per_field"].items():
        print(f"  {name:18} P={pr['precision']:.4f} R={pr['recall']:.4f}")
    for name, pr in summary["per_layout"].items():
        print(f"  layout {name}  P={pr['precision']:.4f} R={pr['recall']:.4f}")
    print("seconds per document", summary["seconds_per_document"])
    assert summary["documents"] >= 300 or PER_LAYOUT < 50
    assert summary["overall"]["precision"] >= 0.97 and summary["overall"]["recall"] >= 0.97
    assert held["overall"]["precision"] >= 0.90 and held["overall"]["recall"] >= 0.90
    assert summary["documents"] == PER_LAYOUT * len(LAYOUTS) and set(TUNED).isdisjoint(HELD_OUT_SET)


def test_bench_learned_layout_confidence(record: Any) -> None:
    """Held-out layout: one confirmed bill per supplier teaches its labels; the next bills of that
    supplier are read from the learned labels with a higher confidence."""
    hints = bench_hints()
    layouts: dict[Any, Any] = {}
    before: list[float] = []
    after: list[float] = []
    fields = ("bill_number", "bill_date", "due_date", "bol_numbers")
    docs = [make_invoice(HELD_OUT, seed) for seed in range(500, 500 + PER_LAYOUT)]
    for data, truth in docs[:20]:
        if truth.supplier not in layouts:
            confirmed = {
                "bill_number": truth.bill_number,
                "bill_date": truth.bill_date.isoformat(),
                "due_date": truth.due_date.isoformat(),
                "bol_numbers": ", ".join(truth.bol_numbers),
                "total": str(truth.total),
            }
            layouts[truth.supplier] = learn_layout(data, confirmed=confirmed)
    learned = bench_hints(layouts)
    matched = 0
    for data, _truth in docs[20:]:
        plain = parse_pdf(data, hints=hints)
        taught = parse_pdf(data, hints=learned)
        matched += taught.layout_matched
        before.extend(plain.field(f).confidence for f in fields)
        after.extend(taught.field(f).confidence for f in fields)
    record["bill_parser_learning"] = {
        "documents": len(docs) - 20,
        "layout_recognised": matched,
        "mean_confidence_before": round(mean(before), 3),
        "mean_confidence_after": round(mean(after), 3),
    }
    print("\nlearning:", record["bill_parser_learning"])
    assert mean(after) > mean(before)
