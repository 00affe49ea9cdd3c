"""A fast in-process harness: SQLite file, MemoryMailbox, MemorySender, scripted player mail.

`Harness.reply` writes a mail as a player's mail client would (From the seat,
To the Reply-To of the newest report, In-Reply-To its Message-ID), delivers
it to the game mailbox and runs one poll + outbox drain.
"""

from __future__ import annotations

import email
import email.policy
import itertools
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

import engine
from pbem.config import Settings
from pbem.games import setup as game_setup
from pbem.mail import MemoryMailbox, MemorySender
from pbem.outbox import send as outbox
from pbem.store.db import make_engine, migrate
from pbem.store.models import Game, InboundMessage, OutboxMessage, Seat
from pbem.worker import intake
from pbem.worker.worker_pass import housekeeping

EMAILS = {"kennedy": "jack@players.test", "nixon": "dick@players.test"}
_ids = itertools.count(1)


def player_mail(
    frm: str,
    to: str,
    body: str,
    *,
    subject: str = "Re: move",
    message_id: str | None = None,
    in_reply_to: str | None = None,
    headers: dict[str, str] | None = None,
    html: str | None = None,
) -> bytes:
    """The bytes of a mail a player sends."""
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = frm
    msg["To"] = to
    msg["Subject"] = subject
    msg["Message-ID"] = message_id or f"<player.{next(_ids)}@players.test>"
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    for k, v in (headers or {}).items():
        msg[k] = v
    if html is not None and not body:
        msg.set_content(html, subtype="html")
    else:
        msg.set_content(body)
        if html is not None:
            msg.add_alternative(html, subtype="html")
    return msg.as_bytes()


@dataclass
class Harness:
    """One database + fake mailbox + fake sender; `new_game` seats the two EMAILS."""

    folder: Path
    database_url: str = ""
    settings: Settings = field(init=False)
    db: Engine = field(init=False)
    inbox: MemoryMailbox = field(default_factory=MemoryMailbox)
    sender: MemorySender = field(default_factory=MemorySender)
    game_id: int = 0
    _parsed: list[tuple[list[str], EmailMessage]] = field(default_factory=list)

    def __post_init__(self) -> None:
        url = self.database_url or f"sqlite:///{self.folder}/pbem.db"
        self.settings = Settings(
            database_url=url, address="game@pbem.test", secret="test-secret-of-the-harness"
        )
        self.db = make_engine(self.settings.database_url)
        migrate(self.db)
        self.inbox.ensure_folders()

    def new_game(self, seed: int = 7, **kw: Any) -> int:
        self.game_id = game_setup.new_game(
            self.db,
            self.settings,
            kennedy=EMAILS["kennedy"],
            nixon=EMAILS["nixon"],
            seed=seed,
            **kw,
        )
        self.send()
        return self.game_id

    def send(self) -> outbox.SendStats:
        return outbox.drain_outbox(self.db, self.settings, self.sender)

    def poll(self) -> intake.PollStats:
        stats = intake.poll_once(self.db, self.settings, self.inbox)
        housekeeping(self.db, self.settings, None, stats)
        self.send()
        return stats

    # --- what players received ---------------------------------------------------------------
    def mails_to(self, side: str) -> list[EmailMessage]:
        while len(self._parsed) < len(self.sender.sent):
            m = self.sender.sent[len(self._parsed)]
            msg = email.message_from_bytes(m.raw, policy=email.policy.default)
            self._parsed.append((m.recipients, msg))  # type: ignore[arg-type]
        return [msg for rcpts, msg in self._parsed if EMAILS[side] in rcpts]

    def last_mail(self, side: str) -> EmailMessage:
        return self.mails_to(side)[-1]

    def text_of(self, msg: EmailMessage) -> str:
        part = msg.get_body(("plain",))
        assert part is not None
        return part.get_content()  # type: ignore[no-any-return]

    # --- what players send -------------------------------------------------------------------
    def reply(
        self,
        side: str,
        body: str,
        *,
        to_mail: EmailMessage | None = None,
        frm: str | None = None,
        **kw: Any,
    ) -> intake.PollStats:
        raw = self.reply_bytes(side, body, to_mail=to_mail, frm=frm, **kw)
        self.inbox.deliver(raw)
        return self.poll()

    def reply_bytes(
        self,
        side: str,
        body: str,
        *,
        to_mail: EmailMessage | None = None,
        frm: str | None = None,
        **kw: Any,
    ) -> bytes:
        prev = to_mail or self.last_mail(side)
        return player_mail(
            frm or EMAILS[side],
            str(prev["Reply-To"]),
            body,
            in_reply_to=str(prev["Message-ID"]),
            **kw,
        )

    # --- database views ------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        with Session(self.db) as s:
            game = s.get(Game, self.game_id)
            assert game is not None
            return engine.from_json(game.snapshot)

    def inbound(self) -> list[InboundMessage]:
        with Session(self.db) as s:
            return list(s.exec(select(InboundMessage).order_by(InboundMessage.id)))  # type: ignore[arg-type]

    def selects_from(self, table: str) -> list[str]:
        """A list that collects, from now on, every SELECT this database runs ``FROM table``."""
        seen: list[str] = []

        def log(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
            if statement.lstrip().upper().startswith("SELECT") and f"FROM {table}" in statement:
                seen.append(statement)

        event.listen(self.db, "before_cursor_execute", log)
        return seen

    def outbox(self) -> list[OutboxMessage]:
        with Session(self.db) as s:
            return list(s.exec(select(OutboxMessage).order_by(OutboxMessage.id)))  # type: ignore[arg-type]

    def seat(self, side: str) -> Seat:
        with Session(self.db) as s:
            seat = s.exec(select(Seat).where(Seat.game_id == self.game_id, Seat.side == side)).one()
            return seat

    def legal(self, side: str) -> list[str]:
        return engine.legal_commands(self.state(), side)  # type: ignore[no-any-return]
