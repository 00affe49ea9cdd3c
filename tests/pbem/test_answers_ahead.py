"""Answers given ahead and queued lines, through the pipeline: the results block says what
became of every part of a line (applied, kept for a named later question, dropped with the
reason), a kept part is used when its question comes, and a queued line waits for its own
question instead of emptying the queue."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlmodel import Session

import engine
from pbem.games import notify
from pbem.games.ahead import sort_out
from pbem.store.models import Game, SeatOrders
from tests.engine.builders import at_step, top
from tests.engine.test_answer_ahead import strategy_phase
from tests.pbem.harness import Harness

NO_ISSUES = {"defense": 0, "economy": 0, "civil_rights": 0}
NIXON_MEDIA = {"west": -1, "midwest": -1, "south": 0, "east": 0}  # the swap is Nixon's (R10.6)


def _text(h: Harness, side: str) -> str:
    return " ".join(h.text_of(h.last_mail(side)).split())


def _install(h: Harness, state: dict[str, Any]) -> None:
    """Put an arranged position into the game, as if both players had just decided."""
    with Session(h.db) as s:
        game = s.get(Game, h.game_id)
        assert game is not None
        game.snapshot = engine.to_json(state)
        s.add(game)
        for side in engine.SIDES:
            row = s.get(SeatOrders, h.seat(side).id)
            assert row is not None
            notify.mark_decided(row, state)
            s.add(row)
        s.commit()
    h.reply("kennedy", "status")  # a report of the installed position to answer


def test_strategy_answered_ahead_is_kept_past_the_opponents_swap_and_used(
    tmp_path: Path,
) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=7)
    g = at_step(
        [{"step": "turn", "stage": "momentum", "i": 10}],
        phase="momentum",
        issues={**NO_ISSUES, "economy": 3},  # Kennedy leads the 2nd issue and chooses (R10.3)
        media=dict(NIXON_MEDIA),
        momentum={"kennedy": 0, "nixon": 0},
        hands={"kennedy": [36, 38], "nixon": [27, 33]},
        endorse_deck=["west"],  # the card names its region: no region question
        endorse_discard=[],
    )
    assert top(g) == {"step": "award_choice", "side": "kennedy"}
    _install(h, g)
    assert h.reply("kennedy", "endorsement: east, strategy 38, first kennedy").outcomes == {
        "applied": 1
    }
    assert top(h.state())["step"] == "issue_swap"  # Nixon's swap comes between
    result = _text(h, "kennedy")
    assert "applied: endorsement" in result
    assert (
        "kept for your campaign-strategy card (R11.1), after Nixon: 'strategy 38: first "
        "kennedy'" in result
    )
    assert "dropped 'region east': no endorsement card naming any region was drawn" in result
    assert h.reply("nixon", "decline").outcomes == {"applied": 1}
    state = h.state()
    assert state["stacks"]["kennedy"] == [38]  # used when its question came, not asked again
    assert engine.active_sides(state) == {"nixon"}  # Kennedy is not asked for it again


def test_a_queued_line_waits_for_its_own_question(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=2)  # Kennedy won the initiative; Nixon holds #80 Herblock (Kennedy's)
    h.reply("kennedy", "first kennedy")
    h.reply(
        "kennedy",
        "position 27: civil rights 1, economy 1, defense 1\nthen\nposition 48: defense 1, economy 1, civil rights 1",
    )
    h.reply("nixon", "decline")  # Nixon's own #27: not triggered
    h.reply("nixon", "position 80: defense 1, economy 1")
    assert h.legal("kennedy") == ["trigger", "decline"]  # asked: the queue waits
    assert "your queue stopped" not in _text(h, "kennedy")
    h.reply("kennedy", "decline")
    assert 48 not in h.state()["hands"]["kennedy"]  # the queued action came at its question
    assert engine.active_sides(h.state()) == {"nixon"}


def test_then_and_the_line_it_queues_may_share_a_line(tmp_path: Path) -> None:
    """ "then position 48: ..." on one line reads as 'then' alone and the line after it (it
    was listed back as ignored prose, and nothing was queued)."""
    h = Harness(tmp_path)
    h.new_game(seed=2)
    h.reply("kennedy", "first kennedy")
    stats = h.reply(
        "kennedy",
        "position 27: civil rights 1, economy 1, defense 1\n"
        "Then position 48: defense 1, economy 1, civil rights 1",
    )
    assert stats.outcomes == {"applied": 1}
    text = _text(h, "kennedy")
    assert "1 line queued" in text and "Then position 48" not in text
    h.reply("nixon", "decline")
    h.reply("nixon", "position 80: defense 1, economy 1")
    h.reply("kennedy", "decline")
    assert 48 not in h.state()["hands"]["kennedy"]  # the queued action came at its question


def test_an_initiative_answer_ahead_used_in_the_same_mail_reads_applied() -> None:
    """``strategy 38: first nixon`` when Kennedy's last card ends the turn and Kennedy wins the
    initiative at once: 'first nixon' was applied, not dropped; if Nixon wins, it was his."""
    for bag, says in (
        ({"kennedy": 10, "nixon": 0}, "ok"),
        ({"kennedy": 0, "nixon": 10}, "your opponent won the initiative: theirs to choose"),
    ):
        g = engine.apply(strategy_phase(bag), "nixon", "strategy 27")
        after, canonical = engine.apply_logged(g, "kennedy", "strategy 38: first nixon")
        assert says in sort_out(g, after, "kennedy", "strategy 38: first nixon", canonical).message
