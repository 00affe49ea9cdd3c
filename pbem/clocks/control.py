"""Time controls: what a game's clock is (bank or pace, reminders, expiry policy) and its spelling.

A time control is chosen per game at ``pbem new`` (``--clock 72h+36h/240h``,
``--clock 3d/move`` or ``--clock none``) with a site default in the settings.
This module only parses, describes and (de)serialises controls; the running
clock is `pbem.clocks.model`.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, replace
from typing import Any

__all__ = [
    "DEFAULT_REMINDERS",
    "EXPIRY_POLICIES",
    "ClockSpecError",
    "Reminder",
    "TimeControl",
    "fmt_duration",
    "parse_control",
    "parse_duration",
    "parse_reminders",
]

EXPIRY_POLICIES = ("forfeit", "claim", "autopilot")
_UNITS = {"w": 604800, "d": 86400, "h": 3600, "m": 60, "min": 60, "s": 1}
_PART = re.compile(r"(\d+(?:\.\d+)?)\s*(w|d|h|min|m|s)")


class ClockSpecError(ValueError):
    """A clock, duration or reminder spelling that cannot be read (the message quotes it)."""


def parse_duration(text: str, *, what: str = "duration") -> float:
    """``72h``, ``3d``, ``1d12h``, ``90m``, ``30s``, ``2w`` -> seconds."""
    raw = text.strip().lower().replace(" ", "")
    if not raw:
        raise ClockSpecError(f"empty {what}: write e.g. 72h, 3d, 1d12h, 90m or 30s")
    pos, total = 0, 0.0
    for m in _PART.finditer(raw):
        if m.start() != pos:
            break
        total += float(m.group(1)) * _UNITS[m.group(2)]
        pos = m.end()
    if pos != len(raw):
        raise ClockSpecError(
            f"{what} {text!r} is not a duration: write e.g. 72h, 3d, 1d12h, 90m or 30s"
        )
    return total


def fmt_duration(seconds: float) -> str:
    """Seconds as people say them: ``2 d 4 h``, ``3 h 20 min``, ``45 s``; at most two units."""
    s = max(0, round(seconds))
    if s == 0:
        return "0 s"
    parts = []
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60), ("s", 1)):
        n, s = divmod(s, size)
        if n:
            parts.append(f"{n} {unit}")
    return " ".join(parts[:2])


def _spell(seconds: float) -> str:
    """Seconds in the compact spelling `parse_duration` reads back (``36h``, ``90s``)."""
    s = round(seconds)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if s and s % size == 0:
            return f"{s // size}{unit}"
    return f"{s}s"


@dataclass(frozen=True)
class Reminder:
    """One rung of the reminder ladder: a share of the time used up, or a lead before zero."""

    label: str  # "50%" or "24h"
    used: float | None = None  # fraction of the period's time used up (0.5)
    lead: float | None = None  # seconds left

    def threshold(self, avail: float) -> float | None:
        """Seconds left at which this reminder is due, or None when it would be due at once."""
        left = float(round(avail * (1 - self.used) if self.used is not None else self.lead or 0))
        return left if 0 < left < avail else None


def parse_reminders(text: str) -> tuple[Reminder, ...]:
    """``50%,90%,24h,2h`` -> the ladder (``none`` for no reminders)."""
    if text.strip().lower() in ("", "none", "off"):
        return ()
    out = []
    for item in (p.strip() for p in text.split(",")):
        if item.endswith("%"):
            try:
                pct = float(item[:-1])
            except ValueError:
                raise ClockSpecError(f"reminder {item!r}: write a percentage like 50%") from None
            if not 0 < pct < 100:
                raise ClockSpecError(f"reminder {item!r}: a percentage between 0 and 100")
            out.append(Reminder(f"{pct:g}%", used=pct / 100))
        else:
            out.append(
                Reminder(item.lower().replace(" ", ""), lead=parse_duration(item, what="reminder"))
            )
    return tuple(out)


DEFAULT_REMINDERS = parse_reminders("50%,90%,24h,2h")


@dataclass(frozen=True)
class TimeControl:
    """A game's time control.

    ``mode`` is ``bank`` (``initial`` seconds, ``increment`` credited each time a player hands
    the move over, at most ``cap``), ``pace`` (``initial`` seconds for every decision) or
    ``none`` (no clock: no reminders, no expiry).
    """

    mode: str = "bank"
    initial: float = 72 * 3600
    increment: float = 36 * 3600
    cap: float | None = 240 * 3600
    weekend_pause: bool = False
    vacation: bool = True
    vacation_days: int = 21
    expiry: str = "claim"
    grace: float = 24 * 3600
    reminders: tuple[Reminder, ...] = field(default=DEFAULT_REMINDERS)

    @property
    def enabled(self) -> bool:
        return self.mode != "none"

    @property
    def spec(self) -> str:
        """The ``--clock`` spelling: ``72h+36h/240h``, ``3d/move``, ``none``."""
        if self.mode == "none":
            return "none"
        if self.mode == "pace":
            return f"{_spell(self.initial)}/move"
        text = _spell(self.initial)
        if self.increment:
            text += "+" + _spell(self.increment)
        if self.cap is not None:
            text += "/" + _spell(self.cap)
        return text

    def describe(self) -> str:
        """One sentence for reports: the control, weekend pause, vacation, expiry policy."""
        if self.mode == "none":
            return "No clock: take the time you need."
        if self.mode == "pace":
            text = f"{fmt_duration(self.initial)} per decision"
        else:
            text = f"time bank {fmt_duration(self.initial)}"
            if self.increment:
                text += f", +{fmt_duration(self.increment)} per move handed over"
            if self.cap is not None:
                text += f", at most {fmt_duration(self.cap)}"
        if self.weekend_pause:
            text += "; clocks stop on Saturdays and Sundays (UTC)"
        policy = {
            "forfeit": "the game is lost on time",
            "claim": "the opponent may claim the win",
            "autopilot": "the server's computer player moves for you",
        }[self.expiry]
        grace = f" after {fmt_duration(self.grace)} of grace" if self.grace else ""
        text += f"; out of time: {policy}{grace}"
        text += "; vacation allowed" if self.vacation else "; no vacation in this game"
        return text[0].upper() + text[1:] + "."

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["reminders"] = ",".join(r.label for r in self.reminders) or "none"
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TimeControl:
        data = dict(d)
        data["reminders"] = parse_reminders(str(data.get("reminders", "none")))
        return cls(**data)

    def with_(self, **changes: Any) -> TimeControl:
        return replace(self, **changes)


_BANK = re.compile(r"^([^+/]+)(?:\+([^/]+))?(?:/(.+))?$")


def parse_control(
    spec: str,
    *,
    weekend_pause: bool = False,
    vacation: bool = True,
    vacation_days: int = 21,
    expiry: str = "claim",
    grace: str | float = "24h",
    reminders: str | tuple[Reminder, ...] = DEFAULT_REMINDERS,
) -> TimeControl:
    """Read ``--clock`` and its companions into a `TimeControl` (errors quote the input)."""
    text = spec.strip().lower().replace(" ", "")
    if expiry not in EXPIRY_POLICIES:
        raise ClockSpecError(
            f"expiry policy {expiry!r}: choose one of {', '.join(EXPIRY_POLICIES)}"
        )
    if vacation_days < 0:
        raise ClockSpecError(f"vacation days {vacation_days}: must be 0 or more")
    ladder = parse_reminders(reminders) if isinstance(reminders, str) else reminders
    grace_s = parse_duration(grace, what="grace") if isinstance(grace, str) else float(grace)
    common: dict[str, Any] = dict(
        weekend_pause=weekend_pause,
        vacation=vacation,
        vacation_days=vacation_days,
        expiry=expiry,
        grace=grace_s,
        reminders=ladder,
    )
    if text in ("none", "off", "no"):
        return TimeControl(mode="none", initial=0, increment=0, cap=None, **common)
    if text.endswith(("/move", "/decision")):
        try:
            per = parse_duration(text.rsplit("/", 1)[0], what="clock")
        except ClockSpecError as exc:
            raise ClockSpecError(f"clock {spec!r}: {exc}; write e.g. 3d/move") from None
        if per <= 0:
            raise ClockSpecError(f"clock {spec!r}: the time per decision must be more than 0")
        return TimeControl(mode="pace", initial=per, increment=0, cap=None, **common)
    m = _BANK.match(text)
    if not m:
        raise ClockSpecError(
            f"clock {spec!r}: write INITIAL+INCREMENT/CAP (72h+36h/240h), "
            "TIME/move (3d/move) or none"
        )
    try:
        initial = parse_duration(m.group(1), what="clock")
        inc = parse_duration(m.group(2), what="clock") if m.group(2) else 0.0
        cap = parse_duration(m.group(3), what="clock") if m.group(3) else None
    except ClockSpecError as exc:
        raise ClockSpecError(f"clock {spec!r}: {exc}; write e.g. 72h+36h/240h") from None
    if initial <= 0:
        raise ClockSpecError(f"clock {spec!r}: the initial bank must be more than 0")
    if cap is not None and cap < initial:
        raise ClockSpecError(f"clock {spec!r}: the cap {_spell(cap)} is below the initial bank")
    return TimeControl(mode="bank", initial=initial, increment=inc, cap=cap, **common)
