"""Parse one raw inbound mail defensively into a :class:`ParsedMessage` (stub, being written)."""

from __future__ import annotations

from dataclasses import dataclass, field


class MalformedMessage(ValueError):
    """The raw bytes cannot be read as a mail message (or exceed our limits)."""


@dataclass(frozen=True)
class ParsedMessage:
    message_id: str | None
    from_addr: str
    from_display: str
    to_addrs: list[str]
    subject: str
    in_reply_to: str | None
    references: list[str] = field(default_factory=list)
    auto_reason: str | None = None
    text: str = ""
    size: int = 0


def parse_message(raw: bytes, own_address: str) -> ParsedMessage:
    raise NotImplementedError
