"""A decompression-bomb PDF sent to the bill parser (issue 23, section 3): an 816 KB file whose page
stream inflated to 800 MB grew the worker from 138 MB to 1 GB, and it stayed there. Now the parse
runs under limits (billparse.guard, core.sandbox): the document fails with the reason, the worker
never holds the inflated bytes, and it goes on with the next file."""

from __future__ import annotations

from typing import Any

from conftest import Api
from tenants.billparse.guard import LIMITS, oversized_stream, parse_limited
from tenants.billparse.tests.invoicegen import make_invoice
from tenants.billparse.tests.test_api import URL, job_logs, pdf_file, upload
from tests.memory import peak_rss_since, reset_peak_rss, rss_bytes
from tests.pdfs import bomb_pdf

MB = 1024 * 1024


def test_a_bomb_fails_with_the_reason_the_worker_does_not_grow_and_the_next_file_is_parsed(
    api_a: Api, directory_a: Any, jobs: Any, django_capture_on_commit_callbacks: Any
) -> None:
    bomb = bomb_pdf(300)  # 300 MB of zeros in one page stream
    assert len(bomb) < 1 * MB
    invoice, _truth = make_invoice("A", 3101)
    with django_capture_on_commit_callbacks(execute=True):
        r = upload(api_a, pdf_file("bomb.pdf", bomb), pdf_file("real.pdf", invoice))
    assert r.status_code == 201, r.content
    assert [d["status"] for d in r.json()["data"]["documents"]] == ["queued", "queued"]

    before = rss_bytes()
    peak_known = reset_peak_rss()
    assert jobs() == 1  # the worker's job, in this process: what it holds is this process's memory
    grown_after = rss_bytes() - before
    peak = peak_rss_since(before) if peak_known else None

    rows = {d["file_name"]: d for d in api_a.get(URL).json()["data"]["items"]}
    assert rows["bomb.pdf"]["status"] == "failed"
    assert rows["bomb.pdf"]["message"].startswith(
        "This PDF is too large to read: a part of it unpacks to more"
    )
    assert rows["real.pdf"]["status"] == "parsed"
    entry = job_logs(api_a)[0]
    assert entry["status"] == "succeeded"  # one of two files failed: the job went on
    page = api_a.get(f"{URL}/{rows['bomb.pdf']['id']}/pages/1")  # nor is it rendered by the web server
    assert page.status_code == 422 and "too large to show" in page.json()["detail"]
    print(f"\n[bomb] worker RSS after the job: +{grown_after / MB:.0f} MB; peak +{(peak or 0) / MB:.0f} MB")
    assert grown_after < 60 * MB
    if peak is not None:  # never held, not even for a moment
        assert peak < 100 * MB


def test_the_stream_check_finds_a_bomb_and_the_memory_cap_holds_one_that_slips_past(
    monkeypatch: Any,
) -> None:
    from dataclasses import replace

    from tenants.billparse import guard
    from tenants.billparse.extract import ParseHints

    bomb = bomb_pdf(300)
    assert oversized_stream(bomb)
    assert not oversized_stream(make_invoice("A", 3102)[0])
    # Were the stream check fooled, the child's address-space cap holds: the parse ends (here
    # pdfminer meets the cap inside zlib and reads the page as blank), and this process never
    # holds the inflated bytes.
    monkeypatch.setattr(guard, "oversized_stream", lambda data, limit=None: False)
    before = rss_bytes()
    peak_known = reset_peak_rss()
    result = parse_limited(bomb, hints=ParseHints(), limits=replace(LIMITS, memory_bytes=100 * MB))
    assert not result.ok and result.error
    assert rss_bytes() - before < 30 * MB
    if peak_known:
        assert (peak_rss_since(before) or 0) < 30 * MB
