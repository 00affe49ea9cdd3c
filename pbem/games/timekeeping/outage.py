"""The outage guard, and `TickReport`, what one tick did.

Every tick records its time (``WorkerState`` row ``tick``); when the last one is older
than ``PBEM_OUTAGE_THRESHOLD``, `mark_tick` credits every running clock the gap, logs an
``outage`` event per game, and the tick expires nothing in that pass.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.engine import Engine
from sqlmodel import col, select

from engine.data import counted
from pbem.clocks import model
from pbem.clocks.control import fmt_duration, parse_duration
from pbem.config import Settings
from pbem.games.timekeeping.records import load, record_event, store
from pbem.store.db import transaction
from pbem.store.models import Game, WorkerState, utcnow

__all__ = ["TickReport", "mark_tick"]

log = logging.getLogger("pbem.clocks")


@dataclass
class TickReport:
    """What one tick did."""

    started: int = 0  # games given the site default clock
    reminders: int = 0
    out_of_time: int = 0
    expired: dict[str, int] = field(default_factory=dict)  # policy -> count
    vacations_over: int = 0
    outage: tuple[float, float] | None = None  # (last tick, this tick) when the guard acted
    credited: int = 0  # games credited the outage gap
    failed: list[str] = field(default_factory=list)

    def summary(self) -> str:
        parts = []
        if self.outage:
            gap = fmt_duration(self.outage[1] - self.outage[0])
            parts.append(
                f"OUTAGE: no tick for {gap}; {counted(self.credited, 'game')} credited the gap, "
                "no expiry in this pass"
            )
        for name, n in (
            ("clocks started", self.started),
            ("reminders", self.reminders),
            ("out of time", self.out_of_time),
            ("vacations over", self.vacations_over),
        ):
            if n:
                parts.append(f"{n} {name}")
        parts += [f"{n} expired ({policy})" for policy, n in sorted(self.expired.items())]
        parts += [f"game {f}" for f in self.failed]
        return "; ".join(parts) or "nothing due"


def mark_tick(settings: Settings, db: Engine, t: float, report: TickReport) -> None:
    """Record this tick; if the last one is too old, credit every running clock the gap."""
    threshold = parse_duration(settings.outage_threshold, what="PBEM_OUTAGE_THRESHOLD")
    with transaction(db) as s:
        mark = s.get(WorkerState, "tick")
        last = mark.at if mark is not None else None
        if mark is None:
            s.add(WorkerState(name="tick", at=t))
        else:
            mark.at = max(mark.at, t)
            s.add(mark)
        if last is None or t - last <= threshold:
            return
        report.outage = (last, t)
        now = datetime.fromtimestamp(t, utcnow().tzinfo)
        for game in s.exec(
            select(Game).where(Game.status == "active", col(Game.clock).is_not(None))
        ).all():
            c = load(game)
            assert c is not None
            model.credit_gap(c, last, t)
            store(game, c)
            s.add(game)
            record_event(
                s,
                game,
                "",
                "outage",
                f"worker outage of {fmt_duration(t - last)}: the gap was not charged to any clock",
                now,
                key=f"outage:{int(last)}",
            )
            report.credited += 1
        log.warning(
            "outage guard: no tick for %s; %d game(s) credited",
            fmt_duration(t - last),
            report.credited,
        )
