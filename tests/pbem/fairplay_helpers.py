"""Helpers for the fair-play tests: invite through the harness, play a game out, read mails whole,
confirm an observer."""

from __future__ import annotations

import hashlib
import json
import random
import re
from email.message import EmailMessage
from typing import Any

from sqlmodel import Session

import engine
from pbem.games import setup as game_setup
from pbem.store.models import Commitment, Game
from tests.pbem.harness import EMAILS, Harness, player_mail


def invite(h: Harness, **kw: Any) -> int:
    """A game with invitations (the harness's own `new_game` starts seeded games at once)."""
    h.game_id = game_setup.new_game(
        h.db, h.settings, kennedy=EMAILS["kennedy"], nixon=EMAILS["nixon"], invite=True, **kw
    )
    h.send()
    return h.game_id


def game_row(h: Harness) -> Game:
    with Session(h.db) as s:
        game = s.get(Game, h.game_id)
        assert game is not None
        return game


def commitment_row(h: Harness) -> Commitment:
    with Session(h.db) as s:
        row = s.get(Commitment, h.game_id)
        assert row is not None
        return row


def whole_text(msg: EmailMessage) -> str:
    """Every header and every decoded part (text, HTML, attachments) of a mail, as one string."""
    out = [f"{k}: {v}" for k, v in msg.items()]
    for part in msg.walk():
        if part.is_multipart():
            continue
        payload = part.get_payload(decode=True)
        out.append(
            payload.decode("utf-8", "replace") if isinstance(payload, bytes) else str(payload)
        )
    return "\n".join(out)


def attachment(msg: EmailMessage, name_end: str = "export.json") -> dict[str, Any] | None:
    for part in msg.walk():
        if (part.get_filename() or "").endswith(name_end):
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            return json.loads(payload)  # type: ignore[no-any-return]
    return None


def secrets_of(h: Harness) -> list[str]:
    """What must never be in a mail before the end: seed, engine seed, the RNG key."""
    c = commitment_row(h)
    assert c.server_seed and c.engine_seed
    key = hashlib.sha256(b"1960:" + c.engine_seed.encode()).hexdigest()
    return [c.server_seed, c.engine_seed, key, c.engine_seed[:24]]


def play_out(h: Harness, rnd: random.Random, max_mails: int = 3000) -> int:
    """Random legal commands, one mail each, until the game ends; returns the mails sent."""
    for n in range(max_mails):
        state = h.state()
        if engine.result(state) is not None:
            return n
        active = sorted(engine.active_sides(state))
        side = active[rnd.randrange(len(active))]
        h.reply(side, rnd.choice(engine.legal_commands(state, side)))
    raise AssertionError(f"the game did not end in {max_mails} mails")


def confirm_observer(h: Harness, address: str) -> None:
    """The observer at ``address`` replies to its request with the code it was sent."""
    h.mails_to("kennedy")
    ask = [msg for rcpts, msg in h._parsed if address in rcpts][-1]
    found = re.search(r"confirm ([A-Z2-7]{6})", whole_text(ask))
    assert found is not None, "no confirmation code in the observer's request"
    h.inbox.deliver(
        player_mail(
            address,
            str(ask["Reply-To"]),
            f"confirm {found.group(1)}",
            in_reply_to=str(ask["Message-ID"]),
        )
    )
    h.poll()
