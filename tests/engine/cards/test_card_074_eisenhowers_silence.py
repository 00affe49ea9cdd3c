"""#74 Eisenhower's Silence: for the rest of the turn Nixon may not spend CP campaigning in any state
Kennedy leads. Prevented once #18 Dwight D. Eisenhower is in force (R6.4)."""

import pytest

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import conserved, played, position_with, triggered
from tests.engine.cards.part2_helpers import effect_ids, in_force


def test_nixon_barred_where_kennedy_leads() -> None:
    g = played("kennedy", 74, other_hand=[89], clear_board=True, states={"CA": 1, "OR": -1})
    assert effect_ids(g) == [("eisenhowers_silence", "nixon")]
    g = play(g, "nixon", "campaign 89")
    legal = engine.legal_commands(g, "nixon")
    assert not any(c.split()[1:2] == ["CA"] and c.startswith(("support", "check")) for c in legal)
    assert "support OR" in legal and "support NV" in legal


def test_decided_when_nixon_campaigns() -> None:
    """A state Kennedy stops leading becomes open again within the same campaign."""
    g = played("kennedy", 74, other_hand=[70], clear_board=True, states={"NV": 1})
    g = play(g, "nixon", "campaign 70")
    assert "support NV" not in engine.legal_commands(g, "nixon")
    g["states"]["NV"] = 0
    assert "support NV" in engine.legal_commands(g, "nixon")


def test_kennedy_unaffected() -> None:
    g = played("kennedy", 74, extra=[49], other_hand=[89], clear_board=True, states={"MA": 1})
    g = play(g, "nixon", "position 89", "done")
    g = play(g, "kennedy", "decline", "campaign 49")
    assert "support MA" in engine.legal_commands(g, "kennedy")


def test_triggered_by_kennedy() -> None:
    g = triggered("kennedy", 74)
    assert effect_ids(g) == [("eisenhowers_silence", "nixon")]


def test_prevented_by_eisenhower() -> None:
    g = in_force(position_with("kennedy", 74), 18)
    assert "event 74" not in engine.legal_commands(g, "kennedy")
    with pytest.raises(
        engine.IllegalCommandError, match=r"prevented by #18 Dwight D. Eisenhower \(R6.4\)"
    ):
        engine.apply(g, "kennedy", "event 74")
    n = in_force(position_with("nixon", 74), 18)
    n = play(n, "nixon", "position 74", "done")
    assert engine.legal_commands(n, "kennedy") != ["trigger", "decline"] and conserved(n)
