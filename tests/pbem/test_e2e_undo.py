"""End to end over real SMTP and IMAP (embedded servers; Dovecot + Postfix when marked
``mailstack``): a player's move with a typo is refused, a quoted reply is read exactly, a move
is taken back with ``undo``, and the opponent's table talk arrives."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlmodel import Session

import engine
from pbem.games import setup as game_setup
from pbem.games import views as game_views
from pbem.outbox import send as outbox
from pbem.store.db import make_engine, migrate
from pbem.store.models import Game
from pbem.worker import intake
from tests.pbem.mailtools import MailServer, player_mail


class Player:
    """One player's mailbox over IMAP: read the newest report, reply to it quoting it."""

    def __init__(self, server: MailServer, address: str, game: str) -> None:
        self.server, self.address, self.game, self.seen = server, address, game, 0

    def next_mail(self) -> EmailMessage:
        found = self.server.wait_for(self.address, self.seen + 1, timeout=20)
        assert len(found) > self.seen, f"no new mail for {self.address}"
        self.seen = len(found)
        msg = email.message_from_bytes(found[-1].raw, policy=email.policy.default)
        assert isinstance(msg, EmailMessage)
        return msg

    def reply(self, to: EmailMessage, body: str) -> None:
        text = _text(to)
        quoted = "\n".join("> " + line if line else ">" for line in text.splitlines())
        full = f"{body}\n\nOn Sun, Nov 29, 2026 at 9:00 AM 1960 game wrote:\n{quoted}\n"
        raw = player_mail(
            self.address,
            str(to["Reply-To"]),
            full,
            subject="Re: " + str(to["Subject"]),
            in_reply_to=str(to["Message-ID"]),
        )
        self.server.send(raw, self.address, [str(to["Reply-To"])])
        # Postfix delivers to the game mailbox in the background: poll only once it is there
        assert self.server.wait_for(self.game, 1, timeout=20), "the reply was not delivered"


def _text(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def _flat(msg: EmailMessage) -> str:
    return " ".join(_text(msg).split())


@pytest.mark.timeout(300)
def test_typo_quoted_reply_undo_and_table_talk_by_real_mail(
    mail_server: MailServer, tmp_path: Path
) -> None:
    game_address = mail_server.fresh_address("game")
    settings = mail_server.game_settings(
        f"sqlite:///{tmp_path}/undo.db", "undo-secret-of-the-tests", game_address
    )
    db = make_engine(settings.database_url)
    migrate(db)
    kim = Player(mail_server, mail_server.fresh_address("kennedy"), game_address)
    dick = Player(mail_server, mail_server.fresh_address("nixon"), game_address)
    game_id = game_setup.new_game(db, settings, kennedy=kim.address, nixon=dick.address, seed=2)

    def turn() -> None:
        outbox.drain_outbox(db, settings, mail_server.sender())
        with mail_server.mailbox(game_address) as box:
            box.ensure_folders()
            intake.poll_once(db, settings, box)
        outbox.drain_outbox(db, settings, mail_server.sender())

    def state() -> dict:
        with Session(db) as s:
            game = s.get(Game, game_id)
            assert game is not None
            return engine.from_json(game.snapshot)

    turn()
    welcome, _ = kim.next_mail(), dick.next_mail()
    kim.reply(welcome, "Hi Dick!\n\nfirst kennedy")  # top-posted over the quoted welcome
    turn()
    report = kim.next_mail()
    before = state()
    kim.reply(report, "suport OH\nposition 27: economy 2")  # a typo: nothing applied
    turn()
    refused = kim.next_mail()
    assert "error in your orders" in str(refused["Subject"])
    assert "did you mean 'support OH'" in _flat(refused) and state() == before

    kim.reply(refused, "position 27: economy 2\nsay Your move, Dick.")
    turn()
    asked = dick.next_mail()  # Nixon is asked about the trigger, and hears the table talk
    assert "Kennedy says:" in _flat(asked) and "Your move, Dick." in _flat(asked)
    assert state() != before
    receipt = kim.next_mail()  # Kim's mail was applied and Nixon is on the move: a receipt
    assert "received, waiting for Nixon" in str(receipt["Subject"]), receipt["Subject"]
    kim.reply(refused, "undo")  # Kim is sent nothing while Nixon decides: an older report
    turn()
    assert state() == before  # taken back: nothing had been revealed
    assert "your last mail was taken back" in _flat(kim.next_mail())
    told = dick.next_mail()
    assert "Kennedy took back their last move" in _flat(told)
    assert game_views.replay(db, game_id).ok
