"""Reply keys: HMAC-signed tokens that say which game and seat a mail answers (C4).

A key looks like ``g12k3-4fj2m7q9xkc5vbnd``: game 12, side Kennedy (``k``/``n``),
key generation 3, then 16 base32 characters (80 bits) of
``HMAC-SHA256(PBEM_SECRET, "12|kennedy|3|<seat salt>")``. It is lower case so it
survives MTAs that fold local parts, and it fits the 64-octet local-part limit.

Players reply to ``game+<key>@domain`` (plus-addressing on ``PBEM_ADDRESS``);
our Message-IDs embed the key too, so a reply to the bare address is still
recognised from In-Reply-To/References. A key of an older generation is
*stale*: the seat's decision has changed since that report.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass

__all__ = ["ReplyKey", "find_keys", "key_for", "message_id", "reply_address", "verify"]

SIDE_CODES = {"kennedy": "k", "nixon": "n"}
CODE_SIDES = {v: k for k, v in SIDE_CODES.items()}
KEY_RE = re.compile(r"(?<![a-z0-9])g(\d{1,9})([kn])(\d{1,9})-([a-z2-7]{16})(?![a-z0-9])")


@dataclass(frozen=True)
class ReplyKey:
    """A parsed (not yet verified) key."""

    game_id: int
    side: str
    gen: int
    token: str

    @property
    def text(self) -> str:
        return f"g{self.game_id}{SIDE_CODES[self.side]}{self.gen}-{self.token}"


def _token(secret: str, game_id: int, side: str, gen: int, salt: str) -> str:
    msg = f"{game_id}|{side}|{gen}|{salt}".encode()
    digest = hmac.new(secret.encode(), msg, hashlib.sha256).digest()
    return base64.b32encode(digest[:10]).decode().lower()


def key_for(secret: str, game_id: int, side: str, gen: int, salt: str) -> ReplyKey:
    """The key of a seat at generation ``gen``."""
    return ReplyKey(game_id, side, gen, _token(secret, game_id, side, gen, salt))


def verify(secret: str, key: ReplyKey, salt: str) -> bool:
    """True if ``key`` was signed by us for that seat (constant-time compare)."""
    good = _token(secret, key.game_id, key.side, key.gen, salt)
    return hmac.compare_digest(good, key.token)


def reply_address(address: str, key: ReplyKey) -> str:
    """``game@example.test`` + key -> ``game+<key>@example.test`` (lower case)."""
    local, _, domain = address.lower().partition("@")
    return f"{local}+{key.text}@{domain}"


def message_id(address: str, key: ReplyKey, cause: str) -> str:
    """A deterministic Message-ID for the mail caused by ``cause`` (e.g. ``v7``, ``in42``)."""
    domain = address.lower().partition("@")[2] or "localhost"
    return f"<1960.{key.text}.{cause}@{domain}>"


def find_keys(*sources: str) -> list[ReplyKey]:
    """Every key-shaped token in the given header values, in order, without repeats."""
    seen: set[str] = set()
    out: list[ReplyKey] = []
    for text in sources:
        for m in KEY_RE.finditer(text.lower()):
            key = ReplyKey(int(m.group(1)), CODE_SIDES[m.group(2)], int(m.group(3)), m.group(4))
            if key.text not in seen:
                seen.add(key.text)
                out.append(key)
    return out
