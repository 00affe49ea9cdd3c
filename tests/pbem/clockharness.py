"""A `Harness` whose time is injected: mails are processed, ticks run and the outbox drains at ``t``."""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from typing import Any

from sqlmodel import Session, select

from pbem.clocks import model
from pbem.clocks.control import parse_control
from pbem.games.timekeeping.outage import TickReport
from pbem.games.timekeeping.records import load
from pbem.games.timekeeping.tick import tick
from pbem.outbox import send as outbox
from pbem.store.models import Game, GameEvent
from pbem.worker import intake
from pbem.worker.worker_pass import housekeeping
from tests.pbem.harness import EMAILS, Harness, player_mail

MONDAY = datetime.fromtimestamp(calendar.timegm((2026, 11, 30, 0, 0, 0)), UTC)


@dataclass
class ClockGame:
    """One game with a clock; ``at`` is the injected now (starts Monday 2026-11-30 00:00 UTC)."""

    h: Harness
    at: datetime = MONDAY

    @classmethod
    def create(cls, h: Harness, spec: str = "10h", *, seed: int = 7, **control: Any) -> ClockGame:
        h.settings = h.settings.with_(outage_threshold=control.pop("outage", "1000d"))
        game = cls(h)
        h.new_game(seed=seed, now=MONDAY, clock=parse_control(spec, **control))
        return game

    def advance(self, **delta: float) -> None:
        self.at += timedelta(**delta)

    def tick(self) -> TickReport:
        report = tick(self.h.db, self.h.settings, now=self.at)
        self.send()
        return report

    def send(self) -> None:
        outbox.drain_outbox(self.h.db, self.h.settings, self.h.sender, now=self.at)

    def deliver(self, raw: bytes) -> intake.PollStats:
        self.h.inbox.deliver(raw)
        stats = intake.poll_once(self.h.db, self.h.settings, self.h.inbox, now=self.at)
        housekeeping(self.h.db, self.h.settings, self.at, stats)
        self.send()
        return stats

    def reply(
        self, side: str, body: str, *, to_mail: EmailMessage | None = None, frm: str | None = None
    ) -> intake.PollStats:
        return self.deliver(self.h.reply_bytes(side, body, to_mail=to_mail, frm=frm))

    def mail_from(self, frm: str, to_mail: EmailMessage, body: str) -> intake.PollStats:
        return self.deliver(
            player_mail(frm, str(to_mail["Reply-To"]), body, in_reply_to=str(to_mail["Message-ID"]))
        )

    def game(self) -> Game:
        with Session(self.h.db) as s:
            game = s.get(Game, self.h.game_id)
            assert game is not None
            return game

    def clock(self) -> model.ClockState:
        c = load(self.game())
        assert c is not None
        return c

    def left(self, side: str) -> float:
        return model.left(self.clock(), side, self.at.timestamp())

    def events(self, kind: str | None = None) -> list[GameEvent]:
        with Session(self.h.db) as s:
            rows = list(s.exec(select(GameEvent).where(GameEvent.game_id == self.h.game_id)))
        return [e for e in rows if kind is None or e.kind == kind]

    def subjects(self, side: str) -> list[str]:
        return [str(m["Subject"]) for m in self.h.mails_to(side)]

    def text(self, side: str, index: int = -1) -> str:
        """The plain text of a mail, its lines joined (wrapped phrases read as one)."""
        return " ".join(self.h.text_of(self.h.mails_to(side)[index]).split())

    def to_move(self) -> str:
        import engine

        sides = sorted(engine.active_sides(self.h.state()))
        assert len(sides) == 1, sides
        return sides[0]


def other(side: str) -> str:
    return "nixon" if side == "kennedy" else "kennedy"


__all__ = ["EMAILS", "MONDAY", "ClockGame", "other"]
