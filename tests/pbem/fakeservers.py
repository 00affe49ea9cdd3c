"""Misbehaving servers on 127.0.0.1 for the outage tests: a socket that says the wrong thing.

* `SilentServer`: accepts connections and never says a word (an SMTP server hanging).
* `ScriptedServer`: sends a banner, then answers each line with a function of it (a garbage
  IMAP banner, an IMAP server refusing every password).

Each runs in a daemon thread, listens on a free loopback port and counts its connections;
use them as context managers (the listening socket is closed on exit).
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from types import TracebackType


class _Server:
    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port: int = self.sock.getsockname()[1]
        self.connections = 0
        self._open: list[socket.socket] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)

    def __enter__(self) -> _Server:
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        self.sock.close()
        for conn in self._open:
            conn.close()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            self._open.append(conn)
            threading.Thread(target=self.handle, args=(conn,), daemon=True).start()

    def handle(self, conn: socket.socket) -> None:
        raise NotImplementedError


class SilentServer(_Server):
    """Accepts and says nothing, ever."""

    def handle(self, conn: socket.socket) -> None:
        self._stop.wait()


class ScriptedServer(_Server):
    """Sends ``banner``; then for every line received sends ``answer(line)`` (None: say nothing)."""

    def __init__(self, banner: bytes, answer: Callable[[bytes], bytes | None]) -> None:
        super().__init__()
        self.banner = banner
        self.answer = answer

    def handle(self, conn: socket.socket) -> None:
        try:
            conn.sendall(self.banner)
            buf = b""
            while not self._stop.is_set():
                data = conn.recv(4096)
                if not data:
                    return
                buf += data
                while b"\r\n" in buf:
                    line, buf = buf.split(b"\r\n", 1)
                    reply = self.answer(line)
                    if reply:
                        conn.sendall(reply)
        except OSError:
            return


def imap_refusing_logins() -> ScriptedServer:
    """An IMAP server that answers every LOGIN with NO [AUTHENTICATIONFAILED]."""

    def answer(line: bytes) -> bytes | None:
        tag, _, rest = line.partition(b" ")
        verb = rest.split(b" ", 1)[0].upper()
        if verb == b"CAPABILITY":
            return b"* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n" + tag + b" OK done\r\n"
        if verb == b"LOGOUT":
            return b"* BYE\r\n" + tag + b" OK bye\r\n"
        return tag + b" NO [AUTHENTICATIONFAILED] Authentication failed.\r\n"

    return ScriptedServer(b"* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] ready\r\n", answer)


def garbage_banner() -> ScriptedServer:
    """Something that is not an IMAP server at all."""
    return ScriptedServer(b"SSH-2.0-OpenSSH_9.2\r\n", lambda _: b"Protocol mismatch.\r\n")
