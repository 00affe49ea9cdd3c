"""Reply keys: HMAC-signed tokens that say which game and seat a mail answers (C4).

A key looks like ``g12k3-4fj2m7q9xkc5vbnd``: game 12, side Kennedy (``k``/``n``),
key generation 3, then 16 base32 characters (80 bits) of
``HMAC-SHA256(PBEM_SECRET, "12|kennedy|3|<seat salt>")``. It is lower case so it
survives MTAs that fold local parts, and it fits the 64-octet local-part limit.

Players reply to ``game+<key>@domain`` (plus-addressing on ``PBEM_ADDRESS``);
our Message-IDs embed the key too, so a reply to the bare address is still
recognised from In-Reply-To/References. A key of an older generation is
*stale*: the seat's decision has changed since that report.

Every Message-ID we send ends in a tag, 8 base32 characters of
``HMAC-SHA256(PBEM_SECRET, "mid|<left part>@<domain>")`` (`signed_message_id`), so a
delivery report that names one of our mails can be told from a forged one that names a
guessed or invented Message-ID (`is_our_message_id`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "ReplyKey",
    "find_keys",
    "is_our_message_id",
    "key_for",
    "message_id",
    "reply_address",
    "signed_message_id",
    "verify",
]

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


def message_id(secret: str, address: str, key: ReplyKey, cause: str) -> str:
    """A deterministic, signed Message-ID for the seat's mail caused by ``cause`` (``v7``, ``in42``)."""
    return signed_message_id(secret, address, f"1960.{key.text}.{cause}")


def _mid_tag(secret: str, left: str, domain: str) -> str:
    msg = f"mid|{left.lower()}@{domain}".encode()  # case-blind: some MTAs fold headers
    digest = hmac.new(secret.encode(), msg, hashlib.sha256).digest()
    return base64.b32encode(digest[:5]).decode().lower()


def signed_message_id(secret: str, address: str, left: str) -> str:
    """``<left.TAG@domain of address>``: a Message-ID of ours, signed with ``secret``."""
    domain = address.lower().partition("@")[2] or "localhost"
    return f"<{left}.{_mid_tag(secret, left, domain)}@{domain}>"


def is_our_message_id(secrets: Sequence[str], mid: str) -> bool:
    """True if ``mid`` was made by `signed_message_id` with one of ``secrets`` (the current
    secret and the previous ones still accepted): its tag checks out (constant-time)."""
    inner = mid.strip().removeprefix("<").removesuffix(">")
    left_tag, at, domain = inner.rpartition("@")
    left, dot, tag = left_tag.rpartition(".")
    if not (at and dot and left and len(tag) == 8):
        return False
    tag, domain = tag.lower(), domain.lower()
    return any(hmac.compare_digest(_mid_tag(s, left, domain), tag) for s in secrets)


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
