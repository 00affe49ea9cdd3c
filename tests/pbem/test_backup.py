"""Backups (issue 29): `pbem backup` while the server runs, `pbem restore` into a fresh place, and
the game finished from the restored copy with the same final tally; PostgreSQL's pg_dump and
pg_restore, as docs/OPERATING.md says, against the private test server."""

from __future__ import annotations

import random
import shutil
import sqlite3
import subprocess
import uuid
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

import engine
from pbem.cli import cli
from pbem.cli.app import EXIT_LOCKED
from pbem.worker.lock import RunLock
from tests.pbem.harness import Harness


def _run(database: Path, *args: str, input: str | None = None) -> Result:
    env = {"PBEM_DATABASE_URL": f"sqlite:///{database}", "PBEM_ADDRESS": "game@pbem.test"}
    return CliRunner().invoke(cli, list(args), env=env, input=input)


def _play(h: Harness, rnd: random.Random) -> bytes:
    """One mail of the deciding side (a random legal command), applied; its bytes."""
    side = sorted(engine.active_sides(h.state()))[0]
    raw = h.reply_bytes(side, rnd.choice(h.legal(side)))
    h.inbox.deliver(raw)
    assert h.poll().outcomes == {"applied": 1}
    return raw


def test_a_backup_mid_game_restored_elsewhere_finishes_with_the_same_tally(
    tmp_path: Path,
) -> None:
    site = Harness(tmp_path / "site")
    site.new_game(seed=5)
    rnd = random.Random(5)
    for _ in range(100):  # about a third of the game
        _play(site, rnd)
    # the backup, while a worker holds the write lock in the middle of a mail
    worker = sqlite3.connect(tmp_path / "site" / "pbem.db", isolation_level=None)
    worker.execute("BEGIN IMMEDIATE")
    worker.execute("INSERT INTO workerstate (name, at) VALUES ('half-written', 1)")
    made = _run(tmp_path / "site" / "pbem.db", "backup", str(tmp_path / "saved" / "pbem.db"))
    worker.execute("COMMIT")
    worker.close()
    assert made.exit_code == 0, made.output
    assert "1 game," in made.stdout
    with closing(sqlite3.connect(tmp_path / "saved" / "pbem.db")) as saved:  # as of one commit
        found = saved.execute("SELECT count(*) FROM workerstate WHERE name = 'half-written'")
        assert found.fetchone() == (0,)
    # the site plays on to the end: the uninterrupted game
    after: list[bytes] = []
    while engine.result(site.state()) is None:
        after.append(_play(site, rnd))
    tally = engine.result(site.state())
    # the backup restored into a fresh place, and the same mails from the backup on
    fresh = tmp_path / "fresh" / "pbem.db"
    put = _run(fresh, "restore", str(tmp_path / "saved" / "pbem.db"))
    assert put.exit_code == 0, put.output
    restored = Harness(tmp_path / "fresh", inbox=site.inbox)  # the same game mailbox
    restored.game_id = site.game_id
    for raw in after:  # moved back from Processed to the INBOX (new UIDs), as the manual says
        restored.inbox.deliver(raw)
    assert restored.poll().outcomes == {"applied": len(after)}
    assert engine.result(restored.state()) == tally
    assert restored.state() == site.state()
    print(f"\n{len(after)} mails after the backup; tally {tally['electoral_votes']}")


def test_restore_asks_before_replacing_and_waits_for_no_worker(tmp_path: Path) -> None:
    h = Harness(tmp_path / "site")
    h.new_game(seed=2)
    database = tmp_path / "site" / "pbem.db"
    assert _run(database, "backup", str(tmp_path / "b.db")).exit_code == 0
    saved = h.state()
    _play(h, random.Random(2))  # the database moves on after the backup
    assert h.state() != saved
    h.db.dispose()
    refused = _run(database, "restore", str(tmp_path / "b.db"), input="n\n")
    assert refused.exit_code == 1 and "replace the database" in refused.output
    with RunLock(h.settings.lock_path):
        busy = _run(database, "restore", "--yes", str(tmp_path / "b.db"))
    assert busy.exit_code == EXIT_LOCKED and "stop it first" in busy.output
    assert _run(database, "restore", "--yes", str(tmp_path / "b.db")).exit_code == 0
    assert h.state() == saved  # over the live file (and its write-ahead log): the backup's


def test_restore_refuses_a_file_that_is_not_a_whole_pbem_database(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    (tmp_path / "junk.db").write_bytes(b"not a database at all" * 100)
    for bad in (other, tmp_path / "junk.db", tmp_path / "missing.db"):
        out = _run(tmp_path / "pbem.db", "restore", "--yes", str(bad))
        assert out.exit_code == 1, out.output
        assert "Error:" in out.output and "Traceback" not in out.output
    assert not (tmp_path / "pbem.db").exists()


def test_backup_of_postgresql_names_pg_dump(tmp_path: Path) -> None:
    env = {"PBEM_DATABASE_URL": "postgresql+psycopg://pbem@127.0.0.1:1/pbem"}
    out = CliRunner().invoke(cli, ["backup", str(tmp_path / "x")], env=env)
    assert out.exit_code == 1 and "pg_dump --format=custom" in out.output


def _pg_tool(name: str) -> str:
    found = shutil.which(name) or next(
        (str(p) for p in sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))), None
    )
    if found is None:
        pytest.skip(f"{name} is not installed")
    return found


@pytest.mark.postgres
def test_pg_dump_and_pg_restore_into_a_fresh_database_play_on(
    tmp_path: Path, empty_postgres: str
) -> None:
    """docs/OPERATING.md's PostgreSQL backup: pg_dump --format=custom mid-game, pg_restore into
    a fresh database, the game finished there as on the original."""
    site = Harness(tmp_path / "site", database_url=empty_postgres)
    site.new_game(seed=2)
    rnd = random.Random(2)
    for _ in range(8):
        _play(site, rnd)
    url = make_url(empty_postgres)
    libpq = url.set(drivername="postgresql").render_as_string(hide_password=False)
    dump = tmp_path / "pbem.dump"
    subprocess.run(
        [_pg_tool("pg_dump"), "--format=custom", f"--file={dump}", libpq],
        check=True,
        capture_output=True,
    )
    after = [_play(site, rnd) for _ in range(8)]
    fresh = f"pbem_restore_{uuid.uuid4().hex[:8]}"
    admin = create_engine(url.set(drivername="postgresql+psycopg"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{fresh}"'))
    try:
        target = url.set(drivername="postgresql", database=fresh)
        subprocess.run(
            [
                _pg_tool("pg_restore"),
                "--no-owner",
                f"--dbname={target.render_as_string(hide_password=False)}",
                str(dump),
            ],
            check=True,
            capture_output=True,
        )
        fresh_url = url.set(database=fresh).render_as_string(hide_password=False)
        restored = Harness(tmp_path / "fresh", database_url=fresh_url, inbox=site.inbox)
        restored.game_id = site.game_id
        for raw in after:
            restored.inbox.deliver(raw)
        assert restored.poll().outcomes == {"applied": len(after)}
        assert restored.state() == site.state()
        restored.db.dispose()
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{fresh}" WITH (FORCE)'))
        admin.dispose()
