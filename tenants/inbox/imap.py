"""Talking IMAP (imap-tools): connect and log in, with the server's answers turned into sentences
an office user can act on."""

from __future__ import annotations

import imaplib
import ssl
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass

from imap_tools import BaseMailBox, MailBox, MailBoxStartTls, MailBoxUnencrypted
from imap_tools.errors import ImapToolsError, MailboxLoginError

TIMEOUT_SECONDS = 30


@dataclass(frozen=True)
class Settings:
    host: str
    port: int
    security: str  # ssl | starttls | none
    username: str
    password: str
    folder: str = "INBOX"


class LoginRefused(Exception):
    """The server refused the user name or password: retrying soon will not help."""


class Unreachable(Exception):
    """The server could not be reached or talked to (DNS, refused connection, TLS, timeout)."""


def _server_text(exc: BaseException) -> str:
    text = str(exc)
    for marker in ("[AUTHENTICATIONFAILED]", "Authentication failed", "LOGIN failed"):
        if marker.lower() in text.lower():
            return marker.strip("[]")
    return text[:300]


@contextmanager
def session(cfg: Settings) -> Iterator[BaseMailBox]:
    """A logged-in mailbox with its folder selected; raises LoginRefused or Unreachable."""
    where = f"{cfg.host}:{cfg.port}"
    try:
        box: BaseMailBox
        if cfg.security == "ssl":
            box = MailBox(cfg.host, cfg.port, timeout=TIMEOUT_SECONDS)
        elif cfg.security == "starttls":
            box = MailBoxStartTls(cfg.host, cfg.port, timeout=TIMEOUT_SECONDS)
        else:
            box = MailBoxUnencrypted(cfg.host, cfg.port, timeout=TIMEOUT_SECONDS)
    except (OSError, ssl.SSLError, imaplib.IMAP4.error, ImapToolsError) as exc:
        raise Unreachable(f"Cannot reach the mail server {where}: {exc}") from exc
    try:
        try:
            box.login(cfg.username, cfg.password, initial_folder=cfg.folder or "INBOX")
        except MailboxLoginError as exc:
            raise LoginRefused(
                f"The mail server {where} refused the login of {cfg.username}: {_server_text(exc)}. "
                "Check the user name and password in the mailbox settings."
            ) from exc
        except imaplib.IMAP4.error as exc:
            if "login" in str(exc).lower() or "auth" in str(exc).lower():
                raise LoginRefused(
                    f"The mail server {where} refused the login of {cfg.username}: {_server_text(exc)}."
                ) from exc
            raise Unreachable(f"The mail server {where} answered with an error: {exc}") from exc
        except ImapToolsError as exc:  # e.g. the folder cannot be selected
            raise Unreachable(f"The mail server {where} answered with an error: {exc}") from exc
        except (TimeoutError, OSError, ssl.SSLError) as exc:
            raise Unreachable(f"Cannot talk to the mail server {where}: {exc}") from exc
        yield box
    finally:
        try:
            box.logout()
        except Exception:  # already closed or never logged in: nothing to do
            with suppress(Exception):
                box.client.shutdown()
