"""Fewer questions nobody needs (R6.7): by default the server declines, for the player, the
trigger of an event that can only favour the opponent and says so; ``standing trigger ask``
brings the question back."""

from __future__ import annotations

from pathlib import Path

import engine
from pbem.games import views as game_views
from pbem.games.triggers import ONLY_FOR_OWNER, only_for_opponent
from tests.pbem.harness import Harness

PLAY_71 = "position 71: defense 1, economy 1, civil rights 1"  # seed 7: Nixon's Heartland


def _text(h: Harness, side: str) -> str:
    return " ".join(h.text_of(h.last_mail(side)).split())


def _nixon_plays_71_for_cp(h: Harness, *, first: bool = True) -> None:
    if first:
        h.reply("nixon", "first nixon")
    assert h.reply("nixon", PLAY_71).outcomes == {"applied": 1}


def test_an_event_that_can_only_favour_the_opponent_is_declined_for_the_player(
    tmp_path: Path,
) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=7)
    _nixon_plays_71_for_cp(h)
    state = h.state()
    assert engine.active_sides(state) == {"kennedy"}
    assert "trigger" not in h.legal("kennedy")  # Kennedy's action is asked, not the trigger
    assert state["momentum"]["kennedy"] == 2  # no momentum spent
    text = _text(h, "kennedy")
    assert "declined for you: trigger #71 Heartland of America" in text
    assert "can only favour Nixon" in text and "standing trigger ask" in text


def test_standing_trigger_ask_brings_the_question_back(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=7)
    h.reply("kennedy", "standing trigger ask")
    _nixon_plays_71_for_cp(h)
    assert h.legal("kennedy") == ["trigger", "decline"]
    assert "declined for you" not in _text(h, "kennedy")


def test_each_listed_event_shows_one_icon_and_is_declined_only_for_the_other_side() -> None:
    for card, why in ONLY_FOR_OWNER.items():
        owner = engine.card_info(card)["icon"]
        assert owner in engine.SIDES, card
        assert owner.title() in why, (card, why)
        opponent = "nixon" if owner == "kennedy" else "kennedy"
        assert only_for_opponent(card, opponent) == why
        assert only_for_opponent(card, owner) is None


def test_a_trigger_declined_by_default_does_not_stop_an_undo(tmp_path: Path) -> None:
    """The opponent did not decide anything: the card player may still take the play back."""
    h = Harness(tmp_path)
    h.new_game(seed=7)
    h.reply("nixon", "first nixon")
    before = h.state()
    _nixon_plays_71_for_cp(h, first=False)
    assert h.reply("nixon", "undo").outcomes == {"applied": 1}
    assert h.state() == before
    assert game_views.replay(h.db, h.game_id).ok
