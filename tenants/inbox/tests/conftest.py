from __future__ import annotations

from collections.abc import Iterator

import pytest

from tenants.inbox.tests.dovecot import Dovecot, dovecot_binary, dovecot_server

MAILBOX_USER = "ap@alpha.test"
MAILBOX_PASSWORD = "imap-secret-9"


@pytest.fixture(scope="session")
def dovecot_session() -> Iterator[Dovecot]:
    """A real IMAP server on loopback (Debian's dovecot-imapd; `make test` installs it)."""
    if dovecot_binary() is None:
        pytest.skip("dovecot is not installed (apt package dovecot-imapd): the IMAP tests need it")
    with dovecot_server({MAILBOX_USER: MAILBOX_PASSWORD}) as server:
        yield server


@pytest.fixture
def dovecot(dovecot_session: Dovecot) -> Dovecot:
    """The IMAP server with an empty mailbox (the database of each test starts empty too)."""
    dovecot_session.clear(MAILBOX_USER)
    return dovecot_session
