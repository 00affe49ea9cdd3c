"""Card event texts for players: the short form of each card's event, by card number.

The texts are the project's own summaries of the printed events (prepared once by
``scripts/make_card_text.py`` into ``pbem/reports/data/card_text.json``; sources in
docs/DATA.md), with the project's rulings folded in, so they say what the engine does.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import engine

__all__ = ["cards_named", "event_text", "find"]

DATA = Path(__file__).resolve().parent / "data" / "card_text.json"
_CARD_REF = re.compile(r"#(\d{1,3})\b")


@cache
def _texts() -> dict[int, str]:
    raw: dict[str, dict[str, str]] = json.loads(DATA.read_text(encoding="utf-8"))
    return {int(n): entry["text"] for n, entry in raw.items()}


def event_text(n: int) -> str:
    """Card ``n``'s event in a few sentences (empty for an unknown card number)."""
    return _texts().get(n, "")


def cards_named(text: str) -> list[int]:
    """Card numbers written as ``#N`` in ``text`` (prompts, log lines), in order, no repeats."""
    return list(dict.fromkeys(int(m) for m in _CARD_REF.findall(text) if int(m) in engine.CARDS))


def _norm(s: str) -> str:
    s = s.lower().replace("&", " and ").replace("\u2019", "'")
    s = re.sub(r"['\".!?#]", "", s)
    return re.sub(r"[^a-z0-9]+", " ", s).strip()


@cache
def _names() -> tuple[tuple[str, int], ...]:
    return tuple(
        sorted({(_norm(n), c.number) for c in engine.CARDS.values() for n in (c.name, *c.aliases)})
    )


def find(query: str) -> list[int]:
    """Cards matching ``query``: a number (``17``, ``#17``), a name, the start of a name, or
    failing those, words found in a name; a unique match is a list of one."""
    q = _norm(query)
    if not q:
        return []
    if q.isdigit():
        return [int(q)] if int(q) in engine.CARDS else []
    for test in (
        lambda name: name == q,
        lambda name: name.startswith(q),
        lambda name: all(w in name.split() for w in q.split()),
    ):
        found = sorted({n for name, n in _names() if test(name)})
        if found:
            return found
    return []
