"""An exclusive, non-blocking run lock (``flock``) so overlapping pollers never collide (C5).

The kernel drops the lock when the process exits or is killed, so there are no
stale lock files to clean up. `pbem poll` and `pbem serve` take the same lock.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

__all__ = ["Locked", "RunLock"]


class Locked(RuntimeError):
    """Another pbem worker holds the lock."""


class RunLock:
    """``with RunLock(path):`` holds an exclusive lock on ``path`` or raises `Locked`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def __enter__(self) -> RunLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise Locked(f"another pbem worker holds {self.path}") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
