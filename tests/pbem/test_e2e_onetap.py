"""End to end over real SMTP and IMAP: a whole game against ``bot:heuristic`` played by
tapping the reports' one-tap answers only.

The human never reads the legal commands: each move is a ``mailto:`` link of the newest
report's HTML part, opened as a phone's mail program does (`tests.pbem.taps`): a new mail to
the link's address with its subject and body, sent over SMTP, not threaded (most programs
put no In-Reply-To in a mail made from a link). Runs on the embedded servers and on the real
Dovecot + Postfix stack (``mailstack``)."""

from __future__ import annotations

import asyncio
import collections
import random
import time
from pathlib import Path

import pytest
from sqlmodel import Session, select

import engine
from pbem.games import setup as game_setup
from pbem.games import views as game_views
from pbem.mail import SmtpSender
from pbem.store.db import make_engine, migrate
from pbem.store.models import InboundMessage, OutboxMessage
from pbem.worker.demo import ScriptedPlayer, play_by_email
from tests.pbem.mailtools import MailServer
from tests.pbem.taps import CLIENTS, client_mail, links
from tests.pbem.test_e2e_mail import _settings


class TappingPlayer(ScriptedPlayer):
    """A player who taps one of the newest report's one-tap answers and presses Send."""

    taps: collections.Counter[str]

    def move(self, legal: list[str]) -> str:  # the legal list is not looked at
        assert self.latest is not None
        found = links(self.latest)
        assert found, f"no one-tap answer in {self.latest['Subject']}"
        link = self.rng.choice(found)
        raw = client_mail(link, self.address, CLIENTS[self.sent % 2])  # iPhone, Gmail
        s = self.settings
        asyncio.run(SmtpSender(s.smtp_host, s.smtp_port).send(raw, self.address, [link.to]))
        self.taps[link.body.split()[0].rstrip(":")] += 1
        self.sent += 1
        return link.body


@pytest.mark.timeout(900)
def test_a_whole_game_against_the_heuristic_bot_by_taps_only(
    mail_server: MailServer, tmp_path: Path
) -> None:
    settings = _settings(mail_server, tmp_path, mail_server.fresh_address("game"))
    db = make_engine(settings.database_url)
    migrate(db)
    human = mail_server.fresh_address("kennedy")
    game_id = game_setup.new_game(db, settings, kennedy=human, nixon="bot:heuristic", seed=33)
    player = TappingPlayer(
        "kennedy", human, settings, random.Random(33), tmp_path, password=mail_server.password
    )
    player.taps = collections.Counter()
    started = time.perf_counter()
    sent, view = play_by_email(
        db, settings, game_id, {"kennedy": player}, max_moves=3000, timeout=60
    )
    seconds = time.perf_counter() - started
    assert view["result"] is not None and view["result"]["winner"] in engine.SIDES
    assert game_views.replay(db, game_id).ok
    with Session(db) as s:
        assert {r.outcome for r in s.exec(select(InboundMessage))} == {"applied"}
        outbox = list(s.exec(select(OutboxMessage).order_by(OutboxMessage.id)))  # type: ignore[arg-type]
    assert {r.recipient for r in outbox} == {human}  # the bot's seat is never mailed
    subjects = collections.Counter(
        r.subject.split("] ", 1)[-1].split(" — ", 1)[-1] for r in outbox if r.subject
    )
    ev = view["result"]["electoral_votes"]
    print(
        f"\n[{mail_server.kind}] {sent} taps against bot:heuristic in {seconds:.1f} s; "
        f"{player.received} mails received ({len(outbox)} queued); "
        f"{view['result']['winner']} wins {ev['kennedy']}-{ev['nixon']}\n"
        f"taps by verb: {dict(player.taps.most_common())}\n"
        f"subjects: {dict(subjects.most_common())}"
    )
    assert sent < player.received <= sent + 1  # the welcome, then a report per mail
