"""The autopilot answers only the question that timed out, and says why, through the worker pass."""

from __future__ import annotations

from pathlib import Path

from sqlmodel import Session, select

import engine
from engine.forced import deciding_step
from pbem.store.models import Move
from pbem.worker.worker_pass import worker_pass
from tests.pbem.clockharness import ClockGame, other
from tests.pbem.harness import Harness


def walk(g: ClockGame, hours: float) -> None:
    for _ in range(int(hours * 2)):
        g.advance(minutes=30)
        worker_pass(g.h.db, g.h.settings, now=g.at, sender=g.h.sender)


def autopilot_moves(g: ClockGame) -> list[str]:
    with Session(g.h.db) as s:
        rows = s.exec(select(Move).where(Move.game_id == g.h.game_id, Move.source == "autopilot"))
        return [m.command for m in rows]


def test_only_choose_first_timed_out_so_only_that_is_played_with_its_reason(
    tmp_path: Path,
) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h+2h", expiry="autopilot", grace="1h")
    late = g.to_move()
    assert deciding_step(g.h.state(), late) == "choose_first"
    walk(g, 11.5)  # 10 h and 1 h of grace: the autopilot answers "choose first"
    played = autopilot_moves(g)
    assert len(played) == 1 and played[0].startswith("first "), played
    state = g.h.state()
    if played[0] == f"first {late}":  # the action that follows is the player's own again
        assert deciding_step(state, late) == "action"
        assert g.left(late) > 3600  # a new period of 2 h (the increment), not an overdrawn bank
    mine, theirs = g.text(late, -1), g.text(other(late), -1)
    for text in (mine, theirs):
        assert f"- {played[0]}:" in text and "score" in text, text
    assert "next question is yours again" in mine or late not in engine.active_sides(state)
    if late in engine.active_sides(state):  # that next question times out on its own clock
        walk(g, 3.5)
        assert len(autopilot_moves(g)) > 1
