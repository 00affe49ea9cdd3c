"""CPU time spent by the mail servers (Dovecot + Postfix) of one stack, read from /proc.

The mail benchmarks compare `pbem poll` with the *wire limit*; on a machine with few cores the
servers' own CPU work is part of what both share. `stack_cpu(state_dir)` is the CPU seconds so
far of every process of the stack whose files live in ``state_dir`` (the MAILSTACK_DIR of
`scripts/mailstack.sh`): its two master processes (Dovecot's from ``dovecot.pid``, Postfix's
``master`` from its spool's pid file), with the CPU of the children they have reaped, and every
live descendant. Read it
before and after a run; the difference is what the servers spent on it (a child that exits
and is reaped in between is counted through its parent). Linux only; elsewhere ``None``.
"""

from __future__ import annotations

import os
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: int) -> tuple[int, list[int]] | None:
    """(parent pid, [utime, stime, cutime, cstime] in ticks) of a process, or None if gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2 :].split()  # after "pid (comm) "
    return int(fields[1]), [int(x) for x in fields[11:15]]


def _masters(state_dir: Path) -> list[int]:
    pids = []
    for name in ("dovecot.pid", "postfix/spool/pid/master.pid"):
        try:
            pids.append(int((state_dir / name).read_text().strip()))
        except (OSError, ValueError):
            continue
    return pids


def stack_cpu(state_dir: str | None) -> float | None:
    """CPU seconds (user + system) used so far by the stack living in ``state_dir``."""
    if not state_dir or not Path("/proc/self/stat").exists():
        return None
    procs = {
        pid: st for pid in map(int, filter(str.isdigit, os.listdir("/proc"))) if (st := _stat(pid))
    }
    roots = [pid for pid in _masters(Path(state_dir)) if pid in procs]
    if not roots:
        return None
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in procs.items():
        children.setdefault(parent, []).append(pid)
    seen: set[int] = set()
    ticks = 0
    todo = list(roots)
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        utime, stime, cutime, cstime = procs[pid][1]
        ticks += utime + stime
        if pid in roots:  # the reaped children of a master; a live child's own reaped ones are
            ticks += cutime + cstime  # counted when it exits and is reaped in turn
        todo.extend(children.get(pid, []))
    return ticks / TICKS


def machine_busy() -> tuple[float, float] | None:
    """(busy, all) CPU seconds of the whole machine since boot, every core (/proc/stat): the
    difference over a run says how many cores were busy, whoever used them."""
    try:
        first = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    except OSError:
        return None
    ticks = [int(x) for x in first[1:]]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle + iowait
    total = sum(ticks[:8])  # user nice system idle iowait irq softirq steal (guest is in user)
    return (total - idle) / TICKS, total / TICKS
