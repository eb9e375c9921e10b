"""Real PDFs for tests that upload one (every PDF upload is opened with pypdf: core.uploads)."""

from __future__ import annotations

import functools
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


@functools.cache
def bomb_pdf(inflated_mb: int = 300) -> bytes:
    """A decompression bomb: one page whose content stream is ``inflated_mb`` MB of zeros, deflated
    to well under 1 MB (compressed a megabyte at a time: the test never holds the inflated bytes)."""
    import zlib

    deflater = zlib.compressobj(9)
    zeros = bytes(1024 * 1024)
    packed = b"".join(deflater.compress(zeros) for _ in range(inflated_mb)) + deflater.flush()
    objects = [
        b"<</Type/Catalog/Pages 2 0 R>>",
        b"<</Type/Pages/Kids[3 0 R]/Count 1>>",
        b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Contents 4 0 R>>",
        b"<</Length %d/Filter/FlateDecode>>\nstream\n" % len(packed) + packed + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<</Size %d/Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)
