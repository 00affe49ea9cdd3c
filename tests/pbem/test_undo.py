"""``undo`` and ``say`` through the real pipeline (harness): taken back while nothing was
revealed, refused precisely otherwise; the log replays; table talk reaches the opponent."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlmodel import Session

import engine
from engine.undo import undo_refusal
from pbem.games import views as game_views
from pbem.store.models import Game
from tests.pbem.harness import Harness


@pytest.fixture
def h(tmp_path: Path) -> Harness:
    harness = Harness(tmp_path)
    harness.new_game(seed=2)  # Kennedy won the initiative; hand 27 50 39 48 68 45
    harness.reply("kennedy", "first kennedy")
    return harness


def _text(h: Harness, side: str) -> str:
    return " ".join(h.text_of(h.last_mail(side)).split())


def test_undo_restores_the_position_before_the_last_mail(h: Harness) -> None:
    before = h.state()
    assert h.reply("kennedy", "position 27: civil rights 1, economy 1").outcomes == {"applied": 1}
    assert h.state() != before
    assert h.reply("kennedy", "undo").outcomes == {"applied": 1}
    assert h.state() == before
    assert "your last mail was taken back" in _text(h, "kennedy")
    assert game_views.replay(h.db, h.game_id).ok  # the log with its 'undo' rebuilds the snapshot


def test_undo_then_a_new_move_in_the_same_mail(h: Harness) -> None:
    h.reply("kennedy", "position 27: civil rights 1, economy 1")
    expected = engine.apply(
        engine.apply(
            engine.apply(engine.new_game(2), "kennedy", "first kennedy"), "kennedy", "position 45"
        ),
        "kennedy",
        "issue defense",
    )
    assert h.reply("kennedy", "undo\nposition 45\nissue defense").outcomes == {"applied": 1}
    assert h.state()["issues"] == expected["issues"]
    assert 27 in h.state()["hands"]["kennedy"] and 45 not in h.state()["hands"]["kennedy"]
    assert game_views.replay(h.db, h.game_id).ok


def test_undo_with_a_failing_line_applies_nothing(h: Harness) -> None:
    h.reply("kennedy", "position 27: civil rights 1, economy 1")
    after = h.state()
    assert h.reply("kennedy", "undo\nevent 99").outcomes == {"rejected": 1}
    assert h.state() == after  # not even the undo


def test_undo_is_refused_once_the_opponent_decided(h: Harness) -> None:
    h.reply("kennedy", "position 27: economy 2")  # 3 CP spent: Nixon may trigger #27
    assert "nixon" in engine.active_sides(h.state())
    h.reply("nixon", "decline")
    now = h.state()
    assert h.reply("kennedy", "undo").outcomes == {"rejected": 1}
    assert h.state() == now
    assert "Nixon has decided since" in _text(h, "kennedy")


def test_undo_is_refused_after_a_draw(h: Harness) -> None:
    h.reply("kennedy", "advertise 39")  # support checks draw from the bag (R8.1)
    now = h.state()
    assert h.reply("kennedy", "undo").outcomes == {"rejected": 1}
    assert h.state() == now
    assert "drew cards, cubes or endorsements" in _text(h, "kennedy")


def test_undo_as_a_later_line_is_refused(h: Harness) -> None:
    assert h.reply("kennedy", "position 27\nundo").outcomes == {"rejected": 1}
    assert "'undo' must be the first line" in _text(h, "kennedy")


def test_the_opponent_hears_of_the_undo_only_if_they_had_been_sent_the_move(h: Harness) -> None:
    h.reply("kennedy", "position 27: economy 2")  # Nixon is asked about the trigger
    sent = len(h.mails_to("nixon"))
    h.reply("kennedy", "undo")
    mails = h.mails_to("nixon")
    assert len(mails) > sent
    assert "Kennedy took back their last move" in " ".join(h.text_of(mails[-1]).split())


def test_the_undo_notice_says_what_was_taken_back_and_that_the_question_is_withdrawn(
    h: Harness,
) -> None:
    """Found by playing: Nixon, asked whether to trigger #27, was told only "took back their last
    move" — not which move, nor that the trigger question he had been sent is gone."""
    h.reply("kennedy", "position 27: economy 2")
    asked = " ".join(h.text_of(h.mails_to("nixon")[-1]).split())
    played = next(line for line in h.state()["log"] if "plays #27" in line["text"])["text"]
    assert played in asked
    h.reply("kennedy", "undo")
    told = h.text_of(h.mails_to("nixon")[-1]).split("AT THE TABLE", 1)[1].split("\n", 1)[1]
    notice = " ".join(told.split("\n-- ", 1)[0].split())
    assert played in notice and "positions on Economy" in notice
    assert "no longer stand" in notice
    assert "question you were sent about it is withdrawn" in notice


def test_the_same_question_asked_again_after_an_undo_is_mailed_again(h: Harness) -> None:
    """Found by playing: Kennedy took back '#27 for CP', then played it again; Nixon, whose
    trigger question had been withdrawn, was never asked again and the game stalled."""
    h.reply("kennedy", "position 27: economy 2")
    h.reply("kennedy", "undo")
    sent = len(h.mails_to("nixon"))
    assert "nothing for you to send now" in _text(h, "nixon")
    assert h.reply("kennedy", "position 27: economy 2").outcomes == {"applied": 1}
    assert "nixon" in engine.active_sides(h.state())
    assert len(h.mails_to("nixon")) == sent + 1
    assert "trigger" in _text(h, "nixon") and "IT IS YOUR MOVE" in _text(h, "nixon")


def test_say_reaches_the_opponent_in_their_next_mail(h: Harness) -> None:
    assert h.reply(
        "kennedy", "say Good luck, Dick!\nMay the best man win.\nposition 27: economy 2"
    ).outcomes == {"applied": 1}
    text = " ".join(h.text_of(h.mails_to("nixon")[-1]).split())  # asked about the trigger
    assert "Kennedy says:" in text and "Good luck, Dick!" in text
    assert "May the best man win." in text
    h.reply("nixon", "decline")
    assert "Good luck" not in " ".join(h.text_of(h.mails_to("nixon")[-1]).split())  # once


def test_say_alone_is_passed_on_without_a_move(h: Harness) -> None:
    before = h.state()
    assert h.reply("kennedy", "say Thinking it over, back tomorrow").outcomes == {"answered": 1}
    assert h.state() == before
    h.reply("kennedy", "position 27: economy 2")
    assert "Thinking it over" in " ".join(h.text_of(h.mails_to("nixon")[-1]).split())


def test_engine_undo_refusal_is_decided_from_the_state() -> None:
    g = engine.apply(engine.new_game(2), "kennedy", "first kennedy")
    after = engine.apply(g, "kennedy", "position 27: economy 1")
    assert undo_refusal(g, after, after, "kennedy") is None
    drawn = engine.apply(g, "kennedy", "advertise 39")
    assert "drew" in (undo_refusal(g, drawn, drawn, "kennedy") or "")
    later = engine.copy_state(after)
    later["seq"] += 1
    assert "moved on" in (undo_refusal(g, after, later, "kennedy") or "")


def test_undo_works_after_an_upgrade_that_reworded_the_log(h: Harness) -> None:
    """A newer engine words some log lines differently (or adds one); the move log still
    rebuilds the same position, so 'undo' is not refused as "cannot rebuild this game"."""
    before = h.state()
    assert h.reply("kennedy", "position 27: civil rights 1, economy 1").outcomes == {"applied": 1}
    with Session(h.db) as s:  # the snapshot as an older engine worded it
        game = s.get(Game, h.game_id)
        assert game is not None and game.snapshot
        g = engine.from_json(game.snapshot)
        g["log"][0]["text"] += " (as an older engine put it)"
        game.snapshot = engine.to_json(g)
        s.add(game)
        s.commit()
    assert h.reply("kennedy", "undo").outcomes == {"applied": 1}
    assert "your last mail was taken back" in _text(h, "kennedy")
    assert {k: v for k, v in h.state().items() if k != "log"} == {
        k: v for k, v in before.items() if k != "log"
    }
