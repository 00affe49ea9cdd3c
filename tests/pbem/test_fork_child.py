"""`pbem poll`'s sending process as a fork of the poll (`pbem.send_process.spawn` with a ``main``).

The fork inherits the poll's imported modules (no new interpreter: about a second of CPU per
poll less) and must leave everything else of the parent alone: output buffered before the fork
is written once; the parent's database connections work after the child is gone, whatever the
child does with its copies (they are /dev/null in the child, never finalised there); the run
lock is not held by a child outliving a killed poll; on SQLite the child's own connection holds
real locks (the parent's SQLite state is closed before the fork), so a mark it writes after the
poll died is not lost; the parent's signal handlers are not the child's; the child leaves with
its own exit status. Where forking is not safe (another thread runs, ``PBEM_SEND_FORK=0``), the
child is a fresh interpreter as before.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pbem import service
from pbem.send_process import can_fork
from pbem.worker.lock import Locked, RunLock
from tests.pbem.harness import Harness
from tests.pbem.mailtools import Capture, free_port, process_gone, wait_until
from tests.pbem.test_outbox_process import _message_ids, _Stall

ROOT = Path(__file__).resolve().parents[2]
linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork, /proc")

POLL = """
import contextlib, gc, os, signal, sys
from pathlib import Path
from sqlalchemy import text
from pbem import outbox_process
from pbem.config import Settings
from pbem.store.db import is_sqlite, make_engine
from pbem.worker.lock import RunLock
from pbem.mail import SmtpSender
from pbem.outbox_process import OutboxProcess

url, port, lock = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])


class Cycle:  # garbage of the parent, not yet collected at the fork
    def __del__(self):
        print("finalised in", os.getpid(), flush=True)


gc.disable()
cycle = Cycle()
cycle.me = cycle
del cycle
signal.signal(signal.SIGTERM, lambda *_: print("the parent's handler ran", flush=True))
db = make_engine(url)
held = None if is_sqlite(db) else db.connect()  # in use across the fork (the IMAP leader's)
if held is not None:
    held.execute(text("SELECT 1"))
serve = outbox_process._main


def main(fd, parent):
    dfl = signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    null = os.path.samestat(os.fstat(0), os.stat(os.devnull))
    print("child", os.getpid(), "SIGTERM default", dfl, "stdin null", null, flush=True)
    gc.collect()
    if held is not None:  # what finalising it here would do: say Terminate on its socket
        with contextlib.suppress(Exception):
            held.connection.dbapi_connection.close()
    return serve(fd, parent)


outbox_process._main = main
print("before the fork")  # buffered (stdout is a pipe) when the child is forked
settings = Settings(database_url=url, address="game@pbem.test", secret="test-secret")
with RunLock(lock):
    with OutboxProcess(db, settings, SmtpSender("127.0.0.1", port)) as pump:
        child = pump._proc
        print(type(child).__name__, child.pid)
    print("exit status", child.returncode, "sent", pump.stats.sent)
    with db.connect() as again:
        print("the parent's database", again.execute(text("SELECT 1")).scalar())
    if held is not None:
        print("the parent's connection", held.execute(text("SELECT 2")).scalar())
        held.close()
"""


def _buffered() -> dict[str, str]:
    """This environment, but stdout buffered when it is a pipe (as for cron's `pbem poll`)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def _poll(h: Harness, port: int, **env: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", POLL, h.settings.database_url, str(port), str(h.settings.lock_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**_buffered(), **env},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def queued(request: pytest.FixtureRequest, tmp_path: Path) -> Harness:
    """A harness whose new game's two welcome mails wait in the outbox."""
    if request.param == "postgres":  # skipped without PBEM_TEST_POSTGRES_URL
        url = request.getfixturevalue("empty_postgres")
        h = Harness(tmp_path, database_url=url)
        request.addfinalizer(h.db.dispose)
    else:
        h = Harness(tmp_path)
    service.new_game(h.db, h.settings, kennedy="k@players.test", nixon="n@players.test")
    return h


@linux
def test_the_poll_forks_its_sending_process_and_keeps_its_own_state(
    queued: Harness, smtp_capture: tuple[Capture, int]
) -> None:
    capture, port = smtp_capture
    out = _poll(queued, port)
    forked = [line for line in out if line.startswith("ForkedChild ")]
    assert forked, out
    child = int(forked[0].split()[1])
    assert f"child {child} SIGTERM default True stdin null True" in out
    assert out.count("before the fork") == 1  # flushed before the fork, not again by the child
    assert "exit status 0 sent 2" in out
    assert "the parent's database 1" in out
    if not queued.settings.database_url.startswith("sqlite"):
        assert "the parent's connection 2" in out  # its socket never saw the child's close
    assert f"finalised in {child}" not in out  # the parent's garbage is not the child's
    assert "the parent's handler ran" not in out
    rows = queued.outbox()
    assert all(r.status == "sent" and r.attempts == 1 for r in rows)
    assert sorted(_message_ids(capture)) == sorted(r.message_id.encode() for r in rows)


@linux
def test_without_fork_the_child_is_a_fresh_interpreter(
    queued: Harness, smtp_capture: tuple[Capture, int]
) -> None:
    capture, port = smtp_capture
    out = _poll(queued, port, PBEM_SEND_FORK="0")
    assert any(line.startswith("Popen ") for line in out)
    assert not any(line.startswith("child ") for line in out)  # `main` is not run in it
    assert "exit status 0 sent 2" in out and out.count("before the fork") == 1
    assert len(capture.messages) == 2


def test_no_fork_while_another_thread_runs() -> None:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not can_fork()
    finally:
        stop.set()
        thread.join()


KILLED = """
import sys, time
from pathlib import Path
from pbem.config import Settings
from pbem.store.db import make_engine
from pbem.worker.lock import RunLock
from pbem.mail import SmtpSender
from pbem.outbox_process import OutboxProcess

url, port, lock = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
settings = Settings(database_url=url, address="game@pbem.test", secret="test-secret")
with RunLock(lock):
    pump = OutboxProcess(make_engine(url), settings, SmtpSender("127.0.0.1", port))
    pump.__enter__()  # rows are due (read on this process's connection): the child starts
    print(type(pump._proc).__name__, pump._proc.pid, flush=True)
    time.sleep(120)
"""


@linux
def test_a_killed_poll_leaves_the_run_lock_free_and_its_child_marks_what_it_sent(
    tmp_path: Path,
) -> None:
    """SIGKILL of the poll while its forked child waits for the server's reply to a mail's
    end of data: the next poll can take the run lock at once (the child does not hold the
    lock file's open description), and the child's mark of that mail, written after the poll
    died, is in the database even though another process checkpointed the WAL meanwhile (the
    child's connection held a real lock: nothing of the poll's SQLite state was inherited)."""
    from aiosmtpd.controller import Controller

    h = Harness(tmp_path)
    service.new_game(h.db, h.settings, kennedy="k@players.test", nixon="n@players.test")
    h.db.dispose()  # this process holds no connection now: only the probe below
    lock = tmp_path / "lock"
    capture = _Stall("DATA")
    controller = Controller(capture, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        parent = subprocess.Popen(
            [
                sys.executable,
                "-c",
                KILLED,
                h.settings.database_url,
                str(controller.port),
                str(lock),
            ],
            stdout=subprocess.PIPE,
            cwd=ROOT,
        )
        assert parent.stdout is not None
        kind, pid = parent.stdout.readline().split()
        child = int(pid)
        assert kind == b"ForkedChild"
        # the whole first mail is with the server, its reply stalls
        assert wait_until(lambda: capture.waiting, 60)
        with pytest.raises(Locked):
            RunLock(lock).__enter__()  # the poll holds it
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        assert not process_gone(child)  # waiting for the reply, to mark the mail sent
        with RunLock(lock):  # the next poll may start at once
            pass
        probe = sqlite3.connect(h.settings.database_url.removeprefix("sqlite:///"))
        probe.execute("SELECT count(*) FROM outboxmessage").fetchall()
        probe.close()  # the last connection a process holds: checkpoints, if nobody reads
        assert not process_gone(child)
        assert wait_until(lambda: process_gone(child), 30, 0.02)
    finally:
        controller.stop()
    first, second = h.outbox()
    assert _message_ids(capture) == [first.message_id.encode()]  # delivered once
    assert first.status == "sent" and first.attempts == 1  # its mark was kept
    assert second.status == "pending" and second.claimed_by is None and second.attempts == 0


EXITS = """
import os, signal, sys
from multiprocessing.connection import Connection
from pbem.send_process import spawn


def returns(fd, parent):
    Connection(fd).recv()  # what `spawn` sends first
    return 3


def raises(fd, parent):
    Connection(fd).recv()
    raise ValueError("boom")


def exits(fd, parent):
    Connection(fd).recv()
    sys.exit(5)


def killed(fd, parent):
    Connection(fd).recv()
    os.kill(os.getpid(), signal.SIGTERM)  # the parent's handler is not the child's
    return 0


def ignored(fd, parent):
    Connection(fd).recv()
    return 0 if signal.getsignal(signal.SIGINT) == signal.SIG_IGN else 9


signal.signal(signal.SIGTERM, lambda *_: print("the parent's handler ran", flush=True))
for main in (returns, raises, exits, killed, ignored):
    if main is ignored:  # as under nohup: an ignored SIGINT stays ignored (exec keeps it too)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    proc, conn = spawn("pbem.outbox_process", None, main)
    print(main.__name__, type(proc).__name__, proc.wait(30), flush=True)
    conn.close()
"""


@linux
def test_a_forked_child_leaves_with_its_own_exit_status() -> None:
    done = subprocess.run(
        [sys.executable, "-c", EXITS],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=_buffered(),
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "returns ForkedChild 3",
        "raises ForkedChild 1",
        "exits ForkedChild 5",
        f"killed ForkedChild {-signal.SIGTERM}",
        "ignored ForkedChild 0",
    ]
    assert "ValueError: boom" in done.stderr and done.stderr.count("Traceback") == 1


def test_a_poll_that_cannot_fork_keeps_its_database_connections(
    tmp_path: Path, smtp_capture: tuple[Capture, int]
) -> None:
    """The SQLite pool is closed before a fork only: here (the SMTP server's thread runs in
    this process) the child is a fresh interpreter and the poll's connections stay open."""
    from sqlalchemy import event

    from pbem.mail import SmtpSender
    from pbem.outbox_process import OutboxProcess

    capture, port = smtp_capture
    h = Harness(tmp_path)
    service.new_game(h.db, h.settings, kennedy="k@players.test", nixon="n@players.test")
    closed: list[object] = []
    event.listen(h.db, "close", lambda conn, _record: closed.append(conn))
    with OutboxProcess(h.db, h.settings, SmtpSender("127.0.0.1", port)) as pump:
        assert isinstance(pump._proc, subprocess.Popen)
    assert closed == [] and len(capture.messages) == 2
