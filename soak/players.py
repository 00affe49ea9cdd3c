"""The two scripted players of a crash-soak game (`soak/crash_injection.py`, `soak/lmtp_crash.py`).

Each turn the player to move mails one random legal command, over SMTP, to the reply address
of their current key, and only once their previous command was applied: the move log the
soak checks at the end (`soak.invariants.check`) is then exactly ``mailed``.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session, select

import engine
from pbem import keys
from pbem.config import Settings
from pbem.games import setup as game_setup
from pbem.mail import SmtpSender
from pbem.outbox.queue import current_key
from pbem.store.models import Game, InboundMessage, Seat


def player_mail(frm: str, to: str, body: str, domain: str) -> bytes:
    return (
        f"From: {frm}\r\nTo: {to}\r\nSubject: Re: move\r\n"
        f"Message-ID: <{uuid.uuid4().hex}@{domain}>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        f"{body}\r\n"
    ).encode()


@dataclass
class Players:
    """A new game between two players of ``domain``, mailing through ``host``:``smtp_port``."""

    db: Any  # the soak's engine on the game's database
    settings: Settings
    seed: int
    host: str
    smtp_port: int
    domain: str
    addresses: dict[str, str] = field(init=False)
    game_id: int = field(init=False)
    mailed: list[tuple[str, str]] = field(default_factory=list)  # (side, command) in order

    def __post_init__(self) -> None:
        self.addresses = {
            "kennedy": f"jack-{uuid.uuid4().hex[:8]}@{self.domain}",
            "nixon": f"dick-{uuid.uuid4().hex[:8]}@{self.domain}",
        }
        self.game_id = game_setup.new_game(
            self.db,
            self.settings,
            seed=self.seed,
            kennedy=self.addresses["kennedy"],
            nixon=self.addresses["nixon"],
        )
        self._rnd = random.Random(self.seed)
        self._smtp = SmtpSender(self.host, self.smtp_port, timeout=30)

    @property
    def rnd(self) -> random.Random:
        """The game's random numbers (the commands, and the soak's own draws)."""
        return self._rnd

    def applied(self) -> int:
        """Mails applied (a mail may also play the other side's standing orders)."""
        with Session(self.db) as s:
            return len(
                s.exec(
                    select(InboundMessage.id).where(
                        InboundMessage.game_id == self.game_id, InboundMessage.outcome == "applied"
                    )
                ).all()
            )

    def all_in(self) -> bool:
        """Every mailed command applied."""
        return self.applied() == len(self.mailed)

    def turn(self) -> bool:
        """Mail the next command if the previous one is in; False once the game is over."""
        with Session(self.db) as s:
            game = s.get(Game, self.game_id)
            assert game is not None
            state = engine.from_json(game.snapshot)
            seats = {st.side: st for st in s.exec(select(Seat).where(Seat.game_id == self.game_id))}
        if engine.result(state) is not None:
            return False
        if self.all_in():
            side = sorted(engine.active_sides(state))[0]
            command = self._rnd.choice(engine.legal_commands(state, side))
            to = keys.reply_address(self.settings.address, current_key(self.settings, seats[side]))
            raw = player_mail(self.addresses[side], to, command, self.domain)
            asyncio.run(self._smtp.send(raw, self.addresses[side], [to]))
            self.mailed.append((side, command))
        return True
