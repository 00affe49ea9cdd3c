"""End to end over real SMTP and IMAP: a complete game played by email.

Runs against the embedded pure-Python servers and (marked ``mailstack``) the
real Dovecot + Postfix stack: two scripted players send their commands through
SMTP, the worker polls IMAP, both players' reports arrive, the game reaches
its final tally. Every report is checked for the opponent's hidden cards.
"""

from __future__ import annotations

import email
import email.policy
import json
import random
import time
from pathlib import Path

import pytest
from sqlmodel import Session, select

import engine
from pbem.config import Settings
from pbem.games import setup as game_setup
from pbem.games import views as game_views
from pbem.store.db import make_engine, migrate
from pbem.store.models import InboundMessage
from pbem.worker.demo import ScriptedPlayer, play_by_email
from tests.pbem.mailtools import MailServer


def _settings(server: MailServer, folder: Path, game_address: str) -> Settings:
    return server.game_settings(
        f"sqlite:///{folder}/e2e.db", "e2e-secret-of-the-tests", game_address
    )


@pytest.mark.timeout(900)
def test_a_complete_game_by_email(mail_server: MailServer, tmp_path: Path) -> None:
    settings = _settings(mail_server, tmp_path, mail_server.fresh_address("game"))
    db = make_engine(settings.database_url)
    migrate(db)
    addr = {side: mail_server.fresh_address(side) for side in engine.SIDES}
    game_id = game_setup.new_game(
        db, settings, kennedy=addr["kennedy"], nixon=addr["nixon"], seed=5
    )
    rng = random.Random(5)
    players = {
        side: ScriptedPlayer(
            side, addr[side], settings, rng, tmp_path, password=mail_server.password
        )
        for side in engine.SIDES
    }
    started = time.perf_counter()
    moves, view = play_by_email(db, settings, game_id, players, max_moves=3000, timeout=60)
    seconds = time.perf_counter() - started
    print(
        f"\n[{mail_server.kind}] {moves} moves by email in {seconds:.1f} s: "
        f"{moves / seconds:.1f} moves/s, {sum(p.received for p in players.values())} reports"
    )
    assert view["result"] is not None and view["result"]["winner"] in engine.SIDES
    assert game_views.replay(db, game_id).ok
    with Session(db) as s:
        outcomes = {r.outcome for r in s.exec(select(InboundMessage))}
    assert outcomes == {"applied"}
    for side in engine.SIDES:
        box = (tmp_path / f"{side}.mbox").read_bytes()
        assert box.count(b"\nFrom ") + 1 >= players[side].received
        last = players[side].latest
        assert last is not None and "game over" in str(last["Subject"])
    final_text = _text(players["kennedy"].latest)
    ev = view["result"]["electoral_votes"]
    assert str(ev["kennedy"]) in final_text and str(ev["nixon"]) in final_text
    assert json.dumps(view["result"])


def _text(msg: email.message.Message | None) -> str:
    assert msg is not None
    m = email.message_from_bytes(msg.as_bytes(), policy=email.policy.default)
    body = m.get_body(("plain",))  # type: ignore[attr-defined]
    return str(body.get_content()) if body is not None else ""
