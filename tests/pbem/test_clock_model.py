"""The pure clock model with an injected clock: banks, increments, caps, simultaneous decisions,
weekend pause, vacations, the reminder ladder, grace, the outage credit. No sleeping."""

from __future__ import annotations

import calendar

import pytest

import bots
import engine
from engine.forced import deciding_step
from pbem.clocks import model
from pbem.clocks.control import (
    ClockSpecError,
    fmt_duration,
    parse_control,
    parse_duration,
    parse_reminders,
)
from pbem.games.timekeeping.autopilot import NEW_QUESTIONS, choose_command, play_for, seed_for

H = 3600.0
D = 86400.0
MONDAY = float(calendar.timegm((2026, 11, 30, 0, 0, 0)))  # a Monday, 00:00 UTC
FRIDAY_NOON = MONDAY + 4 * D + 12 * H
K, N = "kennedy", "nixon"


def bank(spec: str = "72h+36h/240h", **kw: object) -> model.ClockState:
    return model.start(parse_control(spec, **kw), MONDAY, {K})  # type: ignore[arg-type]


# --- spelling ------------------------------------------------------------------------------------


def test_durations_and_controls_are_read_and_spelled_back() -> None:
    assert parse_duration("1d12h") == 36 * H
    assert parse_duration("90m") == 5400 and parse_duration("30s") == 30
    c = parse_control("72h+36h/240h")
    assert (c.mode, c.initial, c.increment, c.cap) == ("bank", 72 * H, 36 * H, 240 * H)
    assert c.spec == "3d+36h/10d" and parse_control(c.spec) == c
    assert parse_control("3d/move").mode == "pace" and parse_control("3d/move").spec == "3d/move"
    assert not parse_control("none").enabled
    assert fmt_duration(2 * D + 4 * H + 5) == "2 d 4 h" and fmt_duration(45) == "45 s"
    assert [r.label for r in parse_reminders("50%,90%,24h,2h")] == ["50%", "90%", "24h", "2h"]


@pytest.mark.parametrize("bad", ["72x", "", "+36h", "72h+36h/10h", "0h+1h", "3q/move"])
def test_bad_clock_specs_say_what_was_wrong(bad: str) -> None:
    with pytest.raises(ClockSpecError) as err:
        parse_control(bad)
    assert bad.strip() in str(err.value) or "empty" in str(err.value)


def test_bad_policy_is_refused() -> None:
    with pytest.raises(ClockSpecError, match="forfeit, claim, autopilot"):
        parse_control("72h", expiry="resign")


# --- banks ---------------------------------------------------------------------------------------


def test_only_the_deciding_sides_clock_runs_and_the_increment_is_credited_on_handover() -> None:
    c = bank()
    assert model.left(c, K, MONDAY + 10 * H) == 62 * H
    assert model.left(c, N, MONDAY + 10 * H) == 72 * H  # stopped
    model.handover(c, {K}, {N}, K, MONDAY + 10 * H)
    assert model.left(c, K, MONDAY + 50 * H) == 62 * H + 36 * H
    assert model.left(c, N, MONDAY + 50 * H) == 32 * H


def test_the_bank_never_exceeds_its_cap_and_an_overdrawn_bank_is_cleared_first() -> None:
    c = bank("72h+36h/80h")
    model.handover(c, {K}, {N}, K, MONDAY + 1 * H)
    assert model.left(c, K, MONDAY + 2 * H) == 80 * H  # 71 + 36 capped at 80
    c = bank("10h+5h")
    model.handover(c, {K}, {N}, K, MONDAY + 30 * H)  # 20 h over
    assert model.left(c, K, MONDAY + 31 * H) == 5 * H


def test_a_move_that_keeps_the_decision_earns_no_increment() -> None:
    c = bank()
    model.handover(c, {K}, {K}, K, MONDAY + 4 * H)
    assert model.left(c, K, MONDAY + 4 * H) == 68 * H
    assert c["sides"][K]["period"] == 1


def test_pace_gives_a_fresh_allowance_for_every_decision() -> None:
    c = bank("3d/move")
    model.handover(c, {K}, {N}, K, MONDAY + 2 * D)
    model.handover(c, {N}, {K}, N, MONDAY + 2 * D + 1 * H)
    assert model.left(c, K, MONDAY + 2 * D + 1 * H) == 3 * D
    assert model.left(c, N, MONDAY + 3 * D) == 3 * D  # stopped at its fresh allowance


def test_simultaneous_decisions_run_both_clocks_until_each_has_chosen() -> None:
    c = bank()
    model.handover(c, {K}, {K, N}, K, MONDAY + 1 * H)  # e.g. the strategy phase (R11)
    assert model.left(c, K, MONDAY + 5 * H) == 67 * H and model.left(c, N, MONDAY + 5 * H) == 68 * H
    model.handover(c, {K, N}, {N}, K, MONDAY + 5 * H)
    assert model.left(c, K, MONDAY + 9 * H) == 67 * H + 36 * H
    assert model.left(c, N, MONDAY + 9 * H) == 64 * H


def test_weekend_pause_charges_only_weekdays() -> None:
    assert model.chargeable(FRIDAY_NOON, FRIDAY_NOON + 3 * D, True) == 24 * H
    assert model.chargeable(FRIDAY_NOON, FRIDAY_NOON + 3 * D, False) == 72 * H
    assert model.wall_after(FRIDAY_NOON, 24 * H, True) == FRIDAY_NOON + 3 * D
    c = model.start(parse_control("72h", weekend_pause=True), FRIDAY_NOON, {K})
    assert model.left(c, K, FRIDAY_NOON + 2 * D) == 60 * H  # Friday's 12 h only
    assert model.deadline(c, K) == FRIDAY_NOON + 2.5 * D + 60 * H


# --- vacation ------------------------------------------------------------------------------------


def test_vacation_stops_both_clocks_and_ends_on_time() -> None:
    c = bank(vacation_days=10)
    model.handover(c, {K}, {K, N}, K, MONDAY + 2 * H)
    model.start_vacation(c, N, MONDAY + 2 * H, MONDAY + 2 * H + 3 * D)
    assert model.on_vacation(c, N, MONDAY + 1 * D)
    assert model.left(c, K, MONDAY + 2 * D) == 70 * H  # paused for both
    assert model.vacation_left(c, N, MONDAY + 1 * D) == 7 * D
    end = MONDAY + 2 * H + 3 * D
    assert [d.kind for d in model.due(c, end + 10)] == ["vacation_over"]
    assert model.end_vacation(c, N, end + 10) == 0
    assert model.left(c, K, end + 10 + 1 * H) == 69 * H - 10  # the 10 s after the end count too
    assert not model.on_vacation(c, N, end + 20)


def test_vacation_ends_early_and_the_unused_days_go_back() -> None:
    c = bank(vacation_days=10)
    model.start_vacation(c, K, MONDAY, MONDAY + 5 * D)
    assert model.vacation_left(c, K, MONDAY) == 5 * D
    refund = model.end_vacation(c, K, MONDAY + 1 * D)
    assert refund == 4 * D and model.vacation_left(c, K, MONDAY + 1 * D) == 9 * D
    assert model.left(c, K, MONDAY + 1 * D + 5 * H) == 67 * H


def test_vacation_refusals_say_why() -> None:
    c = bank(vacation_days=2)
    with pytest.raises(model.VacationError, match="2 d left this year"):
        model.start_vacation(c, K, MONDAY, MONDAY + 5 * D)
    with pytest.raises(model.VacationError, match="--no-vacation"):
        model.start_vacation(bank(vacation=False), K, MONDAY, MONDAY + D)
    with pytest.raises(model.VacationError, match="no clock"):
        model.start_vacation(bank("none"), K, MONDAY, MONDAY + D)
    model.start_vacation(c, K, MONDAY, MONDAY + D)
    with pytest.raises(model.VacationError, match="already on vacation"):
        model.start_vacation(c, K, MONDAY + H, MONDAY + 2 * H)


def test_the_vacation_allowance_is_yearly() -> None:
    c = bank(vacation_days=3)
    model.start_vacation(c, K, MONDAY, MONDAY + 3 * D)
    model.end_vacation(c, K, MONDAY + 3 * D)
    assert model.vacation_left(c, K, MONDAY + 4 * D) == 0
    new_year = float(calendar.timegm((2027, 1, 2, 0, 0, 0)))
    assert model.vacation_left(c, K, new_year) == 3 * D
    model.start_vacation(c, K, new_year, new_year + 2 * D)


# --- reminders, grace, expiry ---------------------------------------------------------------------


def _walk(c: model.ClockState, until: float, step: float = 600) -> list[tuple[float, str]]:
    """Call `due` every ``step`` seconds like a cron tick; record and mark what fires."""
    fired: list[tuple[float, str]] = []
    t = MONDAY
    while t <= until:
        for d in model.due(c, t):
            fired.append((t, d.label or d.kind))
            model.mark(c, d)
            assert d not in model.due(c, t)  # marked: never twice
        t += step
    return fired


def test_each_reminder_fires_once_in_ladder_order_then_out_of_time_then_expiry() -> None:
    c = bank("72h+36h/240h", grace="12h")
    fired = _walk(c, MONDAY + 100 * H)
    assert [label for _, label in fired] == ["50%", "24h", "90%", "2h", "out", "expired"]
    times = dict((label, t) for t, label in fired)
    assert times["50%"] == MONDAY + 36 * H and times["24h"] == MONDAY + 48 * H
    assert times["90%"] == pytest.approx(MONDAY + 64.8 * H, abs=600)
    assert times["out"] == MONDAY + 72 * H and times["expired"] == MONDAY + 84 * H


def test_next_due_names_the_moment_the_next_item_fires() -> None:
    c = bank("72h+36h/240h", grace="12h")
    seen = []
    for _ in range(6):
        nxt = model.next_due(c)
        assert nxt is not None
        assert model.due(c, nxt - 1) == []
        items = model.due(c, nxt)
        assert len(items) == 1
        seen.append(items[0].label)
        model.mark(c, items[0])
    assert seen == ["50%", "24h", "90%", "2h", "out", "expired"]
    assert model.next_due(c) is None


def test_reminders_that_would_fire_at_once_are_skipped_and_late_ones_collapse() -> None:
    c = model.start(parse_control("10h", grace="0s"), MONDAY, {K})
    labels = [label for _, label in _walk(c, MONDAY + 11 * H)]
    assert labels == ["50%", "2h", "90%", "expired"]  # no 24 h reminder for a 10 h bank, no grace
    c = bank()
    late = model.due(c, MONDAY + 71 * H)  # a tick that comes late sees only the most urgent
    assert [d.label for d in late] == ["2h"]
    model.mark(c, late[0])
    assert model.due(c, MONDAY + 71 * H) == []


def test_a_new_decision_period_resets_the_ladder() -> None:
    c = bank()
    _walk(c, MONDAY + 40 * H)
    model.handover(c, {K}, {N}, K, MONDAY + 40 * H)
    model.handover(c, {N}, {K}, N, MONDAY + 41 * H)
    assert c["sides"][K]["done"] == []
    assert model.left(c, K, MONDAY + 41 * H) == 32 * H + 36 * H


def test_nothing_is_due_while_the_game_is_paused() -> None:
    c = bank()
    model.start_vacation(c, N, MONDAY + 1 * H, MONDAY + 10 * D)
    assert [d.kind for d in model.due(c, MONDAY + 9 * D)] == []
    assert model.next_due(c) == MONDAY + 10 * D


def test_the_outage_credit_charges_only_up_to_the_last_tick() -> None:
    c = bank()
    model.credit_gap(c, MONDAY + 10 * H, MONDAY + 60 * H)
    assert model.left(c, K, MONDAY + 60 * H) == 62 * H
    assert model.due(c, MONDAY + 60 * H) == []


def test_autopilot_plays_the_heuristic_bots_commands_for_the_question_asked_only() -> None:
    g = engine.new_game(3)
    for _ in range(200):
        sides = sorted(engine.active_sides(g))
        if not sides:
            break
        side = sides[0]
        seed = seed_for(3, 1, g, side)
        cmd = choose_command(g, side, seed)
        assert cmd in engine.legal_commands(g, side)
        assert cmd == bots.choose_command(g, side, "heuristic", None, seed)
        g, played = play_for(g, side, 3, 1)
        assert played and all(m.reason for m in played)
        now = deciding_step(g, side)  # done, or asked a new question: the autopilot stopped
        assert now is None or now in NEW_QUESTIONS
    assert choose_command(g, "kennedy" if "nixon" in engine.active_sides(g) else "nixon", 0) is None
