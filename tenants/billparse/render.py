"""A page of a stored PDF as a PNG, for the review screen (the PDF itself is never shown inline)."""

from __future__ import annotations

import io

from core.errors import ApiError

MAX_SCALE = 3.0


def page_png(data: bytes, page: int, *, scale: float = 1.5) -> bytes:
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data)
    except Exception as exc:  # pdfium raises PdfiumError (and others) on damaged files
        raise ApiError(422, "This PDF cannot be shown: it is damaged.") from exc
    try:
        if page < 1 or page > len(pdf):
            raise ApiError(404, f"This document has {len(pdf)} page(s).")
        bitmap = pdf[page - 1].render(scale=min(max(scale, 0.5), MAX_SCALE))
        image = bitmap.to_pil()
        out = io.BytesIO()
        image.save(out, format="PNG", optimize=False)
        return out.getvalue()
    finally:
        pdf.close()
