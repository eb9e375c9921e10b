"""Real PDFs for tests that upload one (every PDF upload is opened with pypdf: core.uploads)."""

from __future__ import annotations

import io


def tiny_pdf(pages: int = 1) -> bytes:
    """A small, valid PDF of blank Letter pages (pypdf's writer: a real xref and trailer)."""
    from pypdf import PdfWriter

    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(width=612, height=792)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


# A file that starts like a PDF and is junk after it (issue 23: 109 bytes accepted as an attachment).
JUNK_PDF = b"%PDF-1.7\n" + bytes(range(100))
