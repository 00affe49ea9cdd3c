"""Every database failure ends the pass with its exit status and one line; nothing is lost.

Issue 29: a SQLite database locked for longer than the busy timeout, a full disk (a file size
limit), a read-only database and a stopped PostgreSQL, each made to happen for real. In each
case `pbem poll` prints one line on stderr (no traceback) and exits 4 (it may be gone by the
next run) or 3 (an operator must act); every mail is still in the INBOX, and the next poll,
once the cause is gone, applies every one of them.
"""

from __future__ import annotations

import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlmodel import Session, select

from pbem.cli import cli
from pbem.cli.app import EXIT_ATTENTION, EXIT_UNREACHABLE
from pbem.config import Settings
from pbem.pipeline import runner
from pbem.store import db as store_db
from pbem.store.models import InboundMessage, Move
from pbem.worker import intake
from tests.pbem.harness import Harness
from tests.pbem.mailtools import MailServer, free_port

ROOT = Path(__file__).resolve().parents[2]
MAILS = 3  # mails waiting when the database fails: a move, and two questions answered


def _game(folder: Path, database_url: str = "", settings: Settings | None = None) -> Harness:
    h = Harness(folder, database_url=database_url)
    if settings is not None:  # the game's mailbox on a real IMAP server
        h.settings = settings
    h.new_game(seed=2)  # Kennedy decides first
    return h


def _waiting(h: Harness) -> list[bytes]:
    """MAILS mails: Kennedy's move, and Nixon's 'status' and 'help' (answered, no move)."""
    return [
        h.reply_bytes("kennedy", h.legal("kennedy")[0]),
        h.reply_bytes("nixon", "status"),
        h.reply_bytes("nixon", "help"),
    ]


def _env(h: Harness) -> dict[str, str]:
    s = h.settings
    return {
        "PBEM_DATABASE_URL": s.database_url,
        "PBEM_ADDRESS": s.address,
        "PBEM_SECRET": s.secret,
        "PBEM_IMAP_SSL": "false",
        "PBEM_SMTP_TLS": "false",
        "PBEM_AUTHSERV_ID": "mx.pbem.test",  # else poll warns that sender authentication is off
    }


def _poll(h: Harness, monkeypatch: pytest.MonkeyPatch) -> Result:
    monkeypatch.setattr(intake, "open_mailbox", lambda _settings: h.inbox)
    return CliRunner().invoke(cli, ["poll", "--no-send"], env=_env(h))


def _one_line(text: str) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


def _moves(h: Harness) -> int:
    with Session(h.db) as s:
        return len(s.exec(select(Move)).all())


def _outcomes(h: Harness) -> list[str]:
    with Session(h.db) as s:
        return sorted(r.outcome for r in s.exec(select(InboundMessage)))


@pytest.fixture
def waiting(tmp_path: Path) -> Harness:
    """A game on SQLite with MAILS mails in its INBOX."""
    h = _game(tmp_path)
    for raw in _waiting(h):
        h.inbox.deliver(raw)
    return h


def _applied_after(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The next poll, the cause gone: every waiting mail handled once, the INBOX empty."""
    out = _poll(h, monkeypatch)
    assert out.exit_code == 0, out.output + out.stderr
    assert out.stdout.startswith("in: 2 answered, 1 applied"), out.output
    assert h.inbox.folder_uids("INBOX") == [] and len(h.inbox.folder_uids("Processed")) == MAILS
    assert _moves(h) == 1 and _outcomes(h) == ["answered", "answered", "applied"]


def test_a_database_locked_past_the_busy_timeout_exits_4_with_one_line(
    waiting: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock tick's BEGIN IMMEDIATE at the start of the pass met the lock (issue 29: exit 1
    with a traceback)."""
    h = waiting
    monkeypatch.setattr(store_db, "BUSY_TIMEOUT_MS", 300)
    monkeypatch.setattr(runner, "TRANSIENT_RETRIES", (0.01, 0.02))
    h.db.dispose()
    blocker = sqlite3.connect(h.folder / "pbem.db", isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        out = _poll(h, monkeypatch)
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert out.exit_code == EXIT_UNREACHABLE, out.output + out.stderr
    line = _one_line(out.stderr)
    assert line.startswith("the database is locked") and "INBOX" in line, line
    assert out.stdout == ""
    assert len(h.inbox.folder_uids("INBOX")) == MAILS
    _applied_after(h, monkeypatch)


def test_a_lock_taken_while_mail_is_applied_defers_it_and_stops_the_pass(
    waiting: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lock comes after the tick: the first mail is deferred, the others wait unread."""
    h = waiting
    monkeypatch.setattr(store_db, "BUSY_TIMEOUT_MS", 300)
    monkeypatch.setattr(runner, "TRANSIENT_RETRIES", (0.01, 0.02))
    blockers: list[sqlite3.Connection] = []
    real = runner.process_message

    def locked_then_process(*args: object, **kwargs: object) -> runner.Outcome:
        if not blockers:
            blockers.append(sqlite3.connect(h.folder / "pbem.db", isolation_level=None))
            blockers[0].execute("BEGIN EXCLUSIVE")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(intake, "process_message", locked_then_process)
    try:
        out = _poll(h, monkeypatch)
    finally:
        blockers[0].execute("ROLLBACK")
        blockers[0].close()
    assert out.exit_code == EXIT_UNREACHABLE, out.output + out.stderr
    line = _one_line(out.stderr)
    assert "(in: 1 deferred)" in line, line
    assert len(h.inbox.folder_uids("INBOX")) == MAILS and _outcomes(h) == []
    monkeypatch.setattr(intake, "process_message", real)
    _applied_after(h, monkeypatch)


def test_a_read_only_database_exits_3_with_one_line(
    waiting: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """chmod alone does not stop root (CAP_DAC_OVERRIDE ignores the mode bits): as root the
    file is made immutable (``chattr +i``: checked whatever the capabilities, so SQLite's
    read-write open fails and it falls back to read-only); as any other user, ``chmod a-w``."""
    h = waiting
    h.db.dispose()  # a connection opened read-write before would keep writing
    path = h.folder / "pbem.db"
    mode = path.stat().st_mode
    if os.geteuid() == 0:
        made = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
        if made.returncode != 0:
            pytest.skip(f"chattr +i is refused here: {made.stderr.strip()}")
        undo = ["chattr", "-i", str(path)]
    else:
        path.chmod(0o444)
        undo = []
    try:
        out = _poll(h, monkeypatch)
    finally:
        if undo:
            subprocess.run(undo, check=True)
        path.chmod(mode)
    assert out.exit_code == EXIT_ATTENTION, out.output + out.stderr
    line = _one_line(out.stderr)
    assert line.startswith("the database is read-only"), line
    assert len(h.inbox.folder_uids("INBOX")) == MAILS
    _applied_after(h, monkeypatch)


# --- a full disk: a file size limit in a subprocess, real IMAP -------------------------------


def _poll_process(
    env: dict[str, str], limit: int | None = None
) -> subprocess.CompletedProcess[str]:
    def limited() -> None:  # in the child, before exec: files may not grow past *limit*
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))

    return subprocess.run(
        [sys.executable, "-m", "pbem", "poll", "--no-send"],
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        cwd=ROOT,
        preexec_fn=limited,  # only setrlimit in the child: nothing that could deadlock
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_full_disk_exits_3_with_one_line_and_loses_nothing(
    tmp_path: Path, embedded_mail: MailServer
) -> None:
    """RLIMIT_FSIZE in the poll's process: no file may grow past 64 KiB, as on a full disk
    (SQLite sees the short write, EFBIG, and reports an I/O error; Python ignores SIGXFSZ)."""
    url = f"sqlite:///{tmp_path}/pbem.db"
    h = _game(tmp_path, settings=embedded_mail.game_settings(url, "test-secret-of-the-harness"))
    for raw in _waiting(h):
        embedded_mail.send(raw, "player@players.test", [h.settings.address])
    assert embedded_mail.wait_for(h.settings.address, MAILS)
    env = {
        **_env(h),
        "PBEM_IMAP_HOST": embedded_mail.host,
        "PBEM_IMAP_PORT": str(embedded_mail.imap_port),
        "PBEM_IMAP_USER": h.settings.address,
        "PBEM_IMAP_PASSWORD": embedded_mail.password,
    }
    h.db.dispose()
    assert _count_inbox(embedded_mail, h.settings.address) == MAILS
    # 64 KiB: the clock tick's few pages still fit in the write-ahead log, the first mail's
    # transaction (its record, the move, the reports) does not
    full = _poll_process(env, limit=65536)
    assert full.returncode == EXIT_ATTENTION, full.stdout + full.stderr
    line = _one_line(full.stderr)
    assert line.startswith("the database cannot be written: disk I/O error"), line
    assert "(in: 1 deferred)" in line and "INBOX" in line, line
    assert full.stdout == ""
    assert _count_inbox(embedded_mail, h.settings.address) == MAILS
    assert _outcomes(h) == []
    again = _poll_process(env)
    assert again.returncode == 0, again.stdout + again.stderr
    assert again.stdout.startswith("in: 2 answered, 1 applied"), again.stdout
    assert _count_inbox(embedded_mail, h.settings.address) == 0
    assert _moves(h) == 1 and _outcomes(h) == ["answered", "answered", "applied"]


def _count_inbox(server: MailServer, address: str) -> int:
    with server.mailbox(address) as box:
        return len(box.folder_uids("INBOX"))


# --- PostgreSQL stopped ------------------------------------------------------------------------


@pytest.fixture
def private_postgres() -> Iterator[tuple[str, dict[str, str]]]:
    """A PostgreSQL of this test's own (scripts/pgtest.sh in a fresh folder, a free port), so
    stopping it disturbs no other test; skipped where PostgreSQL is not installed."""
    if not list(Path("/usr/lib/postgresql").glob("*/bin/initdb")) or os.geteuid() != 0:
        pytest.skip("needs Debian's PostgreSQL and root (scripts/pgtest.sh)")
    folder = Path(tempfile.mkdtemp(prefix="pbem-test-pg-"))  # the script gives it to postgres
    env = {**os.environ, "PGTEST_DIR": str(folder), "PGTEST_PORT": str(free_port())}
    script = ["bash", str(ROOT / "scripts" / "pgtest.sh")]
    subprocess.run([*script, "start"], env=env, check=True, capture_output=True, timeout=120)
    try:
        url = f"postgresql+psycopg://postgres@127.0.0.1:{env['PGTEST_PORT']}/pbem_test"
        yield url, env
    finally:
        subprocess.run([*script, "stop"], env=env, capture_output=True, timeout=120)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.postgres
def test_a_stopped_postgresql_exits_4_with_what_is_wrong_and_what_to_do(
    tmp_path: Path,
    private_postgres: tuple[str, dict[str, str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, env = private_postgres
    script = ["bash", str(ROOT / "scripts" / "pgtest.sh")]
    h = _game(tmp_path, database_url=url)
    for raw in _waiting(h):
        h.inbox.deliver(raw)
    h.db.dispose()
    subprocess.run([*script, "stop"], env=env, check=True, capture_output=True, timeout=120)
    out = _poll(h, monkeypatch)
    assert out.exit_code == EXIT_UNREACHABLE, out.output + out.stderr
    # the database is opened before the pass: the CLI's two lines, what is wrong and what to do
    lines = [ln for ln in out.stderr.splitlines() if ln.strip()]
    assert len(lines) == 2 and lines[0].startswith("Error: cannot reach the database"), lines
    assert "Traceback" not in out.stderr
    assert len(h.inbox.folder_uids("INBOX")) == MAILS
    subprocess.run([*script, "start"], env=env, check=True, capture_output=True, timeout=120)
    _applied_after(h, monkeypatch)
