"""Clocks and seats through the server, with an injected clock (no sleeping): reminders, grace,
each expiry policy, vacations, resign, claim, addresses, the operator's seat change, the outage
guard, the migration of games from before clocks."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlmodel import Session, select

import engine
from pbem.games import views as game_views
from pbem.games.seats import change_seat
from pbem.games.timekeeping.tick import tick
from pbem.store import models
from pbem.store.models import Game, Move
from tests.pbem.clockharness import EMAILS, MONDAY, ClockGame, other
from tests.pbem.harness import Harness

H = 3600.0


def _walk(g: ClockGame, hours: float, step_minutes: int = 30) -> None:
    for _ in range(int(hours * 60 / step_minutes)):
        g.advance(minutes=step_minutes)
        g.tick()


def test_a_silent_player_gets_each_reminder_once_then_forfeits(tmp_path: Path) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h", expiry="forfeit", grace="1h")
    late = g.to_move()
    _walk(g, 12)
    subjects = g.subjects(late)
    reminders = [s for s in subjects if "Reminder" in s]
    assert [re.search(r"Reminder: (.*) left", s).group(1) for s in reminders] == [  # type: ignore[union-attr]
        "5 h",
        "2 h",
        "1 h",
    ]  # 50 %, 2 h, 90 % of a 10 h bank (no 24 h rung)
    assert sum("Your time is up" in s for s in subjects) == 1
    game = g.game()
    assert (game.status, game.ended, game.winner) == ("over", "timeout", other(late))
    for side in engine.SIDES:
        last = g.h.last_mail(side)
        assert f"{other(late).title()} wins (on time)" in str(last["Subject"])
        assert "ran out of time" in g.h.text_of(last)
    assert {e.kind for e in g.events()} >= {"reminder", "out_of_time", "timeout"}
    before = len(g.h.sender.sent)
    _walk(g, 3)
    assert len(g.h.sender.sent) == before  # nothing more for an ended game


def test_reports_show_both_clocks_the_time_control_and_vacation_left(tmp_path: Path) -> None:
    g = ClockGame.create(Harness(tmp_path), "72h+36h/240h", vacation_days=14)
    body = g.text("kennedy")
    assert "Clock Kennedy: 3 d left" in body and "Clock Nixon: 3 d left" in body
    assert "Time control: Time bank 3 d, +1 d 12 h per move handed over" in body
    assert "Your vacation left this year: 14 d" in body
    assert "Clock Kennedy" in str(g.h.last_mail("kennedy").get_body(("html",)).get_content())  # type: ignore[union-attr]
    mover = g.to_move()
    g.advance(hours=10)
    g.reply(mover, "first kennedy")
    body = g.text(other(mover))  # the opponent's report (the mover may get none: notify modes)
    assert f"Clock {mover.title()}: 4 d 2 h left, stopped" in body  # 62 h + 36 h
    rows = game_views.games(g.h.db)
    assert "kennedy on the move" in rows[0].clocks


def test_claim_policy_offers_the_opponent_the_win_and_claim_ends_the_game(tmp_path: Path) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h", expiry="claim", grace="2h")
    late = g.to_move()
    opp = other(late)
    g.advance(hours=5)
    g.reply(opp, "claim")
    assert "is not out of time" in g.text(opp)
    _walk(g, 13)
    assert any("you may claim the win" in s for s in g.subjects(opp))
    assert g.game().status == "active"
    g.reply(opp, "claim", to_mail=g.h.last_mail(opp))
    game = g.game()
    assert (game.status, game.ended, game.winner) == ("over", "timeout", opp)
    assert "game over" in str(g.h.last_mail(late)["Subject"])


def test_a_late_move_withdraws_the_claim(tmp_path: Path) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h+1h", expiry="claim", grace="0s")
    late = g.to_move()
    _walk(g, 11)
    g.reply(late, "first kennedy")
    assert g.left(late) == 1 * H  # an overdrawn bank is cleared, then the increment
    g.reply(other(late), "claim")
    assert g.game().status == "active"


def test_autopilot_plays_a_legal_default_and_the_log_says_so(tmp_path: Path) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h+2h", expiry="autopilot", grace="1h")
    late = g.to_move()
    _walk(g, 11.5)
    with Session(g.h.db) as s:
        moves = list(s.exec(select(Move).where(Move.game_id == g.h.game_id)))
    assert moves and all(m.source == "autopilot" and m.side == late for m in moves)
    assert game_views.replay(g.h.db, g.h.game_id).ok
    assert any(
        "ran out of time: the computer played for them" in s for s in g.subjects(other(late))
    )
    assert any("the computer played for you" in s for s in g.subjects(late))
    # asked again (the autopilot answers one question): a new period of the increment, 2 h,
    # half an hour of it gone by the last tick
    assert late not in engine.active_sides(g.h.state()) or g.left(late) == 1.5 * H


def test_vacation_by_mail_pauses_both_clocks_and_ends_early_on_a_move(tmp_path: Path) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h", vacation_days=5)
    mover = g.to_move()
    g.advance(hours=1)
    g.reply(mover, "vacation 2d")
    assert "You are on vacation until" in g.text(mover)
    assert "on vacation until" in g.text(other(mover))
    assert any("is on vacation" in s for s in g.subjects(other(mover)))
    _walk(g, 30)
    assert g.left(mover) == 9 * H  # nothing charged while on vacation, no reminder
    assert not any("Reminder" in s for s in g.subjects(mover))
    g.reply(mover, "first kennedy")
    c = g.clock()
    assert c["sides"][mover]["vac_until"] is None
    assert c["sides"][mover]["vac_left"] == pytest.approx(5 * 86400 - 31 * H + H, abs=1)
    assert [e.kind for e in g.events() if e.kind.startswith("vacation")] == [
        "vacation",
        "vacation_end",
    ]


def test_vacation_ends_by_itself_and_both_are_told(tmp_path: Path) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h", vacation_days=40)
    mover = g.to_move()
    g.reply(mover, "vacation 2027-01-03")
    assert "Sun 2027-01-03 00:00 UTC" in g.text(mover)
    g.at = MONDAY + timedelta(days=34, minutes=10)
    g.tick()
    for side in engine.SIDES:
        assert "vacation is over" in g.subjects(side)[-1]
    assert g.left(mover) == pytest.approx(10 * H - 10 * 60, abs=1)


def test_vacation_refusals_explain_and_change_nothing(tmp_path: Path) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h", vacation=False)
    g.reply("kennedy", "vacation 3d")
    assert "--no-vacation" in g.text("kennedy")
    h2 = Harness(tmp_path / "b")
    g2 = ClockGame.create(h2, "10h", vacation_days=2)
    g2.reply("nixon", "vacation 5d")
    assert "2 d left this year" in g2.text("nixon")
    g2.reply("nixon", "vacation soon")
    assert "'vacation 2027-01-03'" in g2.text("nixon")
    assert g2.clock()["sides"]["nixon"]["vac_until"] is None


def test_resign_needs_the_confirmation_code(tmp_path: Path) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h")
    g.reply("kennedy", "resign")
    body = g.text("kennedy")
    code = re.search(r"resign ([A-Z2-7]{6})", body).group(1)  # type: ignore[union-attr]
    assert g.game().status == "active"
    g.reply("kennedy", "resign AAAAAA")
    assert "not the confirmation code" in g.text("kennedy") and g.game().status == "active"
    g.reply("kennedy", f"resign {code}")
    game = g.game()
    assert (game.status, game.ended, game.winner) == ("over", "resigned", "nixon")
    for side in engine.SIDES:
        assert "Nixon wins (by resignation)" in str(g.h.last_mail(side)["Subject"])
        assert "Kennedy resigned: Nixon wins the game." in g.text(side)
    assert [e.kind for e in g.events("resigned")] == ["resigned"]


def test_address_add_is_confirmed_from_the_new_address(tmp_path: Path) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h")
    mover = g.to_move()
    new = "jack.mobile@players.test" if mover == "kennedy" else "dick.mobile@players.test"
    g.mail_from(new, g.h.last_mail(mover), "first kennedy")  # not yet: dropped, nobody answered
    assert g.h.inbound()[-1].outcome == "ignored"
    g.reply(mover, f"address add {new}")
    confirm = [
        m
        for rc, m in zip([x.recipients for x in g.h.sender.sent], _parsed(g), strict=True)
        if new in rc
    ]
    assert len(confirm) == 1
    code = re.search(
        r"address confirm ([A-Z2-7]{6})", " ".join(g.h.text_of(confirm[0]).split())
    ).group(1)  # type: ignore[union-attr]
    g.reply(mover, f"address confirm {code}")  # from the old address: refused
    assert "send it from the new address" in g.text(mover)
    g.mail_from(new, confirm[0], "first kennedy")  # the pending address may only confirm
    assert g.h.inbound()[-1].outcome == "ignored"
    g.mail_from(new, confirm[0], f"address confirm {code}")
    assert any("added an address" in s for s in g.subjects(other(mover)))
    g.mail_from(new, g.h.last_mail(mover), "first kennedy")
    assert g.h.inbound()[-1].outcome == "applied"
    g.reply(mover, f"address use {new}", to_mail=g.h.mails_to(mover)[0])  # a stale key is fine here
    with Session(g.h.db) as s:
        seat = s.exec(select(models.Seat).where(models.Seat.side == mover)).one()  # type: ignore[attr-defined]
    assert seat.email == new and EMAILS[mover] in seat.aliases


def _parsed(g: ClockGame) -> list:  # type: ignore[type-arg]
    import email
    import email.policy

    return [email.message_from_bytes(m.raw, policy=email.policy.default) for m in g.h.sender.sent]


def test_the_operator_hands_a_seat_to_a_new_player_with_a_fresh_key(tmp_path: Path) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h")
    mover = g.to_move()
    old_mail = g.h.last_mail(mover)
    detail = change_seat(g.h.db, g.h.settings, g.h.game_id, mover, "sub@players.test", now=g.at)
    assert "(operator)" in detail
    g.send()
    sent = _parsed(g)
    welcome = [
        m for m, x in zip(sent, g.h.sender.sent, strict=True) if "sub@players.test" in x.recipients
    ]
    assert len(welcome) == 1 and f"You now play {mover.title()}" in str(welcome[0]["Subject"])
    assert "has a new player" in g.subjects(other(mover))[-1]
    g.mail_from("sub@players.test", old_mail, "first kennedy")  # the old key is void
    assert g.h.inbound()[-1].outcome in ("rejected", "ignored")
    g.mail_from("sub@players.test", welcome[0], "first kennedy")
    assert g.h.inbound()[-1].outcome == "applied"
    assert [e.kind for e in g.events("seat")] == ["seat"]


def test_the_outage_guard_credits_the_gap_and_expires_nothing_in_that_pass(tmp_path: Path) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h", expiry="forfeit", grace="0s", outage="2h")
    late = g.to_move()
    g.advance(hours=1)
    g.tick()
    g.advance(days=3)  # the worker was down
    report = g.tick()
    assert report.outage is not None and report.credited == 1 and "OUTAGE" in report.summary()
    assert g.game().status == "active" and g.left(late) == 9 * H
    g.advance(minutes=5)
    assert g.tick().outage is None and g.game().status == "active"
    _walk(g, 10, step_minutes=60)
    assert g.game().status == "over"


def test_overlapping_ticks_record_each_reminder_once(tmp_path: Path) -> None:
    import threading

    g = ClockGame.create(Harness(tmp_path), "10h")
    g.advance(hours=5, minutes=1)
    barrier = threading.Barrier(4)
    reports = []

    def run() -> None:
        barrier.wait()
        reports.append(tick(g.h.db, g.h.settings, now=g.at))

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(r.reminders for r in reports) == 1
    assert len(g.events("reminder")) == 1
    assert sum(r.kind == "notice" for r in g.h.outbox()) == 1


def test_games_from_before_clocks_get_the_site_default(tmp_path: Path) -> None:
    from alembic import command

    from pbem.store.db import alembic_config, make_engine, migrate

    db = make_engine(f"sqlite:///{tmp_path}/old.db")
    cfg = alembic_config(db)
    with db.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0004")
    snap = engine.to_json(engine.new_game(4))
    with db.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO game (seed, edition, options, status, snapshot, version, "
                "created_at, updated_at) VALUES (4, 'zman', '', 'active', :s, 0, :t, :t)"
            ),
            {"s": snap, "t": MONDAY},
        )
        for side, addr in EMAILS.items():
            conn.execute(
                text(
                    "INSERT INTO seat (game_id, side, email, key_salt, key_gen, "
                    "decision_sig, last_log, thread_root) VALUES (1, :side, :a, 'ab', 1, "
                    "'', 0, '')"
                ),
                {"side": side, "a": addr},
            )
    before, after = migrate(db)
    assert before == "0004" and after != "0004"
    h = Harness(tmp_path)
    settings = h.settings.with_(database_url=str(db.url), clock="5d+1d/10d", clock_expiry="forfeit")
    report = tick(db, settings, now=MONDAY + timedelta(days=1))
    assert report.started == 1
    with Session(db) as s:
        game = s.get(Game, 1)
        assert game is not None and game.clock is not None
        assert '"expiry": "forfeit"' in game.clock and game.clock_due is not None
