"""SQLite write turns (`pbem.store.db.WriteTurns`): threads of one process write in arrival order.

`pbem poll` applies a backlog in back-to-back write transactions while its outbox pump marks
each sent mail in a short one of its own. SQLite's busy handler retries with growing sleeps,
so without turns the pump missed the short gaps between the poll's transactions and fell
behind until the backlog was done (issue 14: most of `bench_mail`'s gap at the end of a poll).
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from sqlalchemy import text

from pbem.store.db import WriteTurns, make_engine, transaction


def _wait_for(condition: object, what: str, limit: float = 30.0) -> None:
    deadline = time.monotonic() + limit
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.001)


def test_a_short_writer_gets_the_next_turn_during_a_run_of_long_transactions(
    tmp_path: Path,
) -> None:
    db = make_engine(f"sqlite:///{tmp_path / 'turns.db'}")
    with db.begin() as conn:
        conn.execute(text("CREATE TABLE log (who TEXT, n INTEGER)"))
    started = threading.Event()
    long_done: list[int] = []

    def long_writer() -> None:  # the poll: ten transactions back to back
        for n in range(10):
            with transaction(db) as s:
                s.execute(text("INSERT INTO log VALUES ('long', :n)"), {"n": n})
                if n == 0:
                    started.set()
                    time.sleep(0.05)  # the short writer arrives while this one holds the lock
            long_done.append(n)

    thread = threading.Thread(target=long_writer)
    thread.start()
    assert started.wait(30)
    with transaction(db) as s:  # the pump marking a mail sent
        s.execute(text("INSERT INTO log VALUES ('short', :n)"), {"n": len(long_done)})
    thread.join(60)
    with db.connect() as conn:
        order = [r.who for r in conn.execute(text("SELECT who FROM log ORDER BY rowid"))]
    assert order.index("short") == 1, f"the short write waited for {order.index('short')} others"
    db.dispose()


def test_turns_are_first_come_first_served_and_nest_in_one_thread() -> None:
    turns = WriteTurns()
    assert turns.acquire(1) and turns.acquire(1)  # a nested write of the same thread
    got: list[str] = []

    def waiter(name: str) -> None:
        assert turns.acquire(30)
        got.append(name)
        turns.release()

    a = threading.Thread(target=waiter, args=("a",))
    a.start()
    _wait_for(lambda: len(turns._waiting) == 1, "a to queue")
    b = threading.Thread(target=waiter, args=("b",))
    b.start()
    _wait_for(lambda: len(turns._waiting) == 2, "b to queue")
    turns.release()
    assert got == []  # still held: one release per acquire
    turns.release()
    a.join(30)
    b.join(30)
    assert got == ["a", "b"]


def test_a_turn_not_given_in_time_lets_the_writer_go_on() -> None:
    """A bounded wait: past it SQLite's own lock decides, as without turns."""
    turns = WriteTurns()
    assert turns.acquire(1)
    result: list[bool] = []
    t = threading.Thread(target=lambda: result.append(turns.acquire(0.01)))
    t.start()
    t.join(30)
    assert result == [False] and not turns._waiting
    turns.release()
    assert turns.acquire(0.01)  # free again
