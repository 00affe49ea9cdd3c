"""Render player-facing mail (subject, plain text, HTML) from an engine view.

`render(kind, ctx)` is the only entry point. Work in progress: see the report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

KINDS = ("welcome", "report", "rejected", "help", "game_over", "key_problem", "status")


@dataclass(frozen=True)
class Rendered:
    """One rendered mail: subject line, text/plain body and text/html body."""

    subject: str
    text: str
    html: str


def render(kind: str, ctx: dict[str, Any]) -> Rendered:
    """Render mail ``kind`` (one of KINDS) for ``ctx`` (game_id, side, view, ...)."""
    raise NotImplementedError(kind)
