"""SQLite write turns between processes (`pbem.process_turns`): a short writer in one process
gets the next turn during another process's run of back-to-back transactions.

`pbem poll` applies a backlog one mail per write transaction while its sending process (a
fork) marks each sent mail in a short one. SQLite's busy handler retries with growing sleeps
and missed the poll's short gaps, so the sending process sat behind the whole backlog (issue
14, benchmark 2: a third of its life waiting for the lock, the reports sent after the mails
were applied instead of during).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from pbem import process_turns as pt
from pbem.store.db import make_engine, transaction

pytestmark = pytest.mark.skipif(pt.fcntl is None, reason="POSIX record locks only")

ROOT = Path(__file__).resolve().parents[2]

LONG_WRITER = """
import sys, time
from sqlalchemy import text
from pbem.store.db import make_engine, transaction
db = make_engine(sys.argv[1])
for n in range(int(sys.argv[2])):
    with transaction(db) as s:
        s.execute(text("INSERT INTO log VALUES ('long', :n)"), {"n": n})
        if n == 0:
            print("holding", flush=True)
            time.sleep(0.3)  # the other process arrives while this one holds the lock
        else:
            time.sleep(0.03)
"""

HOLDER = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.lockf(fd, fcntl.LOCK_EX, 1, int(sys.argv[2]))
print("holding", flush=True)
time.sleep(600)
"""


def _python(code: str, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-c", code, *args], env=env, stdout=subprocess.PIPE, text=True
    )


def _wait_holding(proc: subprocess.Popen[str]) -> None:
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "holding", "the other process did not start"


def _turn_seen_from_another_process(db_file: Path) -> str:
    """ "free" or "taken": the turn byte, tried (without waiting) by a process of its own."""
    probe = _python(
        "import fcntl, os, sys\n"
        "fd = os.open(sys.argv[1], os.O_RDWR)\n"
        "try:\n    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, 1); print('free')\n"
        "except OSError:\n    print('taken')\n",
        f"{db_file}-turns",
    )
    out, _ = probe.communicate(timeout=60)
    return out.strip()


def _log(db_file: Path) -> list[str]:
    db = make_engine(f"sqlite:///{db_file}")
    with db.connect() as conn:
        who = [r.who for r in conn.execute(text("SELECT who FROM log ORDER BY rowid"))]
    db.dispose()
    return who


def _new_log(db_file: Path) -> None:
    db = make_engine(f"sqlite:///{db_file}")
    with db.begin() as conn:
        conn.execute(text("CREATE TABLE log (who TEXT, n INTEGER)"))
    db.dispose()


def test_a_short_writer_in_another_process_gets_the_next_turn(tmp_path: Path) -> None:
    db_file = tmp_path / "turns.db"
    _new_log(db_file)
    long_writer = _python(LONG_WRITER, f"sqlite:///{db_file}", "20")
    try:
        _wait_holding(long_writer)
        db = make_engine(f"sqlite:///{db_file}")
        with transaction(db) as s:  # the sending process marking a mail sent
            s.execute(text("INSERT INTO log VALUES ('short', 0)"))
        db.dispose()
        assert long_writer.wait(60) == 0
    finally:
        long_writer.kill()
        long_writer.wait()
    order = _log(db_file)
    assert len(order) == 21
    assert order.index("short") == 1, f"the short write waited for {order.index('short')} others"


def test_a_writer_that_cannot_have_its_turn_goes_on_without_it(tmp_path: Path) -> None:
    """A turn held by a process that is not writing (stuck, or not a pbem process) delays a
    writer by the timeout at most; SQLite's own lock still decides, as without turns."""
    db_file = tmp_path / "stuck.db"
    _new_log(db_file)
    holder = _python(HOLDER, f"{db_file}-turns", str(pt.TURN))
    try:
        _wait_holding(holder)
        turns = pt.process_turns(str(db_file))
        assert turns is not None
        started = time.monotonic()
        assert turns.acquire(0.05) is False
        assert time.monotonic() - started < 5
        turns.release()  # nothing was taken: nothing to give back
        assert turns.acquire(0.05) is False  # the queue byte was let go: asking again works
    finally:
        holder.kill()
        holder.wait()
    assert turns.acquire(1.0) is True  # a killed holder's record locks die with it
    turns.release()


def test_a_killed_process_never_leaves_a_turn_taken(tmp_path: Path) -> None:
    db_file = tmp_path / "killed.db"
    _new_log(db_file)
    for byte in (pt.QUEUE, pt.TURN):
        holder = _python(HOLDER, f"{db_file}-turns", str(byte))
        _wait_holding(holder)
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait()
    db = make_engine(f"sqlite:///{db_file}")
    with transaction(db) as s:
        s.execute(text("INSERT INTO log VALUES ('after', 0)"))
    db.dispose()
    assert _log(db_file) == ["after"]


def test_nested_turns_count_and_only_the_outermost_gives_the_turn_back(tmp_path: Path) -> None:
    db_file = tmp_path / "nested.db"
    turns = pt.process_turns(str(db_file))
    assert turns is not None
    assert turns.acquire(1.0) and turns.acquire(1.0)
    turns.release()
    assert _turn_seen_from_another_process(db_file) == "taken"  # one acquire not released
    turns.release()
    assert _turn_seen_from_another_process(db_file) == "free"


def test_one_file_has_one_turns_object_per_process_whatever_its_name(tmp_path: Path) -> None:
    db_file = tmp_path / "named.db"
    (tmp_path / "link").symlink_to(tmp_path)
    assert pt.process_turns(str(db_file)) is pt.process_turns(str(tmp_path / "link" / "named.db"))
    assert pt.process_turns(":memory:") is None
    assert pt.process_turns(None) is None


def test_no_turns_where_the_file_cannot_be_made(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "x.db"
    assert pt.process_turns(str(missing)) is None


def test_a_look_at_the_turn_sees_another_process_and_keeps_nothing(tmp_path: Path) -> None:
    """`taken_elsewhere` (the sending process asks before a mark that can wait): True while
    another process holds the turn or queues for it, False while this process holds it, and
    the look itself takes nothing from anyone."""
    db_file = tmp_path / "look.db"
    turns = pt.process_turns(str(db_file))
    assert turns is not None
    assert turns.taken_elsewhere() is False
    for byte in (pt.TURN, pt.QUEUE):
        holder = _python(HOLDER, f"{db_file}-turns", str(byte))
        try:
            _wait_holding(holder)
            assert turns.taken_elsewhere() is True
            assert turns.taken_elsewhere() is True  # the holder still holds it
            assert turns.acquire(0.05) is False
        finally:
            holder.kill()
            holder.wait()
    assert turns.acquire(1.0) is True
    try:
        assert turns.taken_elsewhere() is False  # ours: and looking did not let it go
        assert _turn_seen_from_another_process(db_file) == "taken"
    finally:
        turns.release()
    assert turns.taken_elsewhere() is False
