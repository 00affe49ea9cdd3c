"""A computer player thinks outside the write transaction (issue 31): another writer may write
while it thinks, and a position changed meanwhile means it thinks again — never a lost or a
doubled move, whichever writer gets there first."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, col, select

import bots
import engine
from pbem.games import bot_catch_up
from pbem.games import bots as bot_seats
from pbem.games import views as game_views
from pbem.pipeline.runner import process_message
from pbem.store.db import transaction
from pbem.store.models import Game, Move, utcnow
from tests.pbem.harness import Harness
from tests.pbem.test_bot_seat import bot_game, moves

Think = Callable[[Any, int, engine.GameState, dict[str, str]], bot_seats.Plan]


def hook_think(monkeypatch: pytest.MonkeyPatch, during: Callable[[int], None]) -> list[int]:
    """Every `think` calls ``during(n)`` first (n: 1 for the first thought); returns the
    positions' ``seq`` each thought started from."""
    real: Think = bot_seats.think
    seen: list[int] = []

    def hooked(settings: Any, game_id: int, state: engine.GameState, robots: Any) -> Any:
        seen.append(state["seq"])
        during(len(seen))
        return real(settings, game_id, state, robots)

    monkeypatch.setattr(bot_seats, "think", hooked)
    return seen


def to_the_bots_turn(h: Harness, rnd: random.Random) -> tuple[str, bytes]:
    """Play the human (Kennedy) until their next line hands the decision to the bot; returns
    that line and the mail that carries it (not delivered)."""
    for _ in range(60):
        state = h.state()
        legal = engine.legal_commands(state, "kennedy")
        for cmd in rnd.sample(legal, k=min(3, len(legal))):
            after = engine.copy_state(state)
            engine.apply_in_place(after, "kennedy", cmd)
            if "nixon" in engine.active_sides(after):
                return cmd, h.reply_bytes("kennedy", cmd)
        h.reply("kennedy", rnd.choice(engine.legal_commands(state, "kennedy")))
    raise AssertionError("the bot never had to decide")


def writable(path: Path) -> bool:
    """Whether another connection could take SQLite's write lock right now (no waiting)."""
    con = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        con.execute("BEGIN IMMEDIATE")
        con.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        con.close()


def nudge(h: Harness) -> None:
    """Another writer changes the position (an operator's note in the public log), committed."""
    with transaction(h.db) as s:
        game = s.get(Game, h.game_id)
        assert game is not None
        state = engine.from_json(game.snapshot)
        state["log"].append(
            {"seq": state["seq"], "turn": state["turn"], "to": None, "text": "A note.", "why": ""}
        )
        game.snapshot = engine.to_json(state)
        game.version += 1
        s.add(game)


def assert_once(h: Harness) -> None:
    """The move log has no hole and no second copy of anything: it replays to the snapshot."""
    log = moves(h)
    assert [m.seq for m in log] == list(range(1, len(log) + 1))
    assert game_views.replay(h.db, h.game_id).ok


# --- the pipeline ---------------------------------------------------------------------------


def test_the_write_lock_is_free_while_the_bot_answers_a_mail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = bot_game(tmp_path, seed=4)
    _, raw = to_the_bots_turn(h, random.Random(4))
    free: list[bool] = []
    seen = hook_think(monkeypatch, lambda _n: free.append(writable(tmp_path / "pbem.db")))
    before = len(moves(h))
    out = process_message(h.db, h.settings, raw)
    assert out.outcome == "applied"
    assert seen and free == [True] * len(seen)  # with the old design: locked for the search
    assert any(m.side == "nixon" for m in moves(h)[before:])  # and the bot did answer
    assert engine.active_sides(h.state()) == {"kennedy"}
    assert_once(h)


def test_a_position_changed_while_the_bot_thinks_means_it_thinks_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = bot_game(tmp_path, seed=5)
    _, raw = to_the_bots_turn(h, random.Random(5))
    before = len(moves(h))
    seen = hook_think(monkeypatch, lambda n: nudge(h) if n == 1 else None)
    out = process_message(h.db, h.settings, raw)
    assert out.outcome == "applied"
    assert len(seen) == 2  # the first plan was for a position that no longer existed
    new = moves(h)[before:]
    assert new[0].side == "kennedy" and new[0].inbound_id is not None
    bot = [m for m in new if m.side == "nixon"]
    assert bot and all(m.inbound_id is None and m.reason for m in bot)
    assert engine.active_sides(h.state()) == {"kennedy"}
    assert [m.seq for m in moves(h)] == list(range(1, len(moves(h)) + 1))


def test_two_copies_of_a_move_racing_the_bot_apply_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same move sent twice; the second copy is applied (by another worker) while the bot
    thinks about the first: the move and the bot's answer are in the log once."""
    h = bot_game(tmp_path, seed=6)
    cmd, first = to_the_bots_turn(h, random.Random(6))
    second = h.reply_bytes("kennedy", cmd)
    before = len(moves(h))
    outcomes: list[str] = []

    def other_worker(n: int) -> None:
        if n == 1:
            outcomes.append(process_message(h.db, h.settings, second).outcome)

    seen = hook_think(monkeypatch, other_worker)
    outcomes.insert(0, process_message(h.db, h.settings, first).outcome)
    assert outcomes[1] == "applied" and outcomes[0] != "applied", outcomes
    assert len(seen) >= 2
    new = moves(h)[before:]
    assert [m.side for m in new].count("kennedy") == len(
        [m for m in new if m.inbound_id is not None]
    )
    assert len({m.inbound_id for m in new if m.inbound_id is not None}) == 1
    assert any(m.side == "nixon" for m in new)
    assert engine.active_sides(h.state()) == {"kennedy"}
    assert_once(h)


def test_a_position_that_keeps_changing_leaves_the_bot_to_the_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = bot_game(tmp_path, seed=8)
    _, raw = to_the_bots_turn(h, random.Random(8))
    seen = hook_think(monkeypatch, lambda _n: nudge(h))
    out = process_message(h.db, h.settings, raw)
    assert out.outcome == "applied"  # the human's move is never lost
    assert len(seen) == bot_seats.MAX_THINKS
    assert "nixon" in engine.active_sides(h.state())  # the bot's answer waits for the pass
    monkeypatch.undo()
    assert bot_catch_up.catch_up(h.db, h.settings, utcnow()) > 0
    assert engine.active_sides(h.state()) == {"kennedy"}


# --- the worker pass ------------------------------------------------------------------------


def stuck_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int) -> Harness:
    """A game where the bot must move and has not (it failed while the human's mail ran)."""
    h = bot_game(tmp_path, seed=seed)
    _, raw = to_the_bots_turn(h, random.Random(seed))

    def broken(*_args: object, **_kw: object) -> bots.Decision:
        raise RuntimeError("the bot is down")

    with monkeypatch.context() as m:
        m.setattr(bots, "decide", broken)
        assert process_message(h.db, h.settings, raw).outcome == "applied"
    assert "nixon" in engine.active_sides(h.state())
    return h


def test_the_pass_thinks_with_the_write_lock_free(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = stuck_bot(tmp_path, monkeypatch, seed=4)
    free: list[bool] = []
    seen = hook_think(monkeypatch, lambda _n: free.append(writable(tmp_path / "pbem.db")))
    assert bot_catch_up.catch_up(h.db, h.settings, utcnow()) > 0
    assert seen and free == [True] * len(seen)
    assert engine.active_sides(h.state()) == {"kennedy"}
    assert_once(h)


def test_two_passes_racing_play_the_bot_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While one pass thinks, another plays the same bot and commits: the first finds the
    position changed, reads it again, and has nothing left to play."""
    h = stuck_bot(tmp_path, monkeypatch, seed=5)
    before = len(moves(h))
    made: list[int] = []

    def other_pass(n: int) -> None:
        if n == 1:
            made.append(bot_catch_up.catch_up(h.db, h.settings, utcnow()))

    hook_think(monkeypatch, other_pass)
    assert bot_catch_up.catch_up(h.db, h.settings, utcnow()) == 0
    assert made and made[0] > 0
    assert len(moves(h)) == before + made[0]
    assert engine.active_sides(h.state()) == {"kennedy"}
    assert_once(h)


def test_the_pass_thinks_again_when_the_position_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = stuck_bot(tmp_path, monkeypatch, seed=6)
    before = len(moves(h))
    seen = hook_think(monkeypatch, lambda n: nudge(h) if n == 1 else None)
    made = bot_catch_up.catch_up(h.db, h.settings, utcnow())
    assert made > 0 and len(seen) == 2
    with Session(h.db) as s:
        new = list(s.exec(select(Move).where(Move.game_id == h.game_id, col(Move.seq) > before)))
    assert len(new) == made and all(m.side == "nixon" and m.reason for m in new)
    assert engine.active_sides(h.state()) == {"kennedy"}
