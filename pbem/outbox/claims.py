"""Who claimed an outbox row, and whether that worker is provably dead (claims freed at once).

A worker claims outbox rows before sending them (`pbem.outbox.send.send_due`): their
``next_attempt_at`` moves a lease ahead (`pbem.outbox.send.CLAIM_LEASE`), so other workers leave
them alone. The claim names its claimant: this machine (host name, kernel boot id, PID
namespace), the process id and the process's start time. The next worker *on the same machine*
frees the claims of claimants that are provably dead: no such process, or a process of that id
that started at another time (the id was reused), so a killed worker's rows go out at once, not
when the lease ends. Anything it cannot prove (another machine sharing PostgreSQL, another boot
or PID namespace, a platform without /proc start times and a live id) keeps the lease.
"""

from __future__ import annotations

import contextlib
import functools
import os
import socket
from pathlib import Path

__all__ = ["claimant", "dead", "machine"]

_SEP = "|"
_cache: dict[int, str] = {}  # pid -> token (a forked worker gets its own)


def _read(path: str) -> str:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return ""


def _start_time(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (/proc/<pid>/stat, field 22); None
    when there is no such process (or it is a zombie); "" when /proc does not tell."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return None if Path("/proc/self/stat").exists() else _alive_or_none(pid)
    except OSError:
        return ""
    fields = stat.rpartition(")")[2].split()  # after the command name, which may hold spaces
    if len(fields) < 20 or fields[0] in ("Z", "X"):  # exited, waiting for its parent to reap
        return None
    return fields[19]


def _alive_or_none(pid: int) -> str | None:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except OSError:
        return ""
    return ""


@functools.cache
def machine() -> str:
    """This machine as far as process ids mean anything: host, boot, PID namespace."""
    pidns = ""
    with contextlib.suppress(OSError):
        pidns = str(os.stat("/proc/self/ns/pid").st_ino)
    boot = _read("/proc/sys/kernel/random/boot_id")
    return _SEP.join((socket.gethostname(), boot, pidns)).replace(" ", "")


def claimant() -> str:
    """This process's claimant token: ``host|boot|pidns|pid|start``."""
    pid = os.getpid()
    token = _cache.get(pid)
    if token is None:
        token = _cache[pid] = _SEP.join((machine(), str(pid), _start_time(pid) or ""))
    return token


def dead(token: str, here: str | None = None) -> bool:
    """True only when ``token``'s process is on this machine and provably gone."""
    m, _, rest = token.rpartition(_SEP)  # rest: the start time
    m, _, pid = m.rpartition(_SEP)
    if m != (here if here is not None else machine()) or not pid.isdigit():
        return False
    now = _start_time(int(pid))
    if now is None:
        return True
    return bool(rest) and bool(now) and now != rest  # the id reused by a later process
