"""Unit tests for the core modules: config, keys, db/migrations, outbox drain, replay, lock."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

import engine
from pbem import errors, keys
from pbem.config import ConfigError, Settings, as_env, load_settings
from pbem.games import setup as game_setup
from pbem.games import views as game_views
from pbem.mail import PermanentFailure, TemporaryFailure
from pbem.outbox import send as outbox
from pbem.store.models import utcnow
from pbem.worker.lock import Locked, RunLock
from tests.pbem.harness import Harness

# --- config -------------------------------------------------------------------------------------


def test_settings_come_from_toml_then_environment(tmp_path: Path) -> None:
    toml = tmp_path / "pbem.toml"
    toml.write_text('PBEM_ADDRESS = "game@x.test"\nimap_port = 1993\nsmtp_tls = true\n')
    s = load_settings(toml, env={"PBEM_IMAP_PORT": "2993", "PBEM_SECRET": "s3"})
    assert (s.address, s.imap_port, s.smtp_tls, s.secret) == ("game@x.test", 2993, True, "s3")
    assert s.database_url == "sqlite:///pbem.db"


def test_bad_settings_name_the_setting(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="PBEM_IMAP_PORT"):
        load_settings(env={"PBEM_IMAP_PORT": "many"})
    with pytest.raises(ConfigError, match="unknown setting"):
        (tmp_path / "c.toml").write_text("colour = 'blue'\n")
        load_settings(tmp_path / "c.toml", env={})
    with pytest.raises(ConfigError, match="PBEM_ADDRESS"):
        load_settings(env={"PBEM_ADDRESS": "nobody"})


def test_as_env_loads_the_same_settings_again() -> None:
    s = Settings(
        address="game@x.test",
        imap_port=1993,
        imap_ssl=False,
        smtp_tls=True,
        secret="s3",
        parse_cpu_seconds=2.5,
        previous_secrets="old1,old2",
    )
    assert load_settings(env=as_env(s)) == s


# --- reply keys ---------------------------------------------------------------------------------


def test_keys_are_lower_case_signed_and_bound_to_seat_and_generation() -> None:
    k = keys.key_for("secret", 12, "kennedy", 3, "salt")
    assert k.text == k.text.lower() and k.text.startswith("g12k3-")
    addr = keys.reply_address("Game@Example.TEST", k)
    assert addr == f"game+{k.text}@example.test" and len(addr.split("@")[0]) <= 64
    (found,) = keys.find_keys(addr.upper())  # survives case-folding MTAs
    assert keys.verify("secret", found, "salt")
    assert not keys.verify("other-secret", found, "salt")
    assert not keys.verify("secret", found, "new-salt")
    forged = keys.ReplyKey(12, "nixon", 3, k.token)
    assert not keys.verify("secret", forged, "salt")


def test_keys_are_found_in_our_message_ids() -> None:
    k = keys.key_for("secret", 5, "nixon", 9, "salt")
    mid = keys.message_id("secret", "game@x.test", k, "v4.report")
    assert keys.find_keys(f"<a@b> {mid}") == [k]


def test_our_message_ids_are_signed_and_checked() -> None:
    k = keys.key_for("secret", 5, "nixon", 9, "salt")
    mid = keys.message_id("secret", "Game@X.test", k, "v4.report")
    assert mid.startswith(f"<1960.{k.text}.v4.report.") and mid.endswith("@x.test>")
    assert keys.is_our_message_id(["secret"], mid)
    assert keys.is_our_message_id(["new", "secret"], mid.upper())  # rotation; case-folded
    assert not keys.is_our_message_id(["other"], mid)
    left, _, domain = mid.strip("<>").rpartition("@")
    assert not keys.is_our_message_id(["secret"], f"<{left.rpartition('.')[0]}@{domain}>")
    assert not keys.is_our_message_id(["secret"], f"<{left}@elsewhere.test>")
    for junk in ("", "<>", "<@>", "<a.b@>", "no-brackets", "<.12345678@x>"):
        assert not keys.is_our_message_id(["secret"], junk)
    assert keys.find_keys("<xg5n9-aaaaaaaaaaaaaaaa@x>") == []  # not at a word boundary


# --- database -----------------------------------------------------------------------------------


def test_init_is_idempotent_and_matches_the_models(tmp_path: Path) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory
    from sqlmodel import SQLModel

    from pbem.store.db import alembic_config, make_engine, migrate

    db = make_engine(f"sqlite:///{tmp_path}/x.db")
    head = ScriptDirectory.from_config(alembic_config(db)).get_current_head()
    assert head is not None and head.isdigit() and head >= "0002"  # numbered (MERGING.md)
    assert migrate(db) == (None, head)
    assert migrate(db) == (head, head)
    with db.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), SQLModel.metadata) == []
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"


def test_migrate_takes_a_database_url_with_a_percent_sign(tmp_path: Path) -> None:
    """A '%' in the URL (a password, a PostgreSQL ``options=-csearch_path%3D...``) broke
    alembic's configparser ("invalid interpolation syntax"): found by the crash soak on
    PostgreSQL, whose per-game schema is such an option."""
    from pbem.store.db import make_engine, migrate

    db = make_engine(f"sqlite:///{tmp_path}/50%done/x.db")
    assert migrate(db)[1] is not None
    db.dispose()


# --- outbox -------------------------------------------------------------------------------------


def test_outbox_retries_temporary_failures_with_backoff_and_the_same_message_id(
    tmp_path: Path,
) -> None:
    h = Harness(tmp_path)
    h.sender.fail_with = [TemporaryFailure("451 try later", 451)] * 2
    h.new_game(seed=2)
    rows = h.outbox()
    assert [r.status for r in rows] == ["pending", "pending"]
    assert rows[0].attempts == 1 and "451" in rows[0].last_error
    assert rows[0].next_attempt_at > utcnow()
    assert h.send().sent == 0  # not due yet
    later = utcnow() + timedelta(hours=1)
    stats = outbox.drain_outbox(h.db, h.settings, h.sender, now=later)
    assert stats.sent == 2
    assert [r.status for r in h.outbox()] == ["sent", "sent"]
    sent_ids = [h.mails_to(s)[0]["Message-ID"] for s in ("kennedy", "nixon")]
    assert sent_ids == [r.message_id for r in rows]


def test_outbox_marks_permanent_failures(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.sender.fail_with = [PermanentFailure("550 no such user", 550)]
    h.new_game(seed=2)
    assert [r.status for r in h.outbox()] == ["failed", "sent"]


# --- replay, views ------------------------------------------------------------------------------


def _play(h: Harness, n: int, seed: int = 0) -> None:
    import random

    rnd = random.Random(seed)
    for _ in range(n):
        state = h.state()
        if engine.result(state) is not None:
            return
        side = sorted(engine.active_sides(state))[0]
        assert h.reply(side, rnd.choice(engine.legal_commands(state, side))).outcomes == {
            "applied": 1
        }


def test_replay_equals_the_snapshot_and_detects_tampering(tmp_path: Path) -> None:
    from sqlmodel import Session

    from pbem.store.models import Game

    h = Harness(tmp_path)
    h.new_game(seed=4)
    _play(h, 25)
    report = game_views.replay(h.db, h.game_id)
    assert report.ok and report.moves == 25
    with Session(h.db) as s:
        game = s.get(Game, h.game_id)
        assert game is not None
        state = engine.from_json(game.snapshot)
        state["momentum"]["kennedy"] += 1
        game.snapshot = engine.to_json(state)
        s.add(game)
        s.commit()
    bad = game_views.replay(h.db, h.game_id)
    assert not bad.ok and "momentum" in bad.problem


def test_show_json_is_the_sides_view(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=2)
    v = game_views.show_json(h.db, h.game_id, "kennedy")
    assert v == json.loads(json.dumps(engine.view(h.state(), "kennedy")))
    assert "hand" not in game_views.show_json(h.db, h.game_id, "public")
    with pytest.raises(errors.GameNotFound):
        game_views.show_json(h.db, 99, "kennedy")


def test_new_game_refuses_bad_addresses(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    with pytest.raises(errors.ServiceError, match="kennedy"):
        game_setup.new_game(h.db, h.settings, kennedy="nope", nixon="n@x.test")
    with pytest.raises(errors.ServiceError, match="different"):
        game_setup.new_game(h.db, h.settings, kennedy="a@x.test", nixon="A@x.test")


# --- lock ---------------------------------------------------------------------------------------


def test_the_run_lock_is_exclusive(tmp_path: Path) -> None:
    with RunLock(tmp_path / "l"), pytest.raises(Locked):
        RunLock(tmp_path / "l").__enter__()
    with RunLock(tmp_path / "l"):
        pass  # released on exit
