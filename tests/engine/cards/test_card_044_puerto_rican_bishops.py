"""#44 Puerto Rican Bishops: Kennedy may not spend momentum for the rest of the turn (no trigger R6.7,
no preempt R6.8). Prevented once #1 is in force (R6.4)."""

import pytest

import engine
from engine import effects
from tests.engine.builders import action_position, play
from tests.engine.cards.part1_helpers import conserved, position_with, triggered

PREVENTION = {"prevention": [1], "debate": [], "election_day": []}


def test_kennedy_cannot_trigger_or_preempt() -> None:
    g = action_position("nixon", [44, 27], other_hand=[43], momentum={"kennedy": 4, "nixon": 2})
    g = play(g, "nixon", "event 44")
    assert effects.momentum_locked(g, "kennedy") and not effects.momentum_locked(g, "nixon")
    legal = engine.legal_commands(g, "kennedy")
    assert "campaign 43" in legal and "campaign 43 preempt" not in legal
    g = play(g, "kennedy", "position 43", "done")
    g = play(g, "nixon", "decline", "position 27", "done")  # Kennedy may not trigger #27
    assert g["stack"][-1]["step"] == "action" and 27 in g["discard"]
    assert g["momentum"]["kennedy"] == 4 and conserved(g)


def test_prevented_by_greater_houston() -> None:
    g = position_with("nixon", 44, persistent=PREVENTION)
    assert "event 44" not in engine.legal_commands(g, "nixon")
    with pytest.raises(engine.IllegalCommandError, match="prevented by #1 Greater Houston"):
        engine.apply(g, "nixon", "event 44")
    assert conserved(g)


def test_triggered_by_nixon() -> None:
    g = triggered("nixon", 44)
    assert effects.momentum_locked(g, "kennedy")
