"""Compose outbound mail (stub, being written)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping


def make_message_id(kind: str, game_id: int | str, seq: int, side: str, domain: str) -> str:
    raise NotImplementedError


def build_message(
    *,
    sender: str,
    to: str,
    subject: str,
    text: str,
    html: str | None,
    message_id: str,
    in_reply_to: str | None = None,
    references: Iterable[str] = (),
    reply_to: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> bytes:
    raise NotImplementedError
