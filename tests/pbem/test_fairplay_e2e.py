"""End to end over real SMTP and IMAP: invitation, acceptance with entropy, a whole game, the reveal.

Runs against the embedded servers and (marked ``mailstack``) the real Dovecot + Postfix stack.
Both scripted players read their invitation, reply ``accept <words>``, play random legal
moves to the end, and the export attached to the final mail is verified; no mail before the
final one carries the seed.
"""

from __future__ import annotations

import email
import email.policy
import mailbox
import random
import time
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlmodel import Session

import engine
from pbem.games import setup as game_setup
from pbem.games.fairplay.verify import commitment, verify_export
from pbem.outbox import send as outbox
from pbem.store.db import make_engine, migrate
from pbem.store.models import Commitment, Game
from pbem.worker import intake
from pbem.worker.demo import ScriptedPlayer, play_by_email
from tests.pbem.fairplay_helpers import attachment, whole_text
from tests.pbem.mailtools import MailServer
from tests.pbem.test_e2e_mail import _settings

WORDS = {"kennedy": "ask not what your country", "nixon": "checkers 1952"}


def _read_until(player: ScriptedPlayer, count: int, timeout: float = 30) -> None:
    player.wait_for(count, timeout)


@pytest.mark.timeout(900)
def test_invite_accept_play_reveal_verify(mail_server: MailServer, tmp_path: Path) -> None:
    settings = _settings(mail_server, tmp_path, mail_server.fresh_address("game"))
    db = make_engine(settings.database_url)
    migrate(db)
    addr = {side: mail_server.fresh_address(side) for side in engine.SIDES}
    game_id = game_setup.new_game(
        db, settings, kennedy=addr["kennedy"], nixon=addr["nixon"], invite=True
    )
    sender = outbox.make_sender(settings)
    outbox.drain_outbox(db, settings, sender)
    rng = random.Random(15)
    players = {
        side: ScriptedPlayer(
            side, addr[side], settings, rng, tmp_path, password=mail_server.password
        )
        for side in engine.SIDES
    }
    with intake.open_mailbox(settings) as inbox:
        inbox.ensure_folders()
        for side, p in players.items():
            p.open()
            _read_until(p, 1)
            assert p.latest is not None and "Invitation" in str(p.latest["Subject"])
            p.move([f"accept {WORDS[side]}"])  # replies to the invitation, as a mail client does
        deadline = time.monotonic() + 30
        while _status(db, game_id) == "invited" and time.monotonic() < deadline:
            intake.poll_once(db, settings, inbox)
            time.sleep(0.05)
        for p in players.values():
            p.close()
    assert _status(db, game_id) == "active"
    moves, view = play_by_email(db, settings, game_id, players, max_moves=3000, timeout=60)
    assert view["result"] is not None and moves > 100
    with Session(db) as s:
        c = s.get(Commitment, game_id)
        assert c is not None
        secret_seed, committed = c.server_seed, c.commitment
    for side, p in players.items():
        box = [
            email.message_from_bytes(m.as_bytes(), policy=email.policy.default)
            for m in mailbox.mbox(str(tmp_path / f"{side}.mbox"))
        ]
        assert isinstance(box[0], EmailMessage) and "Invitation" in str(box[0]["Subject"])
        assert committed in whole_text(box[0]).replace("\n", "").replace(" ", "")
        final = p.latest
        assert final is not None and "game over" in str(final["Subject"])
        for msg in box:
            if "game over" not in str(msg["Subject"]):
                assert secret_seed not in whole_text(msg), msg["Subject"]
        export = attachment(email.message_from_bytes(final.as_bytes(), policy=email.policy.default))
        assert export is not None and export["server_seed"] == secret_seed
        assert export["entropy"] == WORDS
        assert commitment(game_id, "zman", [], export["server_seed"]) == committed
        verdict = verify_export(export)
        assert verdict.ok, verdict.message


def _status(db: object, game_id: int) -> str:
    with Session(db) as s:  # type: ignore[arg-type]
        game = s.get(Game, game_id)
        assert game is not None
        return game.status
