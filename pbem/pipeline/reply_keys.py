"""Where a mail's reply key may be, and the seat it verifies for.

A reply key (`pbem.keys`) is in the address the player answered (To/Cc, or the trace headers our
MTA adds), else in the threading headers of a client that replied to the wrong address. Read by
the ``observer-mail`` and ``identify-seat`` stages, and by the worker's hand-over
(`pbem.worker.handover`) to find the game of a mail before it is applied.
"""

from __future__ import annotations

import re
from typing import Any

from sqlmodel import Session

from pbem import keys
from pbem.config import Settings, accepted_secrets
from pbem.mail import ParsedMessage
from pbem.outbox.queue import seats_of

KEY_HEADERS = re.compile(
    rb"^(to|cc|delivered-to|x-original-to|envelope-to|received):.*(\r?\n[ \t].*)*", re.I | re.M
)


def key_sources(raw: bytes, p: ParsedMessage) -> list[str]:
    """The header values a reply key may be in, best first (address, trace, threading)."""
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    traced = [m.group(0).decode("ascii", "replace") for m in KEY_HEADERS.finditer(head)]
    return [*p.to_addrs, *traced, p.in_reply_to or "", *reversed(p.references)]


def seat_by_key(session: Session, raw: bytes, p: ParsedMessage, settings: Settings) -> Any:
    """The (key, seat) of the first verified reply key in the mail, or None."""
    for key in keys.find_keys(*key_sources(raw, p)):
        seat = seats_of(session, key.game_id).get(key.side)  # the game's seats, asked once
        if seat is not None and any(
            keys.verify(secret, key, seat.key_salt) for secret in accepted_secrets(settings)
        ):
            return key, seat
    return None
