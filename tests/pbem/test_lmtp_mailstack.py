"""LMTP intake on the real stack: the project's Postfix relays the game's address to `pbem serve`
over LMTP (``MAILSTACK_RELAY_LMTP_PORT``, as a site's ``transport_maps`` does), and a worker that
dies between storing a mail and answering 250 loses nothing and applies nothing twice: Postfix
keeps the mail, delivers it again, and the dedupe answers 250 without queueing it twice."""

from __future__ import annotations

import email
import email.policy
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlmodel import Session, select

import engine
from pbem import keys
from pbem.config import as_env
from pbem.games import setup as game_setup
from pbem.games.notify import set_notify
from pbem.mail import MemorySender
from pbem.outbox import send as outbox
from pbem.outbox.queue import current_key
from pbem.store.db import make_engine, migrate
from pbem.store.models import Game, InboundMessage, Move, QueuedMail, Seat, utcnow
from tests.pbem.mailtools import MailServer, player_mail, port_open, wait_until

pytestmark = pytest.mark.mailstack

ROOT = Path(__file__).resolve().parents[2]
# `pbem serve` that SIGKILLs itself right after the listener committed a mail: stored, no 250
CRASH_AFTER_STORE = """
import os, signal, sys
from pbem.mail.lmtp import Stored
from pbem.worker import lmtp_intake
store = lmtp_intake.store_delivery
def store_then_die(*args):
    stored = store(*args)
    if stored is Stored.STORED:
        os.kill(os.getpid(), signal.SIGKILL)
    return stored
lmtp_intake.store_delivery = store_then_die
from pbem.cli import cli
cli.main(args=sys.argv[1:], prog_name="pbem")
"""


class Site:
    """A game on SQLite whose address Postfix relays to ``relay_lmtp_port``."""

    def __init__(self, server: MailServer, folder: Path) -> None:
        self.server, self.folder = server, folder
        address = server.relayed_address("game")
        self.settings = server.game_settings(
            f"sqlite:///{folder}/lmtp.db", "lmtp-test-secret", address
        ).with_(lmtp_host="127.0.0.1", lmtp_port=server.relay_lmtp_port)
        self.db = make_engine(self.settings.database_url)
        migrate(self.db)
        self.players = {side: server.fresh_address(side[:4]) for side in engine.SIDES}
        self.game_id = game_setup.new_game(self.db, self.settings, seed=5, **self.players)
        for side in engine.SIDES:  # both players hear of every move
            set_notify(self.db, self.game_id, side, "every", now=utcnow())
        outbox.drain_outbox(self.db, self.settings, MemorySender())  # welcomes: not looked at

    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            **as_env(self.settings),
            "PBEM_LOCK_FILE": str(self.folder / "serve.lock"),
            "PYTHONPATH": str(ROOT),
        }

    def move(self) -> bytes:
        """The side to move mails a legal command to its reply address, through Postfix."""
        state = engine.from_json(self._snapshot())
        side = sorted(engine.active_sides(state))[0]
        with Session(self.db) as s:
            seat = s.exec(select(Seat).where(Seat.game_id == self.game_id, Seat.side == side)).one()
        to = keys.reply_address(self.settings.address, current_key(self.settings, seat))
        raw = player_mail(self.players[side], to, engine.legal_commands(state, side)[0])
        self.server.send(raw, self.players[side], [to])
        return raw

    def _snapshot(self) -> str:
        with Session(self.db) as s:
            game = s.get(Game, self.game_id)
            assert game is not None
            return game.snapshot

    def inbound(self) -> list[InboundMessage]:
        with Session(self.db) as s:
            return list(s.exec(select(InboundMessage)))

    def moves(self) -> int:
        with Session(self.db) as s:
            return len(list(s.exec(select(Move.id).where(Move.game_id == self.game_id))))

    def queued(self) -> int:
        with Session(self.db) as s:
            return len(list(s.exec(select(QueuedMail.id))))


@contextmanager
def serving(site: Site, *command: str) -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen(
        [*command, "serve", "--idle-timeout", "2"],
        env=site.env(),
        cwd=site.folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert wait_until(
            lambda: port_open("127.0.0.1", site.server.relay_lmtp_port) or proc.poll() is not None,
            30,
            0.02,
        )
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(30)


def test_postfix_relays_the_game_address_to_pbem_and_both_players_get_reports(
    relaying_mailstack: MailServer, tmp_path: Path
) -> None:
    site = Site(relaying_mailstack, tmp_path)
    with serving(site, sys.executable, "-m", "pbem") as proc:
        site.move()
        assert wait_until(lambda: site.moves() >= 1, 30)
        reports = {
            side: relaying_mailstack.wait_for(addr, 1, timeout=30)
            for side, addr in site.players.items()
        }
        # a relayed address that is not the game's: 550 from pbem, a bounce from Postfix
        stranger = relaying_mailstack.fresh_address("stranger")
        nobody = relaying_mailstack.relayed_address("nobody")
        relaying_mailstack.send(player_mail(stranger, nobody, "hello"), stranger, [nobody])
        bounce = relaying_mailstack.wait_for(stranger, 1, timeout=30)
        assert proc.poll() is None
    assert [m.outcome for m in site.inbound()] == ["applied"]
    assert all(len(found) >= 1 for found in reports.values())
    assert bounce, "Postfix returned the mail pbem refused with 550"
    dsn = email.message_from_bytes(bounce[0].raw, policy=email.policy.default)
    assert "550" in dsn.as_string() and nobody in dsn.as_string()


def test_a_worker_killed_between_stored_and_250_loses_nothing_and_applies_once(
    relaying_mailstack: MailServer, tmp_path: Path
) -> None:
    site = Site(relaying_mailstack, tmp_path)
    with serving(site, sys.executable, "-c", CRASH_AFTER_STORE) as crashing:
        site.move()
        assert wait_until(lambda: crashing.poll() is not None, 30)
    assert crashing.returncode == -signal.SIGKILL  # it died after the commit, before the 250
    assert site.queued() == 1 and site.moves() == 0  # stored, not yet applied
    with serving(site, sys.executable, "-m", "pbem"):
        # its start-up pass applies the stored mail; Postfix, which never heard 250, delivers
        # it again (its retries come 1-2 s apart; on a loaded machine its queue manager may
        # take longer to come round, hence the long deadline) and hears "stored before"
        assert wait_until(lambda: site.moves() >= 1 and site.queued() == 0, 90)
        assert wait_until(lambda: _redelivered(relaying_mailstack), 90, 0.2), _maillog_tail(
            relaying_mailstack
        )
    assert [m.outcome for m in site.inbound()] == ["applied"]  # once
    assert site.queued() == 0


def _maillog_tail(server: MailServer, lines: int = 30) -> str:
    """The end of Postfix's log, for a failure to show what Postfix did instead."""
    log = Path(server.folder, "postfix", "maillog")
    if not server.folder or not log.exists():
        return "no Postfix log"
    return "Postfix log ends:\n" + "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


def _redelivered(server: MailServer) -> bool:
    """Postfix's log shows a second delivery to pbem, accepted as "stored before"."""
    log = Path(server.folder, "postfix", "maillog")
    return (
        bool(server.folder) and log.exists() and "stored before" in log.read_text(errors="replace")
    )
