"""Document numbers: readable (SO-000123), per tenant, never reused, without gaps.

`next_number` bumps the kind's counter row with one upsert (`INSERT … ON CONFLICT DO UPDATE …
RETURNING`), which takes the row's lock until the caller's transaction ends. So the number belongs to
the document's own transaction: a rollback gives the number back (no gap), and a concurrent create
waits on the row and gets the next one (no duplicate). The first number of a kind is made by the same
statement, also safe under concurrency (ON CONFLICT waits for the other insert).

The lock is held until commit: keep the work between `next_number` and the commit short (number the
document last, just before its insert, when it does slow work first).
"""

from __future__ import annotations

from django.db import connection

from tenants.sequences.models import DocumentCounter

assert DocumentCounter._meta.db_table == "sequences_documentcounter"

# The table is DocumentCounter's (sequences_documentcounter); a literal, so no SQL is built at runtime.
_UPSERT = """
    INSERT INTO sequences_documentcounter (kind, last_number, updated_at) VALUES (%s, 1, now())
    ON CONFLICT (kind) DO UPDATE
        SET last_number = sequences_documentcounter.last_number + 1, updated_at = now()
    RETURNING last_number
"""


class NotInTransaction(RuntimeError):
    """Numbering outside a transaction would commit the number without its document."""


def next_value(kind: str) -> int:
    if not connection.in_atomic_block:
        raise NotInTransaction("next_number must be called inside the document's transaction.atomic().")
    with connection.cursor() as cur:
        cur.execute(_UPSERT, [kind])
        row = cur.fetchone()
    assert row is not None
    return int(row[0])


def next_number(kind: str, prefix: str = "SO-", width: int = 6) -> str:
    """The next number of `kind` in the current tenant, e.g. `SO-000123` (wider when it outgrows
    `width`). Call it inside the transaction that saves the document."""
    return f"{prefix}{next_value(kind):0{width}d}"


def peek(kind: str) -> int:
    """The last number handed out (0 when none), without taking it."""
    return DocumentCounter.objects.filter(kind=kind).values_list("last_number", flat=True).first() or 0
