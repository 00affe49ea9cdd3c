"""The running game clock, pure: banks, hand-overs, vacations, what is due — with time passed in.

Nothing here reads the time or touches a database. Times are seconds since the
epoch (UTC) and every function takes ``now``. A clock is a plain JSON-able dict
(`ClockState`) stored on the game row; its ``control`` is a `TimeControl` dict.

Accounting: a side's ``bank`` is what it had left at ``since`` (when its clock
last started or was settled); while it runs, what is left at ``now`` is
``bank`` minus the *chargeable* seconds from ``since`` to ``now`` — weekends
(Saturday and Sunday UTC) are free when the control pauses them, and nothing is
charged while either player is on vacation (the game is paused). The clock runs
only while that side must decide; both run during simultaneous decisions.

What is due (`due`) is recorded in the side's ``done`` list for the current
decision period, so each reminder, the out-of-time notice and the expiry act
happen once per period whatever calls `due` and how often.
"""

from __future__ import annotations

import calendar
import copy
import math
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Required, TypedDict
from zoneinfo import ZoneInfo, available_timezones

from pbem.clocks.control import TimeControl, fmt_duration

__all__ = [
    "ClockState",
    "Due",
    "SideClock",
    "VacationError",
    "chargeable",
    "credit_gap",
    "due",
    "end_vacation",
    "handover",
    "left",
    "mark",
    "mark_before",
    "next_due",
    "on_vacation",
    "paused_until",
    "restore",
    "robots",
    "settle",
    "start",
    "start_vacation",
    "sync",
    "tz_of",
    "wall_after",
]

SIDES = ("kennedy", "nixon")
DAY = 86400.0
EPOCH_THURSDAY = 3  # 1970-01-01 was a Thursday (Monday = 0)


class SideClock(TypedDict):
    bank: float  # seconds left as of `since` (or at the stop)
    since: float | None  # running since (None: stopped, not this side's decision)
    period: int  # decision periods started so far
    avail: float  # the bank when the current period started (the base of % reminders)
    done: list[str]  # reminders and acts done in this period: "50%", "24h", "out", "expired"
    vac_until: float | None  # on vacation until
    vac_left: float  # vacation seconds left this year
    vac_year: int
    started: float | None  # when the current decision period began (None: not deciding)


class ClockState(TypedDict, total=False):
    control: Required[dict[str, Any]]
    sides: Required[dict[str, SideClock]]
    robots: list[str]  # sides played by the computer (``bot:`` seats): their clock never runs
    zones: dict[str, str]  # side -> IANA time zone its mails show times in (default UTC)
    before: dict[str, Any]  # the sides before the last move, for its undo (`mark_before`)


@dataclass(frozen=True)
class Due:
    """One thing that is due: ``kind`` in reminder | out_of_time | expire | vacation_over."""

    kind: str
    side: str
    label: str = ""  # the reminder's label
    left: float = 0.0  # seconds left (negative: over time)


class VacationError(ValueError):
    """A vacation request that cannot be granted (the message says why and what is possible)."""


def control_of(c: ClockState) -> TimeControl:
    return TimeControl.from_dict(c["control"])


def _year(now: float) -> int:
    return time.gmtime(now).tm_year


def start(control: TimeControl, now: float, active: Iterable[str]) -> ClockState:
    """A fresh clock; the sides in ``active`` start their first decision now."""
    sides: dict[str, SideClock] = {}
    for side in SIDES:
        sides[side] = SideClock(
            bank=control.initial,
            since=None,
            period=0,
            avail=control.initial,
            done=[],
            vac_until=None,
            vac_left=control.vacation_days * DAY,
            vac_year=_year(now),
            started=None,
        )
    c = ClockState(control=control.to_dict(), sides=sides)
    for side in active:
        _begin_period(c, control, side, now)
    return c


# --- chargeable time ---------------------------------------------------------------------------


def _weekend(day_index: int) -> bool:
    return (day_index + EPOCH_THURSDAY) % 7 >= 5


def chargeable(a: float, b: float, weekend_pause: bool) -> float:
    """Seconds in [a, b) that count: all of them, or only Monday-Friday (UTC) when paused."""
    if b <= a:
        return 0.0
    if not weekend_pause:
        return b - a
    total, t = 0.0, a
    while t < b:
        day = int(t // DAY)
        end = min(b, (day + 1) * DAY)
        if not _weekend(day):
            total += end - t
        t = end
    return total


def wall_after(a: float, charge: float, weekend_pause: bool) -> float:
    """The first moment t >= a with ``chargeable(a, t) == charge`` (inverse of `chargeable`)."""
    if charge <= 0:
        return a
    if not weekend_pause:
        return a + charge
    t, need = a, charge
    while True:
        day = int(t // DAY)
        end = (day + 1) * DAY
        if not _weekend(day):
            if t + need <= end:
                return t + need
            need -= end - t
        t = end


def paused_until(c: ClockState) -> float | None:
    """The end of the latest vacation on record (the game is paused until then), or None."""
    ends = [sc["vac_until"] for sc in c["sides"].values() if sc["vac_until"] is not None]
    return max(ends) if ends else None


def on_vacation(c: ClockState, side: str, now: float) -> bool:
    until = c["sides"][side]["vac_until"]
    return until is not None and until > now


def _charge(c: ClockState, since: float, now: float) -> float:
    pause = paused_until(c)
    begin = max(since, pause) if pause is not None else since
    return chargeable(begin, now, bool(c["control"]["weekend_pause"]))


def left(c: ClockState, side: str, now: float) -> float:
    """Seconds ``side`` has left at ``now`` (negative once over time)."""
    sc = c["sides"][side]
    if sc["since"] is None:
        return sc["bank"]
    return sc["bank"] - _charge(c, sc["since"], now)


def settle(c: ClockState, now: float) -> None:
    """Charge the running clocks up to ``now`` and restart their accounting from there."""
    for side, sc in c["sides"].items():
        if sc["since"] is not None and sc["since"] < now:
            sc["bank"] = left(c, side, now)
            sc["since"] = now


def _begin_period(c: ClockState, control: TimeControl, side: str, now: float) -> None:
    sc = c["sides"][side]
    if control.mode == "pace":
        sc["bank"] = control.initial
    sc["since"] = now
    sc["started"] = now
    sc["period"] += 1
    sc["avail"] = sc["bank"]
    sc["done"] = []


def robots(c: ClockState) -> set[str]:
    """The sides played by the computer: no clock runs for them."""
    return set(c.get("robots", []))


def handover(
    c: ClockState,
    before: Iterable[str],
    after: Iterable[str],
    mover: str | None,
    now: float,
    *,
    autopilot: bool = False,
) -> None:
    """The deciding sides changed from ``before`` to ``after`` after ``mover``'s move.

    A side that stops deciding stops its clock; if it is the mover it is credited the
    increment (never above the cap; an overdrawn bank is first cleared to 0). A move made by
    the autopilot leaves the bank at the increment alone. A side that starts deciding starts
    a new period (pace: a fresh allowance). A computer-played side never starts its clock.
    """
    control = control_of(c)
    settle(c, now)
    was, now_on = set(before), set(after) - robots(c)
    for side in SIDES:
        sc = c["sides"][side]
        if side in was and side not in now_on:
            sc["since"] = sc["started"] = None
            if control.mode == "pace":
                sc["bank"] = control.initial  # what the next decision gets
            elif side == mover and control.mode == "bank":
                bank = control.increment if autopilot else max(sc["bank"], 0.0) + control.increment
                sc["bank"] = min(bank, control.cap) if control.cap is not None else bank
        elif side in now_on and (side not in was or sc["since"] is None):
            _begin_period(c, control, side, now)


VACATION_FIELDS = ("vac_until", "vac_left", "vac_year")  # a vacation is never undone


def mark_before(c: ClockState, position: str) -> None:
    """Keep the clocks as they are before a move from ``position`` (an opaque id of the
    position the move starts from), so that an ``undo`` of it can put them back (`restore`)."""
    c["before"] = {"position": position, "sides": copy.deepcopy(c["sides"])}


def restore(c: ClockState, position: str) -> bool:
    """Put the clocks back as they were before the move from ``position`` (`mark_before`):
    banks, running clocks, periods and increments as if the move had never been made. The time
    since then counts for whoever was deciding then; vacations stay as they are now. Reminders
    already sent stay marked done, and a side's period number never goes back (each reminder
    is recorded once per period). False if no mark for that position is kept."""
    mark = c.get("before")
    if not mark or mark.get("position") != position:
        return False
    for side in SIDES:
        now_sc, then = c["sides"][side], copy.deepcopy(mark["sides"][side])
        for name in VACATION_FIELDS:
            then[name] = now_sc[name]  # type: ignore[literal-required]
        if then["period"] == now_sc["period"]:
            then["done"] = [*then["done"], *(d for d in now_sc["done"] if d not in then["done"])]
        then["period"] = max(then["period"], now_sc["period"])
        c["sides"][side] = then
    return True


def sync(c: ClockState, bots: Iterable[str], active: Iterable[str], now: float) -> None:
    """Make the clock agree with who plays and who decides (after moves the clock did not see).

    ``bots`` become the computer-played sides: their clocks stop, with nothing due for them.
    A human side that decides in ``active`` but whose clock is stopped starts a new period
    (a bot moved, or a bot's seat went to a human); one that no longer decides stops.
    """
    control = control_of(c)
    settle(c, now)
    c["robots"] = sorted(set(bots))
    deciding = set(active)
    for side in SIDES:
        sc = c["sides"][side]
        if side in c["robots"] or side not in deciding:
            sc["since"] = sc["started"] = None
        elif sc["since"] is None:
            _begin_period(c, control, side, now)


def stop_all(c: ClockState, now: float) -> None:
    """The game ended: settle and stop both clocks."""
    settle(c, now)
    for sc in c["sides"].values():
        sc["since"] = sc["started"] = None


# --- vacation ----------------------------------------------------------------------------------


def _roll_year(c: ClockState, side: str, now: float) -> None:
    sc = c["sides"][side]
    year = _year(now)
    if year != sc["vac_year"]:
        sc["vac_year"] = year
        sc["vac_left"] = float(c["control"]["vacation_days"]) * DAY


def vacation_left(c: ClockState, side: str, now: float) -> float:
    """Vacation seconds ``side`` may still take this calendar year (UTC)."""
    sc = c["sides"][side]
    if _year(now) != sc["vac_year"]:
        return float(c["control"]["vacation_days"]) * DAY
    return sc["vac_left"]


def start_vacation(c: ClockState, side: str, now: float, until: float) -> None:
    """Put ``side`` on vacation until ``until``: the game pauses, the days are taken now."""
    control = control_of(c)
    if not control.enabled:
        raise VacationError("this game has no clock: there is nothing to pause, take your time")
    if not control.vacation:
        raise VacationError("vacations are switched off in this game (created with --no-vacation)")
    if until <= now:
        raise VacationError("the vacation must end in the future")
    _roll_year(c, side, now)
    sc = c["sides"][side]
    if sc["vac_until"] is not None and sc["vac_until"] > now:
        raise VacationError(
            f"you are already on vacation until {fmt_time(sc['vac_until'], tz_of(c, side))}; "
            "any game command ends it early"
        )
    need = until - now
    if need > sc["vac_left"] + 1:
        raise VacationError(
            f"that is {fmt_duration(need)} of vacation, but you have {fmt_duration(sc['vac_left'])} "
            f"left this year (the game allows {control.vacation_days} days a year)"
        )
    settle(c, now)
    sc["vac_left"] = max(0.0, sc["vac_left"] - need)
    sc["vac_until"] = until


def end_vacation(c: ClockState, side: str, now: float) -> float:
    """End ``side``'s vacation now (early or on time); unused days go back. Returns the refund."""
    sc = c["sides"][side]
    until = sc["vac_until"]
    if until is None:
        return 0.0
    settle(c, now)
    refund = max(0.0, until - now)
    if refund and _year(now) == sc["vac_year"]:
        sc["vac_left"] += refund
    sc["vac_until"] = None
    return refund


def fmt_time(t: float, tz: str | None = None) -> str:
    """``Tue 2026-12-01 03:33 UTC``, or in the player's time zone (``... 04:33 CET``)."""
    if tz:
        return datetime.fromtimestamp(t, ZoneInfo(tz)).strftime("%a %Y-%m-%d %H:%M %Z")
    return time.strftime("%a %Y-%m-%d %H:%M UTC", time.gmtime(t))


def parse_date(text: str, tz: str | None = None) -> float:
    """``2027-01-03`` (the vacation lasts until the start of that day, UTC or ``tz``) -> epoch."""
    parsed = time.strptime(text, "%Y-%m-%d")
    if tz:
        day = datetime(parsed.tm_year, parsed.tm_mon, parsed.tm_mday, tzinfo=ZoneInfo(tz))
        return day.timestamp()
    return float(calendar.timegm(parsed))


def tz_of(c: ClockState, side: str) -> str | None:
    """The time zone ``side`` asked to see times in (the ``timezone`` word), None for UTC."""
    return c.get("zones", {}).get(side)


def valid_zone(name: str) -> str | None:
    """The IANA zone name as the system spells it (``europe/berlin`` -> ``Europe/Berlin``)."""
    try:
        spelled = {z.lower(): z for z in available_timezones()}.get(name.lower())
        if spelled is None:
            return None
        ZoneInfo(spelled)
        return spelled
    except (ValueError, OSError):
        return None


# --- what is due -------------------------------------------------------------------------------


def _ladder(c: ClockState, side: str) -> list[tuple[str, float]]:
    """The period's thresholds, in order: (label, seconds left when due)."""
    control = control_of(c)
    sc = c["sides"][side]
    rungs = [(r.label, t) for r in control.reminders if (t := r.threshold(sc["avail"])) is not None]
    rungs.sort(key=lambda lt: -lt[1])
    if control.grace > 0:
        rungs.append(("out", 0.0))
    rungs.append(("expired", -control.grace))
    return rungs


def due(c: ClockState, now: float) -> list[Due]:
    """Everything due at ``now`` that is not yet marked done (see `mark`).

    Of several reminders due at once only the most urgent is returned (the others are
    obsolete). Nothing is due for a running clock while the game is paused by a vacation.
    """
    out: list[Due] = []
    for side, sc in c["sides"].items():
        if sc["vac_until"] is not None and sc["vac_until"] <= now:
            out.append(Due("vacation_over", side))
    if not control_of(c).enabled:
        return out
    pause = paused_until(c)
    if pause is not None and pause > now:
        return out
    for side, sc in c["sides"].items():
        if sc["since"] is None or side in robots(c):
            continue
        now_left = left(c, side, now)
        reached = [(label, t) for label, t in _ladder(c, side) if now_left <= t]
        if not reached:
            continue
        label, _ = reached[-1]
        if label in sc["done"]:
            continue
        kind = {"out": "out_of_time", "expired": "expire"}.get(label, "reminder")
        out.append(Due(kind, side, label, now_left))
    return out


def mark(c: ClockState, d: Due) -> None:
    """Record ``d`` as done for its side's period (with every lower rung it made obsolete)."""
    if d.kind == "vacation_over":
        return
    sc = c["sides"][d.side]
    for label, _ in _ladder(c, d.side):
        if label not in sc["done"]:
            sc["done"].append(label)
        if label == d.label:
            break


def next_due(c: ClockState) -> float | None:
    """When `due` will next have something (epoch seconds), or None if nothing is pending."""
    times: list[float] = [
        sc["vac_until"] for sc in c["sides"].values() if sc["vac_until"] is not None
    ]
    control = control_of(c)
    if control.enabled:
        pause = paused_until(c)
        for side, sc in c["sides"].items():
            if sc["since"] is None or side in robots(c):
                continue
            pending = [t for label, t in _ladder(c, side) if label not in sc["done"]]
            if not pending:
                continue
            base = max(sc["since"], pause) if pause is not None else sc["since"]
            need = sc["bank"] - max(pending)
            times.append(wall_after(base, max(need, 0.0), control.weekend_pause))
    return float(math.ceil(min(times))) if times else None  # whole seconds: due by then for sure


def credit_gap(c: ClockState, last_seen: float, now: float) -> None:
    """Outage guard: charge running clocks only up to ``last_seen``; the gap is not charged."""
    for side, sc in c["sides"].items():
        if sc["since"] is not None and sc["since"] < now:
            sc["bank"] = left(c, side, max(sc["since"], last_seen))
            sc["since"] = now


def deadline(c: ClockState, side: str) -> float | None:
    """When ``side``'s bank reaches zero if nothing changes (None while stopped)."""
    sc = c["sides"][side]
    if sc["since"] is None:
        return None
    pause = paused_until(c)
    base = max(sc["since"], pause) if pause is not None else sc["since"]
    return wall_after(base, max(sc["bank"], 0.0), bool(c["control"]["weekend_pause"]))
