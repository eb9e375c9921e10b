"""A throwaway Dovecot IMAP server on loopback for the tests: its own config, passwd-file users and
maildirs in a temporary folder, a free port, plain IMAP (loopback only). Works as root or not.

    with dovecot_server(users={"ap@alpha.test": "secret"}) as server:
        server.port, server.append("ap@alpha.test", raw_bytes)

`python -m tenants.inbox.tests.dovecot` starts one and prints its port (for the browser tests).
"""

from __future__ import annotations

import contextlib
import grp
import imaplib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

BINARY_CANDIDATES = ("dovecot", "/usr/sbin/dovecot")


def dovecot_binary() -> str | None:
    for name in BINARY_CANDIDATES:
        found = shutil.which(name) or (name if os.path.isfile(name) and os.access(name, os.X_OK) else None)
        if found:
            return found
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Dovecot:
    port: int
    root: Path
    users: dict[str, str]

    def append(self, user: str, raw: bytes, folder: str = "INBOX") -> None:
        """APPEND a message over IMAP, as a mail server delivering it would."""
        client = imaplib.IMAP4("127.0.0.1", self.port)
        try:
            client.login(user, self.users[user])
            typ, data = client.append(folder, "", imaplib.Time2Internaldate(time.time()), raw)
            if typ != "OK":
                raise RuntimeError(f"APPEND failed: {data!r}")
        finally:
            with contextlib.suppress(Exception):
                client.logout()

    def last_uid(self, user: str, folder: str = "INBOX") -> int:
        client = imaplib.IMAP4("127.0.0.1", self.port)
        try:
            client.login(user, self.users[user])
            _typ, data = client.status(folder, "(UIDNEXT)")
            return int(data[0].decode().split("UIDNEXT")[1].strip(" )")) - 1
        finally:
            with contextlib.suppress(Exception):
                client.logout()

    def clear(self, user: str, folder: str = "INBOX") -> None:
        """Delete every message of the folder (each test starts from an empty mailbox)."""
        client = imaplib.IMAP4("127.0.0.1", self.port)
        try:
            client.login(user, self.users[user])
            _typ, count = client.select(folder)
            if int(count[0] or 0) == 0:
                return
            client.store("1:*", "+FLAGS.SILENT", r"(\Deleted)")
            client.expunge()
        finally:
            with contextlib.suppress(Exception):
                client.logout()


def _config(root: Path, port: int, user: str, group: str, login_user: str) -> str:
    return f"""
protocols = imap
listen = 127.0.0.1
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
info_log_path = {root}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
default_internal_user = {user}
default_internal_group = {group}
default_login_user = {login_user}
first_valid_uid = 0
first_valid_gid = 0
mail_location = maildir:{root}/mail/%u
mail_uid = {user}
mail_gid = {group}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={user} gid={group} home={root}/mail/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
  chroot =
}}
service anvil {{
  chroot =
}}
service auth {{
  unix_listener auth-userdb {{
    mode = 0666
  }}
}}
service stats {{
  unix_listener stats-writer {{
    mode = 0666
  }}
}}
"""


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


@contextlib.contextmanager
def dovecot_server(users: dict[str, str] | None = None) -> Iterator[Dovecot]:
    binary = dovecot_binary()
    if binary is None:
        raise FileNotFoundError("dovecot is not installed (Debian package dovecot-imapd)")
    users = dict(users or {"ap@alpha.test": "imap-secret"})
    root = Path(tempfile.mkdtemp(prefix="fd-dovecot-"))
    user = pwd.getpwuid(os.getuid()).pw_name
    group = grp.getgrgid(os.getgid()).gr_name
    login_user = user
    for sub in ("run", "state", "mail"):
        (root / sub).mkdir()
    if os.geteuid() == 0:
        # Dovecot runs no mail or login process as root: use the users its Debian package made.
        user = "dovecot"
        group = grp.getgrgid(pwd.getpwnam(user).pw_gid).gr_name
        login_user = "dovenull" if _user_exists("dovenull") else "nobody"
        root.chmod(0o755)
        os.chown(root / "mail", pwd.getpwnam(user).pw_uid, pwd.getpwnam(user).pw_gid)
    (root / "passwd").write_text("".join(f"{u}:{{PLAIN}}{p}::::::\n" for u, p in users.items()))
    port = free_port()
    conf = root / "dovecot.conf"
    conf.write_text(_config(root, port, user, group, login_user))
    proc = subprocess.Popen(
        [binary, "-F", "-c", str(conf)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 15
        while True:
            if proc.poll() is not None:
                err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
                log = (root / "dovecot.log").read_text() if (root / "dovecot.log").exists() else ""
                raise RuntimeError(f"dovecot exited: {err}\n{log[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
                    if s.recv(100).startswith(b"* OK"):
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("dovecot did not start within 15 s")
            time.sleep(0.1)
        yield Dovecot(port=port, root=root, users=users)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)
        if proc.stderr:
            proc.stderr.close()
        shutil.rmtree(root, ignore_errors=True)


def main() -> int:
    """Serve until stopped: prints `port=<n>` (users from argv as user:password)."""
    users = dict(arg.split(":", 1) for arg in sys.argv[1:]) or None
    with dovecot_server(users) as server:
        print(f"port={server.port}", flush=True)
        stopping = False

        def stop(*_: object) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        while not stopping:
            time.sleep(0.2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
