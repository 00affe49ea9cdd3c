"""The public board a seat's next decision mail compares with (`engine.public_board`).

It is stored (`SeatOrders.decided_board`, JSON, `pbem.games.notify.mark_decided`) and compared
by `pbem.reports.summary.board_changes`, so it must be what `engine.view(state, None)` shows:
the same keys, order and values.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import pytest

import engine
from pbem.reports.summary import board_changes


def _from_the_view(state: engine.GameState) -> dict[str, Any]:
    """`public_board` as it was written: from the observer's view."""
    v = engine.view(state, None)
    signed = {"kennedy": 1, "nixon": -1}

    def val(space: Mapping[str, Any]) -> int:
        return signed.get(space["side"] or "", 0) * int(space["cubes"])

    return {
        "states": {s: val(sp) for s, sp in v["states"].items()},
        "media": {r: val(sp) for r, sp in v["media"].items()},
        "issues": {i["issue"]: val(i) for i in v["issues"]},
        "issue_order": [i["issue"] for i in v["issues"]],
        "endorsements": {r: val(sp) for r, sp in v["endorsements"].items()},
        "momentum": dict(v["momentum"]),
        "tokens": dict(v["tokens"]),
    }


@pytest.mark.parametrize(
    ("seed", "edition", "options"),
    [
        (1, "zman", ()),
        (2, "gmt", ()),
        (3, "gmt", engine.OPTIONS),
        (4, "gmt", ("vice_presidents",)),
        (5, "zman", ()),
    ],
)
def test_the_public_board_is_the_view_s_at_every_step_of_a_game(
    seed: int, edition: str, options: tuple[str, ...]
) -> None:
    rnd = random.Random(seed)
    g = engine.new_game(seed, edition=edition, options=list(options))
    steps = 0
    while True:
        board = engine.public_board(g)
        expected = _from_the_view(g)
        assert board == expected
        assert json.dumps(board) == json.dumps(expected)  # stored: the same text, key order too
        if not engine.active_sides(g):
            break
        side = rnd.choice(sorted(engine.active_sides(g)))
        engine.apply_in_place(g, side, rnd.choice(engine.legal_commands(g, side)))
        steps += 1
    assert steps > 100 and engine.result(g) is not None


def test_the_public_board_builds_no_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fails before: it was read from a whole observer's view (log, decision, debate)."""
    g = engine.new_game(5)
    expected = _from_the_view(g)
    monkeypatch.setattr(engine, "view", None)
    assert engine.public_board(g) == expected


def test_board_changes_name_issues_as_the_rules_do() -> None:
    """Issues read as everywhere else in a report (R2.3's names), never as the engine's keys."""
    before = engine.public_board(engine.new_game(1))
    after = json.loads(json.dumps(before))
    after["issues"]["civil_rights"] = -2
    after["issue_order"] = ["defense", "civil_rights", "economy"]
    changes = board_changes(before, after)
    assert "Civil Rights: empty -> Nixon 2" in changes
    assert "Issue track now: Defense, Civil Rights, Economy" in changes
