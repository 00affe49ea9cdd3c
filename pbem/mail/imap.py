"""The game mailbox over IMAP (imapclient), plus an in-memory twin for fast tests.

Processing state lives in *where* a message is, never in flags (humans change ``\\Seen`` and
pymap drops keywords): INBOX holds what is still to do, ``Processed`` and ``Quarantine`` what
is done. Messages are fetched with ``BODY.PEEK[]`` (no ``\\Seen`` side effect), always by explicit
UID lists (imapclient 4.x rejects ``1:*``), and identified by (UIDVALIDITY, UID). IDLE is a
latency hint only: the caller re-syncs after every wake-up (notes C6, the IDLE race).
"""

from __future__ import annotations

import contextlib
import imaplib
import socket
import ssl as ssl_module
import threading
import time
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError

FETCH_BATCH = 100


@dataclass(frozen=True)
class Fetched:
    """One message still in the INBOX: its UID, the folder's UIDVALIDITY and the raw bytes."""

    uid: int
    uidvalidity: int
    raw: bytes


class ImapMailbox:
    """The game mailbox. Use as a context manager (connects and logs in on enter)."""

    def __init__(
        self,
        host: str,
        port: int,
        user: str,
        password: str,
        ssl: bool = False,
        folder: str = "INBOX",
        processed: str = "Processed",
        quarantine: str = "Quarantine",
        timeout: float = 30.0,
    ) -> None:
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.ssl = ssl
        self.folder = folder
        self.processed = processed
        self.quarantine = quarantine
        self.timeout = timeout
        self._client: IMAPClient | None = None
        self.uidvalidity: int | None = None

    # -- connection -------------------------------------------------------------------------
    def __enter__(self) -> ImapMailbox:
        self.connect()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def connect(self) -> None:
        context = ssl_module.create_default_context() if self.ssl else None
        client = IMAPClient(
            self.host, port=self.port, ssl=self.ssl, ssl_context=context, timeout=self.timeout
        )
        # imaplib writes literal and CRLF separately: avoid Nagle stalls
        client.socket().setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        client.login(self.user, self.password)
        self._client = client
        self._select()

    def close(self) -> None:
        client, self._client = self._client, None
        if client is None:
            return
        try:
            client.logout()
        except (IMAPClientError, OSError):
            with contextlib.suppress(OSError):
                client.shutdown()

    @property
    def client(self) -> IMAPClient:
        if self._client is None:
            raise RuntimeError("ImapMailbox is not connected (use it as a context manager)")
        return self._client

    def capabilities(self) -> set[str]:
        return {c.decode().upper() for c in self.client.capabilities()}

    def _select(self) -> int:
        info = self.client.select_folder(self.folder)
        self.uidvalidity = int(info[b"UIDVALIDITY"])
        return self.uidvalidity

    # -- folders ----------------------------------------------------------------------------
    def ensure_folders(self) -> None:
        """Create the Processed and Quarantine folders if they do not exist."""
        existing = {name for _, _, name in self.client.list_folders()}
        for name in (self.processed, self.quarantine):
            if name not in existing:
                try:
                    self.client.create_folder(name)
                except IMAPClientError as exc:  # created concurrently: fine
                    if name not in {n for _, _, n in self.client.list_folders()}:
                        raise RuntimeError(f"cannot create IMAP folder {name!r}: {exc}") from exc

    def folder_uids(self, folder: str) -> list[int]:
        """UIDs in another folder (for checks and tests); re-selects the INBOX afterwards."""
        try:
            self.client.select_folder(folder, readonly=True)
            return sorted(int(u) for u in self.client.search(["ALL"]))
        finally:
            self._select()

    # -- messages ---------------------------------------------------------------------------
    def fetch_new(self, limit: int | None = None) -> list[Fetched]:
        """Every message still in the INBOX, oldest UID first (at most *limit*)."""
        uidvalidity = self._select()  # fresh UIDVALIDITY (the folder may have been re-created)
        uids = sorted(int(u) for u in self.client.search(["ALL"]))
        if limit is not None:
            uids = uids[:limit]
        fetched: list[Fetched] = []
        for start in range(0, len(uids), FETCH_BATCH):
            batch = uids[start : start + FETCH_BATCH]
            data = self.client.fetch(batch, ["BODY.PEEK[]"])
            for uid in batch:
                item = data.get(uid)
                if item is None:  # expunged meanwhile by someone else
                    continue
                raw = item.get(b"BODY[]")
                if isinstance(raw, bytes):
                    fetched.append(Fetched(uid, uidvalidity, raw))
        return fetched

    def move(self, uid: int, folder: str) -> None:
        """Move one message out of the INBOX (UID MOVE; else COPY + \\Deleted + EXPUNGE)."""
        self.move_many([uid], folder)

    def move_many(self, uids: list[int], folder: str) -> None:
        """Move messages out of the INBOX in one command (one round trip for a batch).

        Another worker may have moved some of them already (Dovecot answers such a MOVE with
        ``NO [EXPUNGEISSUED]``): then the ones still here are moved one by one and the gone
        ones are skipped, so overlapping workers never fail on each other's moves.
        """
        if not uids:
            return
        try:
            self._move(uids, folder)
        except IMAPClientError:
            self.client.noop()  # take in the expunges the server reported
            still = set(self.client.search(["UID", ",".join(map(str, uids))]))
            for uid in uids:
                if uid in still:
                    with contextlib.suppress(IMAPClientError):
                        self._move([uid], folder)

    def _move(self, uids: list[int], folder: str) -> None:
        if "MOVE" in self.capabilities():
            self.client.move(uids, folder)
            return
        self.client.copy(uids, folder)
        self.client.add_flags(uids, [b"\\Deleted"], silent=True)
        if "UIDPLUS" in self.capabilities():
            self.client.uid_expunge(uids)
        else:
            self.client.expunge()

    def idle_wait(self, timeout: float) -> bool:
        """Wait in IDLE up to *timeout* seconds; True if the server reported any change.

        Changes that arrived just before IDLE only show up in the DONE response, so those
        count too. Callers must re-sync (``fetch_new``) after every return, True or False.
        Any other exception (`pbem serve`'s stop signal ends the wait by raising one) drops
        the connection: the exchange is in an unknown state, and a LOGOUT could wait for an
        answer up to the timeout.
        """
        if "IDLE" not in self.capabilities():
            time.sleep(min(timeout, 5.0))
            return True
        try:
            self.client.idle()
            try:
                responses = self._idle_changes(timeout)
            finally:
                done = self.client.idle_done()
        except (imaplib.IMAP4.abort, IMAPClientError, OSError):
            # A garbled or dropped IDLE exchange leaves the connection unusable: start a
            # fresh one and report a change, so the caller re-syncs (notes C6).
            self.close()
            self.connect()
            return True
        except BaseException:
            self._drop()
            raise
        return bool(responses) or bool(_changes(done[1]))

    def _drop(self) -> None:
        """Close the connection without a LOGOUT (nothing waits for the server)."""
        client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(OSError):
                client.shutdown()

    def _idle_changes(self, timeout: float) -> list[Any]:
        """Untagged responses that report a change, waiting up to ``timeout`` in all: a status
        response such as Dovecot's ``* OK Still here`` keep-alive is no change, so the wait
        goes on for the time left instead of waking the caller."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return []
            changes = _changes(self.client.idle_check(timeout=left))
            if changes:
                return changes


_STATUS = frozenset({b"OK", b"NO", b"BAD", b"PREAUTH", b"CAPABILITY"})


def _changes(responses: Any) -> list[Any]:
    """The responses that report a mailbox change (EXISTS, EXPUNGE, FETCH, RECENT, BYE ...)."""
    return [r for r in responses or () if not (isinstance(r, tuple) and r and r[0] in _STATUS)]


@dataclass
class _Folder:
    uidvalidity: int
    next_uid: int = 1
    messages: dict[int, bytes] = field(default_factory=dict)


class MemoryMailbox:
    """In-memory stand-in for :class:`ImapMailbox` (same methods); :meth:`deliver` adds mail."""

    def __init__(
        self,
        folder: str = "INBOX",
        processed: str = "Processed",
        quarantine: str = "Quarantine",
        uidvalidity: int = 1,
    ) -> None:
        self.folder = folder
        self.processed = processed
        self.quarantine = quarantine
        self.folders: dict[str, _Folder] = {folder: _Folder(uidvalidity)}
        self.uidvalidity: int | None = uidvalidity
        self.connected = False
        self._arrived = threading.Event()

    def __enter__(self) -> MemoryMailbox:
        self.connect()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def connect(self) -> None:
        self.connected = True

    def close(self) -> None:
        self.connected = False

    def deliver(self, raw: bytes, folder: str | None = None) -> int:
        """Append a message (like an MTA would); returns its UID."""
        box = self.folders.setdefault(folder or self.folder, _Folder(len(self.folders) + 1))
        uid = box.next_uid
        box.next_uid += 1
        box.messages[uid] = bytes(raw)
        if box is self.folders[self.folder]:
            self._arrived.set()
        return uid

    def ensure_folders(self) -> None:
        for name in (self.processed, self.quarantine):
            self.folders.setdefault(name, _Folder(len(self.folders) + 1))

    def folder_uids(self, folder: str) -> list[int]:
        return sorted(self.folders[folder].messages) if folder in self.folders else []

    def fetch_new(self, limit: int | None = None) -> list[Fetched]:
        box = self.folders[self.folder]
        self.uidvalidity = box.uidvalidity
        uids = sorted(box.messages)[:limit] if limit is not None else sorted(box.messages)
        return [Fetched(uid, box.uidvalidity, box.messages[uid]) for uid in uids]

    def move(self, uid: int, folder: str) -> None:
        """Move ``uid`` out of the INBOX; one another worker moved already is skipped."""
        if folder not in self.folders:
            raise RuntimeError(f"no such folder {folder!r} (call ensure_folders)")
        raw = self.folders[self.folder].messages.pop(uid, None)
        if raw is not None:
            self.deliver(raw, folder)

    def move_many(self, uids: list[int], folder: str) -> None:
        for uid in uids:
            self.move(uid, folder)

    def idle_wait(self, timeout: float) -> bool:
        """True at once if mail is waiting, else wait up to *timeout* for a delivery."""
        if self.folders[self.folder].messages:
            return True
        arrived = self._arrived.wait(timeout)
        self._arrived.clear()
        return arrived


Mailbox = ImapMailbox | MemoryMailbox
