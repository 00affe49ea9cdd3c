"""The move log holds canonical commands (issue 9): what the player wrote is read once, and
the log stores the commands it stood for, so a later alias or parser change cannot break
`pbem replay`. Migration 0004 rewrites older logs (raw lines) the same way."""

from __future__ import annotations

from pathlib import Path

from sqlmodel import Session, col, select

import engine
from pbem.games import views as game_views
from pbem.store.models import Move
from tests.pbem.harness import Harness


def _log(h: Harness) -> list[tuple[str, str]]:
    with Session(h.db) as s:
        return [
            (m.side, m.command)
            for m in s.exec(select(Move).where(Move.game_id == h.game_id).order_by(col(Move.seq)))
        ]


def _play_first(h: Harness) -> str:
    """The initiative winner answers in its own words (an alias: 'jfk')."""
    state = h.state()
    side = sorted(engine.active_sides(state))[0]
    assert engine.legal_commands(state, side) == ["first kennedy", "first nixon"]
    assert h.reply(side, "FIRST JFK").outcomes == {"applied": 1}
    return side


def test_the_log_stores_canonical_commands_not_the_line_written(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=4)
    side = _play_first(h)
    assert _log(h)[-1] == (side, "first kennedy")
    assert game_views.replay(h.db, h.game_id).ok


def test_migration_0005_rewrites_raw_lines_as_canonical_commands(tmp_path: Path) -> None:
    from alembic import command

    from pbem.store.db import alembic_config

    h = Harness(tmp_path)
    h.new_game(seed=4)
    side = _play_first(h)
    with Session(h.db) as s:  # as an older server stored it: the raw line
        m = s.exec(select(Move).where(Move.game_id == h.game_id)).one()
        m.command = "FIRST JFK"
        s.add(m)
        s.commit()
    cfg = alembic_config(h.db)
    with h.db.begin() as conn:
        cfg.attributes["connection"] = conn
        command.stamp(cfg, "0004")
    with h.db.begin() as conn:  # run 0005 alone: later revisions' columns already exist here
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0005")
        command.stamp(cfg, "head")
    assert _log(h) == [(side, "first kennedy")]
    assert game_views.replay(h.db, h.game_id).ok


def test_migration_0005_leaves_a_log_that_does_not_replay_as_written() -> None:
    import importlib

    mod = importlib.import_module("pbem.store.migrations.versions.0005_canonical_moves")
    g = engine.new_game(4)
    snap = engine.to_json(g)
    assert (
        mod.canonical_log(4, "zman", [], snap, [{"side": "kennedy", "command": "fly to the moon"}])
        is None
    )
    side = sorted(engine.active_sides(g))[0]
    after = engine.apply(g, side, "first jfk")
    assert mod.canonical_log(
        4, "zman", [], engine.to_json(after), [{"side": side, "command": "first jfk"}]
    ) == [{"side": side, "command": "first kennedy", "seq": 1}]


def test_queued_lines_are_logged_as_canonical_commands(tmp_path: Path) -> None:
    """A queued line (after 'then') is a move like any other: the log stores what it meant."""
    h = Harness(tmp_path)
    h.new_game(seed=4)
    _play_first(h)  # Kennedy goes first
    state = h.state()
    assert "kennedy" in engine.active_sides(state)
    play = next(c for c in engine.legal_commands(state, "kennedy") if c.startswith("campaign "))
    # 'finish' is an alias of 'done'; queued, it is applied at once (Kennedy decides next)
    assert h.reply("kennedy", f"{play}\nthen\nfinish").outcomes == {"applied": 1}
    log = _log(h)
    assert log[1:3] == [("kennedy", play), ("kennedy", "done")]
    assert all(cmd != "finish" for _, cmd in log)
    assert game_views.replay(h.db, h.game_id).ok
    # the queued line came with the mail, but the server played it: the log says so
    with Session(h.db) as s:
        rows = s.exec(select(Move).where(Move.game_id == h.game_id).order_by(col(Move.seq))).all()
    assert [(m.command, m.source) for m in rows[1:3]] == [(play, "mail"), ("done", "server")]
    assert rows[1].inbound_id == rows[2].inbound_id is not None


def test_migration_0010_rewrites_queued_lines_logged_as_written(tmp_path: Path) -> None:
    from alembic import command

    from pbem.store.db import alembic_config

    h = Harness(tmp_path)
    h.new_game(seed=4)
    _play_first(h)
    state = h.state()
    play = next(c for c in engine.legal_commands(state, "kennedy") if c.startswith("campaign "))
    assert h.reply("kennedy", f"{play}\nthen\nfinish").outcomes == {"applied": 1}
    canonical = _log(h)
    with Session(h.db) as s:  # as the server before this release stored the queued line
        m = s.exec(select(Move).where(Move.game_id == h.game_id, Move.command == "done")).first()
        assert m is not None
        m.command = "finish"
        s.add(m)
        s.commit()
    assert ("kennedy", "finish") in _log(h)
    cfg = alembic_config(h.db)
    with h.db.begin() as conn:
        cfg.attributes["connection"] = conn
        command.stamp(cfg, "0009")
        command.upgrade(cfg, "0010")
        command.stamp(cfg, "head")
    assert _log(h) == canonical
    assert game_views.replay(h.db, h.game_id).ok


def test_migration_0010_replays_undo_as_pbem_replay_does() -> None:
    import importlib

    mod = importlib.import_module("pbem.store.migrations.versions.0010_canonical_queued_moves")
    g = engine.new_game(4)
    side = sorted(engine.active_sides(g))[0]
    after = engine.apply(g, side, "first jfk")
    moves = [
        {"side": side, "command": "first jfk", "inbound_id": 1},
        {"side": side, "command": "undo", "inbound_id": 2},
        {"side": side, "command": "FIRST JFK", "inbound_id": 2},
    ]
    new = mod.canonical_log(4, "zman", [], engine.to_json(after), moves)
    assert new is not None
    assert [(m["command"], m["seq"]) for m in new] == [
        ("first kennedy", 1),
        ("undo", 2),
        ("first kennedy", 3),
    ]
    assert mod.canonical_log(4, "zman", [], engine.to_json(g), moves) is None  # snapshot differs
