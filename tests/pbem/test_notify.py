"""When players are mailed and what decision mails carry, through the real pipeline (harness).

Notify modes (decisions / every / digest with an injected clock), the summary of everything
since the player's last decision, forced and queued moves applied by the server (recorded as
moves, told to their player), settings lines by mail, all or nothing with the mail's moves.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, col, select

import engine
from pbem.games import notify
from pbem.games.digest import digest_pass
from pbem.outbox import send as outbox
from pbem.store.models import Game, Move, SeatOrders
from pbem.worker import intake
from tests.engine.builders import action_position, at_step
from tests.pbem.harness import Harness

KENNEDY_HAND = [26, 36, 38, 31, 20, 24]
NIXON_HAND = [4, 9, 12, 18, 25, 27]


@pytest.fixture
def h(tmp_path: Path) -> Harness:
    harness = Harness(tmp_path)
    harness.new_game(seed=7)
    return harness


def install(h: Harness, state: dict[str, Any]) -> None:
    """Put an arranged position into the game (the players answer their welcome mails)."""
    with Session(h.db) as s:
        game = s.get(Game, h.game_id)
        assert game is not None
        game.snapshot = engine.to_json(state)
        s.add(game)
        for side in engine.SIDES:  # as at game creation: the summaries start here
            row = s.get(SeatOrders, h.seat(side).id)
            assert row is not None
            notify.mark_decided(row, state)
            s.add(row)
        s.commit()


def orders_row(h: Harness, side: str) -> SeatOrders | None:
    with Session(h.db) as s:
        return s.get(SeatOrders, h.seat(side).id)


def moves(h: Harness) -> list[tuple[str, str]]:
    with Session(h.db) as s:
        rows = s.exec(select(Move).where(Move.game_id == h.game_id).order_by(col(Move.seq)))
        return [(m.side, m.command) for m in rows]


def reports_to(h: Harness, side: str) -> list[Any]:
    """The mails to ``side`` but the receipts of its own applied mails."""
    return [m for m in h.mails_to(side) if " — received, " not in str(m["Subject"])]


def kennedy_to_act(h: Harness) -> None:
    install(h, action_position("kennedy", hand=KENNEDY_HAND, other_hand=NIXON_HAND))


def play_ken_air_point_by_point(h: Harness) -> None:
    """Kennedy plays #26 Ken-Air for 2 CP, one point per mail; Nixon is then asked to trigger."""
    for line in ("campaign 26", "support MA", "support MA"):
        assert h.reply("kennedy", line).outcomes == {"applied": 1}


# --- notify decisions (default) -----------------------------------------------------------------


def test_decisions_mode_mails_only_the_side_that_must_decide(h: Harness) -> None:
    kennedy_to_act(h)
    play_ken_air_point_by_point(h)
    # Kennedy decided three times and was asked twice more (the campaign went on), his last
    # mail answered by a receipt; Nixon was silent through the whole card play and gets one
    # mail: the trigger question (R6.7)
    assert len(reports_to(h, "kennedy")) == 1 + 2 and len(h.mails_to("kennedy")) == 1 + 2 + 1
    assert len(h.mails_to("nixon")) == 1 + 1
    assert "your move" in h.last_mail("nixon")["Subject"]


def test_a_silent_player_gets_every_step_of_the_opponents_card_play(h: Harness) -> None:
    kennedy_to_act(h)
    play_ken_air_point_by_point(h)
    text = h.text_of(h.last_mail("nixon"))
    assert "SINCE YOUR LAST DECISION" in text
    assert "Kennedy's action" in text
    assert "Kennedy plays #26 Ken-Air for 2 CP to campaign (R6.5)." in text
    assert "Kennedy campaigns in Massachusetts (R7) — 2 times." in text  # both points, one line
    assert "What changed on the board:" in text
    assert "Massachusetts:" in text and "-> Kennedy" in text
    assert "spend 1 momentum to trigger" in text.lower() or "trigger" in text
    html = h.last_mail("nixon").get_body(("html",)).get_content()
    assert html.count("Kennedy campaigns in Massachusetts (R7) — 2 times.") == 1


def test_the_summary_reaches_back_to_the_players_own_previous_decision(h: Harness) -> None:
    kennedy_to_act(h)
    play_ken_air_point_by_point(h)
    h.reply("nixon", "decline")  # Nixon's action comes next
    text = h.text_of(h.last_mail("nixon"))
    # the summary starts at Nixon's previous decision (the trigger answer): Kennedy's card play
    # was in the mail that asked it
    assert "Nixon declines to trigger #26 Ken-Air." in text
    assert "Kennedy plays #26 Ken-Air" not in text
    assert "OK     decline" in text


# --- notify every ---------------------------------------------------------------------------------


def test_every_mode_by_mail_mails_after_every_move(h: Harness) -> None:
    kennedy_to_act(h)
    assert h.reply("nixon", "notify every").outcomes == {"answered": 1}
    confirm = h.text_of(h.last_mail("nixon"))
    assert "OK     notify every" in confirm and "you are mailed after every move" in confirm
    assert "Mail: after every move (notify every)." in confirm
    before = len(h.mails_to("nixon"))
    play_ken_air_point_by_point(h)
    assert len(h.mails_to("nixon")) == before + 3


# --- notify digest ----------------------------------------------------------------------------------


def test_digest_mode_sends_one_mail_a_day_at_the_players_hour(h: Harness) -> None:
    kennedy_to_act(h)
    now = datetime.now(UTC)
    hour = (now.hour + 12) % 24  # far from now: the harness's real-time polls never reach it
    assert h.reply("nixon", f"notify digest {hour}").outcomes == {"answered": 1}
    assert f"once a day at {hour:02d}:00 UTC" in h.text_of(h.last_mail("nixon"))
    row = orders_row(h, "nixon")
    assert row is not None and row.notify == "digest" and row.digest_hour == hour
    before = len(reports_to(h, "nixon"))
    play_ken_air_point_by_point(h)
    assert len(h.mails_to("nixon")) == before  # even the trigger question waits for the digest
    day = datetime.combine(now.date(), time(hour), tzinfo=UTC)  # the first digest hour after now
    day += timedelta(days=1) if day <= now else timedelta(0)

    def tick(at: datetime) -> int:
        n = digest_pass(h.db, h.settings, at)
        outbox.drain_outbox(h.db, h.settings, h.sender, now=at)
        return n

    assert tick(day - timedelta(minutes=1)) == 0
    assert tick(day) == 1
    digest = h.last_mail("nixon")
    text = h.text_of(digest)
    assert "your move" in digest["Subject"] and "Kennedy plays #26 Ken-Air" in text
    assert tick(day + timedelta(hours=5)) == 0  # one a day
    assert tick(day + timedelta(days=1, minutes=5)) == 0  # nothing new since: no mail
    assert len(h.mails_to("nixon")) == before + 1
    h.inbox.deliver(h.reply_bytes("nixon", "decline", to_mail=digest))
    at = day + timedelta(days=1, hours=1)  # the worker's pass also runs the digests due
    assert intake.poll_once(h.db, h.settings, h.inbox, now=at).outcomes == {"applied": 1}
    outbox.drain_outbox(h.db, h.settings, h.sender, now=at)
    assert len(reports_to(h, "nixon")) == before + 1  # the next decision waits for the digest too
    assert "received" in h.last_mail("nixon")["Subject"]  # the mail itself got a receipt
    assert tick(day + timedelta(days=2)) == 1
    assert "IT IS YOUR MOVE." in h.text_of(h.last_mail("nixon"))


def test_a_digest_player_never_delays_the_opponents_simultaneous_choice(h: Harness) -> None:
    state = at_step(
        [
            {"step": "strategy", "need": 1, "picked": {"kennedy": 0, "nixon": 0}},
            {"step": "issue_swap", "side": "kennedy"},
        ],
        phase="momentum",
        hands={"kennedy": [36, 38], "nixon": [27, 25]},
    )
    install(h, state)
    h.reply("kennedy", "notify digest 9")
    k_before, n_before = len(h.mails_to("kennedy")), len(h.mails_to("nixon"))
    assert h.reply("kennedy", "decline").outcomes == {"applied": 1}  # on to the strategy step (R11)
    assert engine.active_sides(h.state()) == {"kennedy", "nixon"}
    assert len(h.mails_to("nixon")) == n_before + 1  # at once
    assert len(reports_to(h, "kennedy")) == k_before  # Kennedy's comes with the digest


# --- forced decisions -----------------------------------------------------------------------------


def test_a_forced_decision_is_applied_recorded_and_told(h: Harness) -> None:
    state = at_step(
        [
            {"step": "strategy", "need": 1, "picked": {"kennedy": 0, "nixon": 0}},
            {"step": "issue_swap", "side": "kennedy"},
        ],
        phase="momentum",
        hands={"kennedy": [36, 38], "nixon": [27]},
    )
    install(h, state)
    assert h.reply("kennedy", "decline").outcomes == {"applied": 1}
    assert moves(h) == [("kennedy", "decline"), ("nixon", "strategy 27")]
    row = orders_row(h, "nixon")
    assert (
        row is not None and "strategy 27 (campaign strategy): your only legal choice" in row.notes
    )
    assert engine.active_sides(h.state()) == {"kennedy"}
    told = len(h.mails_to("nixon"))
    h.reply("kennedy", "strategy 36")  # the last pick deals turn 2; Nixon is told in its next mail
    for _ in range(20):
        if len(h.mails_to("nixon")) > told:
            break
        side = sorted(engine.active_sides(h.state()))[0]
        h.reply(side, h.legal(side)[0])
    text = h.text_of(h.last_mail("nixon"))
    assert (
        "DONE FOR YOU BY THE SERVER" in text
        and "strategy 27 (campaign strategy): your only legal choice" in text
    )
    row = orders_row(h, "nixon")
    assert row is not None and row.notes == "[]"  # told once


# --- standing orders by mail ------------------------------------------------------------------------


def test_a_standing_order_by_mail_answers_the_question_when_it_arises(h: Harness) -> None:
    kennedy_to_act(h)
    assert h.reply("nixon", "standing trigger never").outcomes == {"answered": 1}
    text = h.text_of(h.last_mail("nixon"))
    assert "OK     standing trigger never" in text and "trigger   never" in text
    play_ken_air_point_by_point(h)
    assert moves(h)[-2:] == [("kennedy", "support MA"), ("nixon", "decline")]
    text = h.text_of(h.last_mail("nixon"))  # Nixon's action: its next decision
    assert "by standing order: decline" in text
    assert "Nixon declines to trigger #26 Ken-Air." in text


# --- queued orders by mail --------------------------------------------------------------------------


def test_then_queues_lines_for_the_next_decisions(h: Harness) -> None:
    kennedy_to_act(h)
    assert h.reply("kennedy", "campaign 26\nthen\nsupport MA\nsupport MA").outcomes == {
        "applied": 1
    }
    assert moves(h) == [
        ("kennedy", "campaign 26"),
        ("kennedy", "support MA"),
        ("kennedy", "support MA"),
    ]
    assert "your move" in h.last_mail("nixon")["Subject"]


def test_a_queue_is_cancelled_by_the_first_line_that_is_not_legal(h: Harness) -> None:
    kennedy_to_act(h)
    h.reply("kennedy", "campaign 26\nthen\nsupport MA\nsupport CA\nsupport MA")
    assert moves(h) == [("kennedy", "campaign 26"), ("kennedy", "support MA")]
    text = h.text_of(h.last_mail("kennedy"))
    flat = " ".join(text.split())
    assert "your queue stopped: 'support CA' is not possible now" in flat  # at its own question
    assert "the line after it was cancelled" in flat  # one line, not 'the 1 line'
    assert "not legal now (" not in flat  # the reason, once, with no parenthesis inside another
    assert "Queue: empty." in text and "IT IS YOUR MOVE." in text


def test_queue_shown_in_reports_and_cleared_by_cancel(h: Harness) -> None:
    kennedy_to_act(h)
    assert h.reply("nixon", "then\ndecline\nevent 27").outcomes == {"answered": 1}
    text = h.text_of(h.last_mail("nixon"))
    assert "1. decline" in text and "2. event 27" in text
    assert h.reply("nixon", "cancel").outcomes == {"answered": 1}
    text = h.text_of(h.last_mail("nixon"))
    assert "your queued orders are cleared" in text and "Queue: empty." in text
    play_ken_air_point_by_point(h)
    assert moves(h)[-1] == ("kennedy", "support MA")  # nothing applied for Nixon


def test_then_first_while_it_is_your_move_plays_the_first_line_now(h: Harness) -> None:
    kennedy_to_act(h)
    assert h.reply("kennedy", "then\ncampaign 26\nsupport MA\nsupport MA").outcomes == {
        "applied": 1
    }
    assert [c for _, c in moves(h)] == ["campaign 26", "support MA", "support MA"]


def test_settings_apply_only_if_the_mails_moves_apply(h: Harness) -> None:
    kennedy_to_act(h)
    assert h.reply("kennedy", "notify every\nmedia east").outcomes == {"rejected": 1}
    row = orders_row(h, "kennedy")
    assert row is None or row.notify == "decisions"
    assert h.reply("kennedy", "notify sometimes").outcomes == {"rejected": 1}
    text = " ".join(h.text_of(h.last_mail("kennedy")).split())
    assert "expected 'notify decisions', 'notify every', 'notify digest'" in text
    assert "|" not in text.split("Why:")[1].split("--")[0]  # words, not a grammar's bars


def test_cli_sets_notify_mode_and_standing_orders(h: Harness) -> None:
    from click.testing import CliRunner

    from pbem.cli import cli

    env = {
        "PBEM_DATABASE_URL": h.settings.database_url,
        "PBEM_ADDRESS": "game@pbem.test",
        "PBEM_SECRET": "test-secret-of-the-tests",
    }
    run = CliRunner().invoke
    out = run(cli, ["notify", str(h.game_id), "nixon", "digest", "--hour", "7"], env=env)
    assert out.exit_code == 0 and "one mail a day at 07:00 UTC" in out.output
    out = run(cli, ["standing", str(h.game_id), "kennedy", "trigger", "icon"], env=env)
    assert out.exit_code == 0 and "trigger   icon" in out.output
    out = run(cli, ["standing", str(h.game_id), "kennedy", "trigger", "sometimes"], env=env)
    assert (
        out.exit_code == 1
        and "expected 'standing trigger' followed by useful, ask, never, always or icon"
        in out.output
    )
    out = run(cli, ["notify", "99", "nixon", "every"], env=env)
    assert out.exit_code == 1 and "game 99 has no nixon seat" in out.output
    row = orders_row(h, "nixon")
    assert row is not None and (row.notify, row.digest_hour) == ("digest", 7)


@pytest.mark.parametrize(
    ("mode", "over", "deciding", "mine", "unmailed", "mailed"),
    [
        ("decisions", False, True, False, True, True),  # a new decision
        ("decisions", False, True, False, False, False),  # already asked (the other side moved)
        ("decisions", False, True, True, False, True),  # the mover decides again
        ("decisions", False, False, True, True, False),  # the mover is done: nothing to decide
        ("decisions", True, False, False, False, True),  # the game ended
        ("every", False, False, False, False, True),
        ("digest", False, True, True, True, False),  # the daily digest carries it
        ("digest", True, False, False, False, True),  # the end is told at once
    ],
)
def test_should_mail(
    mode: str, over: bool, deciding: bool, mine: bool, unmailed: bool, mailed: bool
) -> None:
    assert (
        notify.should_mail(mode, over=over, deciding=deciding, mine=mine, unmailed=unmailed)
        is mailed
    )


def test_a_line_said_several_times_in_a_row_is_summarised_once_with_its_count() -> None:
    """Five points spent in one state read as one line, not five (a bot's move included)."""
    from pbem.reports.summary import group_log

    def entry(i: int, text: str, to: str | None = None) -> dict[str, Any]:
        return {"i": i, "turn": 1, "text": text, "to": to}

    log = [entry(0, "Nixon plays the candidate card for 5 CP to campaign (R6.9).")]
    log += [entry(i, "Nixon campaigns in California (R7).") for i in range(1, 6)]
    log += [
        entry(6, "Nixon campaigns in Texas (R7)."),
        entry(7, "Nixon campaigns in California (R7)."),
    ]
    log += [entry(8, "You draw: #12.", "kennedy"), entry(9, "You draw: #12.", "nixon")]
    (group,) = group_log(log, 0, "kennedy")
    assert [e["text"] for e in group["entries"]] == [
        "Nixon plays the candidate card for 5 CP to campaign (R6.9).",
        "Nixon campaigns in California (R7) — 5 times.",
        "Nixon campaigns in Texas (R7).",
        "Nixon campaigns in California (R7).",  # not in a row: its own line
        "You draw: #12.",
        "Nixon drew: #12.",  # the other side's (shown once the game is over): never merged
    ]
