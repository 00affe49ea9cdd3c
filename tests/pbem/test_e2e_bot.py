"""End to end over real SMTP and IMAP: a scripted human plays a whole game against
``bot:heuristic``. The bot answers in the worker's pass, its seat is never mailed, and every
report the human gets is an ordinary one (one per move, then the final tally)."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from sqlmodel import Session, col, select

import engine
from pbem.games import setup as game_setup
from pbem.games import views as game_views
from pbem.store.db import make_engine, migrate
from pbem.store.models import InboundMessage, Move, OutboxMessage
from pbem.worker.demo import ScriptedPlayer, play_by_email
from tests.pbem.mailtools import MailServer
from tests.pbem.test_e2e_mail import _settings, _text


@pytest.mark.timeout(900)
def test_a_complete_game_against_the_heuristic_bot_by_email(
    mail_server: MailServer, tmp_path: Path
) -> None:
    settings = _settings(mail_server, tmp_path, mail_server.fresh_address("game"))
    db = make_engine(settings.database_url)
    migrate(db)
    human = mail_server.fresh_address("kennedy")
    game_id = game_setup.new_game(db, settings, kennedy=human, nixon="bot:heuristic", seed=11)
    player = ScriptedPlayer(
        "kennedy", human, settings, random.Random(11), tmp_path, password=mail_server.password
    )
    started = time.perf_counter()
    sent, view = play_by_email(
        db, settings, game_id, {"kennedy": player}, max_moves=3000, timeout=60
    )
    seconds = time.perf_counter() - started
    print(f"\n[{mail_server.kind}] {sent} human mails against bot:heuristic in {seconds:.1f} s")
    assert view["result"] is not None and view["result"]["winner"] in engine.SIDES
    assert game_views.replay(db, game_id).ok
    with Session(db) as s:
        assert {r.outcome for r in s.exec(select(InboundMessage))} == {"applied"}
        log = list(s.exec(select(Move).where(Move.game_id == game_id).order_by(col(Move.seq))))
        outbox = list(s.exec(select(OutboxMessage)))
    bot_moves = [m for m in log if m.side == "nixon"]
    assert sum(m.inbound_id is None for m in bot_moves) > 50  # decided by the bot, in the worker
    assert len(log) - len(bot_moves) >= sent
    assert {r.recipient for r in outbox} == {human}  # the bot's seat is never mailed
    assert sent < player.received <= sent + 1  # the welcome, then a report per mail
    final = _text(player.latest)
    assert "game over" in str(player.latest["Subject"]).lower() if player.latest else False
    ev = view["result"]["electoral_votes"]
    assert str(ev["kennedy"]) in final and str(ev["nixon"]) in final
