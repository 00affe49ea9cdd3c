"""Clocks beside computer players and seat changes: no clock runs for a ``bot:`` seat, a human
playing a bot gets a fresh decision period after each of the bot's replies, a replaced player's
old address is never mailed again, and the autopilot plays with the project's bot."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from sqlmodel import Session, col, select

import bots
import engine
from pbem.clocks.control import parse_control
from pbem.games import setup as game_setup
from pbem.games.seats import change_seat
from pbem.store.models import Move, OutboxMessage
from pbem.worker.worker_pass import worker_pass
from tests.pbem.clockharness import EMAILS, MONDAY, ClockGame, other
from tests.pbem.harness import Harness

H = 3600.0


def bot_clock_game(
    tmp_path: Path, spec: str, *, seed: int = 7, bot_side: str = "nixon", **control: object
) -> ClockGame:
    h = Harness(tmp_path)
    h.settings = h.settings.with_(outage_threshold="1000d")
    seats = {"kennedy": EMAILS["kennedy"], "nixon": EMAILS["nixon"], bot_side: "bot:heuristic"}
    h.game_id = game_setup.new_game(
        h.db, h.settings, seed=seed, now=MONDAY, clock=parse_control(spec, **control), **seats
    )  # type: ignore[arg-type]
    h.send()
    return ClockGame(h)


def moves(g: ClockGame) -> list[Move]:
    with Session(g.h.db) as s:
        return list(s.exec(select(Move).where(Move.game_id == g.h.game_id).order_by(col(Move.seq))))


def test_no_clock_runs_for_a_bot_that_moved_first(tmp_path: Path) -> None:
    for seed in range(1, 40):  # a seed where Nixon (the bot) has the first decision
        g = bot_clock_game(tmp_path / str(seed), "10h", seed=seed, expiry="forfeit", grace="0s")
        if moves(g):
            break
    else:
        pytest.skip("no seed in range gave the bot the first decision")
    assert g.to_move() == "kennedy"
    c = g.clock()
    assert c["sides"]["nixon"]["since"] is None and c["sides"]["kennedy"]["since"] is not None
    for _ in range(12):
        g.advance(hours=1)
        g.tick()
    assert not [e for e in g.events() if e.side == "nixon" and e.kind != "timeout"]
    assert g.game().winner == "nixon" and g.game().ended == "timeout"  # the silent human lost
    assert {r.recipient for r in g.h.outbox()} == {EMAILS["kennedy"]}


def test_a_human_playing_a_bot_gets_a_fresh_period_after_each_bot_reply(tmp_path: Path) -> None:
    g = bot_clock_game(tmp_path, "1d/move", expiry="forfeit", grace="0s", reminders="2h")
    rnd = random.Random(4)
    replies = 0
    fresh = True
    for _ in range(40):  # 5 h to answer a bot: a 1-day pace holds only if each bot reply resets it
        assert g.to_move() == "kennedy"
        # 1 h for each further mail of the same decision (a random player may take several: a
        # trigger, then its own action, then its points one by one, with no bot reply between)
        g.advance(hours=5 if fresh else 1)
        assert g.tick().expired == {}
        bot_moves = sum(m.side == "nixon" for m in moves(g))
        g.reply("kennedy", rnd.choice(engine.legal_commands(g.h.state(), "kennedy")))
        assert g.h.inbound()[-1].outcome == "applied"
        assert g.clock()["sides"]["nixon"]["since"] is None
        fresh = sum(m.side == "nixon" for m in moves(g)) > bot_moves
        if fresh:
            replies += 1
            assert g.left("kennedy") == 24 * H  # a new decision: the whole day again
        if replies == 3:
            break
    assert replies == 3 and g.game().status == "active"
    assert "Clock Nixon: computer player: no clock." in g.text("kennedy")


def test_the_catch_up_of_a_failed_bot_starts_the_humans_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = bot_clock_game(tmp_path, "10h", expiry="forfeit", grace="0s")
    rnd = random.Random(2)
    real = bots.decide

    def broken(*args: object, **kw: object) -> str:
        raise RuntimeError("the bot is down")

    for _ in range(20):  # until the human's move hands the decision to the bot
        assert g.to_move() == "kennedy"
        state = g.h.state()
        monkeypatch.setattr(bots, "decide", broken)
        g.reply("kennedy", rnd.choice(engine.legal_commands(state, "kennedy")))
        monkeypatch.setattr(bots, "decide", real)
        if "nixon" in engine.active_sides(g.h.state()):
            break
    else:
        pytest.skip("the bot never had to decide")
    c = g.clock()
    assert c["sides"]["nixon"]["since"] is None  # the bot's clock does not run while it waits
    g.advance(hours=1)
    g.deliver(b"")  # a worker pass: the bot catches up
    assert g.to_move() == "kennedy"
    assert g.clock()["sides"]["kennedy"]["started"] == g.at.timestamp()


# --- pbem seat ------------------------------------------------------------------------------------


def test_the_replaced_players_address_is_never_mailed_again(tmp_path: Path) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h", expiry="forfeit", grace="1h")
    mover = g.to_move()
    old = EMAILS[mover]
    g.reply(other(mover), "help")  # the opponent writes: unsent mail may wait in the outbox
    g.advance(hours=5)
    tick_report = tick_without_sending(g)
    assert tick_report.reminders == 1  # the 50 % reminder, queued for the old address
    before = len(g.h.sender.sent)
    change_seat(g.h.db, g.h.settings, g.h.game_id, mover, "sub@players.test", now=g.at)
    g.send()
    for _ in range(12):  # the rest of the clock: reminders, out of time, the forfeit
        g.advance(hours=1)
        g.tick()
    later = sent_since(g, before)
    assert later and not [m for m in later if old in m.recipients]
    assert any("sub@players.test" in m.recipients for m in later)
    with Session(g.h.db) as s:
        voided = s.exec(
            select(OutboxMessage).where(
                OutboxMessage.recipient == old, OutboxMessage.status == "cancelled"
            )
        ).all()
    assert voided and all("seat" in r.last_error for r in voided)


def test_the_new_player_is_welcomed_with_the_position_and_what_to_do(tmp_path: Path) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h")
    mover = g.to_move()
    change_seat(g.h.db, g.h.settings, g.h.game_id, mover, "sub@players.test", now=g.at)
    g.send()
    welcome = [m for m in g.h.sender.sent if "sub@players.test" in m.recipients]
    assert len(welcome) == 1
    text = " ".join(g.h.text_of(parse(welcome[0].raw)).split())
    decision = " ".join(engine.decision(g.h.state(), mover).split())
    assert f"You take over {mover.title()}'s seat" in text
    assert decision[:40] in text  # what to decide now
    assert "Clock " + mover.title() in text  # the clocks
    assert EMAILS[mover] not in text  # the old player's address stays private


def test_a_new_player_does_not_inherit_the_old_players_orders(tmp_path: Path) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h")
    mover = g.to_move()
    waiting = other(mover)
    g.reply(waiting, "notify digest")
    assert g.h.inbound()[-1].outcome in ("answered", "applied")
    change_seat(g.h.db, g.h.settings, g.h.game_id, waiting, "sub@players.test", now=g.at)
    from pbem.store.models import SeatOrders

    with Session(g.h.db) as s:
        row = s.get(SeatOrders, g.h.seat(waiting).id)
    assert row is None or (row.notify == "decisions" and row.queue == "[]")


# --- the autopilot --------------------------------------------------------------------------------


def test_the_autopilot_plays_the_heuristic_bots_move_seeded_by_the_game(tmp_path: Path) -> None:
    runs = []
    for run in ("a", "b"):
        g = ClockGame.create(Harness(tmp_path / run), "10h+2h", expiry="autopilot", grace="1h")
        late = g.to_move()
        before = g.h.state()
        for _ in range(23):
            g.advance(minutes=30)
            g.tick()
        played = [m.command for m in moves(g)]
        runs.append(played)
        assert played and all(m.source == "autopilot" for m in moves(g))
        state = engine.copy_state(before)  # the bot's choices, replayed with the same seeds
        from pbem.games.timekeeping.autopilot import seed_for

        for i, cmd in enumerate(played):
            assert cmd == bots.choose_command(
                state, late, "heuristic", None, seed_for(7, 1, state, late)
            ), i
            engine.apply_in_place(state, late, cmd)
        mine = g.text(late)
        assert "computer player" in mine and "ran out" in mine and played[0] in mine
        assert played[0] in g.text(other(late))
    assert runs[0] == runs[1]


def test_the_autopilot_seed_is_not_the_games_seed() -> None:
    from pbem.games.timekeeping.autopilot import seed_for

    state = engine.new_game(1234)
    seed = seed_for(1234, 1, state, "kennedy")
    assert seed != 1234 and seed == seed_for(1234, 1, state, "kennedy")
    assert seed != seed_for(1234, 1, state, "nixon") and seed != seed_for(1234, 2, state, "kennedy")


# --- helpers --------------------------------------------------------------------------------------


def tick_without_sending(g: ClockGame):  # type: ignore[no-untyped-def]
    from pbem.games.timekeeping.tick import tick

    return tick(g.h.db, g.h.settings, now=g.at)


def sent_since(g: ClockGame, index: int) -> list:  # type: ignore[type-arg]
    return list(g.h.sender.sent[index:])


def parse(raw: bytes):  # type: ignore[no-untyped-def]
    import email
    import email.policy

    return email.message_from_bytes(raw, policy=email.policy.default)


# --- the time control in the first mails ------------------------------------------------------------


@pytest.mark.parametrize("invite", [False, True])
def test_the_first_mails_of_a_committed_game_show_its_own_time_control(
    tmp_path: Path, invite: bool
) -> None:
    h = Harness(tmp_path)
    h.game_id = game_setup.new_game(
        h.db,
        h.settings,
        kennedy=EMAILS["kennedy"],
        nixon=EMAILS["nixon"],
        invite=invite,
        now=MONDAY,
        clock=parse_control("4m+1m/8m", expiry="forfeit", grace="1m"),
    )
    h.send()
    text = " ".join(h.text_of(h.mails_to("kennedy")[0]).split())
    assert "Time bank 4 min, +1 min per move handed over, at most 8 min" in text
    assert "3 d" not in text.split("Time control:")[1][:60]  # not the site default
    if not invite:
        g = ClockGame(h)
        assert g.left(g.to_move()) == 240


# --- what the clock mails say (found playing by mail) ------------------------------------------------


def test_reminders_say_until_when_and_what_to_do_and_the_result_says_who_won(
    tmp_path: Path,
) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h", expiry="forfeit", grace="1h", reminders="50%")
    late = g.to_move()
    for _ in range(12):
        g.advance(hours=1)
        g.tick()
    reminder = next(i for i, s in enumerate(g.subjects(late)) if "Reminder" in s)
    text = g.text(late, reminder)
    assert "until Mon 2026-11-30 10:00 UTC, to decide:" in text
    assert "Reply to this mail with your move" in text and "'vacation 3d'" in text
    assert "grace, until Mon 2026-11-30 11:00 UTC; if you have not moved by then, you lose" in text
    up = g.text(late, next(i for i, s in enumerate(g.subjects(late)) if "time is up" in s))
    assert "of grace, until Mon 2026-11-30 11:00 UTC, to decide" in up
    assert "Clock " + late.title() + ": out of time by " in up and "0 (over" not in up
    assert "they lose the game on time and you win" in g.text(other(late), -2)
    result = g.text(other(late))
    assert "RESULT ---" in result and f"The winner: {other(late).title()}, on time." in result
    assert "The game has ended." not in result
    from pbem.games.timekeeping.display import clock_line

    assert clock_line(g.game(), g.at) == f"{other(late)} won on time"  # `pbem games`


def test_a_vacation_answer_has_a_plain_subject_and_a_move_says_welcome_back(tmp_path: Path) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h")
    mover = g.to_move()
    g.reply(mover, "vacation 2d")
    assert g.subjects(mover)[-1].endswith(
        "You are on vacation until Wed 2026-12-02 00:00 UTC: both clocks are stopped"
    )
    g.advance(hours=3)
    g.reply(mover, engine.legal_commands(g.h.state(), mover)[0], to_mail=g.h.mails_to(mover)[-2])
    assert g.h.inbound()[-1].outcome == "applied"
    assert [e.kind for e in g.events("vacation_end")] == ["vacation_end"]
    assert "paused" not in g.text(other(mover))  # the opponent's report: the clocks run again


def test_a_player_sees_times_in_their_time_zone(tmp_path: Path) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h", expiry="forfeit", grace="1h", reminders="50%")
    mover = g.to_move()
    g.reply(mover, "timezone europe/berlin")
    assert (
        "Times in your mails are now shown in Europe/Berlin: now is Mon 2026-11-30 01:00 CET"
        in g.text(mover)
    )
    g.reply(mover, "timezone Mars/Olympus")
    assert g.h.inbound()[-1].outcome == "rejected" and "not a time zone name" in g.text(mover)
    g.advance(hours=5)
    g.tick()
    reminder = g.text(mover)
    assert "until Mon 2026-11-30 11:00 CET, to decide" in reminder  # 10:00 UTC
    assert "grace, until Mon 2026-11-30 12:00 CET" in reminder
    g.reply(mover, "vacation 2026-12-02")  # midnight in Berlin, 23:00 UTC the day before
    assert "You are on vacation until Wed 2026-12-02 00:00 CET" in g.text(mover)
    assert f"{mover.title()} is on vacation until Tue 2026-12-01 23:00 UTC" in g.text(other(mover))
    g.reply(mover, "timezone UTC")
    assert "shown in UTC" in g.text(mover)
    assert "zones" not in g.clock() or mover not in g.clock()["zones"]


# --- a worker pass: the mail before the clocks ---------------------------------------------------------


def test_a_move_waiting_in_the_inbox_when_the_clock_runs_out_is_played_not_forfeited(
    tmp_path: Path,
) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h", expiry="forfeit", grace="0s")
    mover = g.to_move()
    g.advance(hours=9, minutes=59)
    g.tick()
    move = engine.legal_commands(g.h.state(), mover)[0]
    g.h.inbox.deliver(g.h.reply_bytes(mover, move))  # sent in time; the worker runs at 10:05
    g.advance(minutes=6)
    report = worker_pass(g.h.db, g.h.settings, inbox=g.h.inbox, now=g.at)
    assert report.mail.outcomes["applied"] == 1 and report.clocks.expired == {}
    assert g.game().status == "active" and not g.game().ended


def test_after_an_outage_a_worker_pass_reads_the_mail_but_expires_nothing(tmp_path: Path) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h", expiry="forfeit", grace="0s", outage="2h")
    g.tick()
    g.advance(hours=30)  # the worker was down
    report = worker_pass(g.h.db, g.h.settings, now=g.at).clocks
    assert report.outage is not None and report.expired == {}
    assert g.game().status == "active"
