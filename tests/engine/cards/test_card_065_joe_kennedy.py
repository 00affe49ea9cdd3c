"""#65 Joe Kennedy: Nixon may not spend momentum for the rest of the turn: no preempting (R6.8), no
triggering (R6.7), no momentum-priced plays (reuses the effect of #44)."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import played, triggered
from tests.engine.cards.part2_helpers import effect_ids


def test_nixon_cannot_preempt() -> None:
    g = played("kennedy", 65, other_hand=[89], momentum={"kennedy": 2, "nixon": 5})
    assert effect_ids(g) == [("no_momentum_spending", "nixon")]
    legal = engine.legal_commands(g, "nixon")
    assert "campaign 89" in legal and not any(c.endswith("preempt") for c in legal)


def test_nixon_cannot_trigger() -> None:
    g = played("kennedy", 65, extra=[49], other_hand=[89], momentum={"kennedy": 2, "nixon": 5})
    g = play(g, "nixon", "position 89", "done")
    g = play(g, "kennedy", "decline", "position 49", "done")
    assert engine.legal_commands(g, "nixon") != ["trigger", "decline"]
    assert 49 in g["discard"]


def test_kennedy_still_may_spend() -> None:
    g = played("kennedy", 65, extra=[49], other_hand=[89], momentum={"kennedy": 2, "nixon": 5})
    g = play(g, "nixon", "position 89", "done")
    assert engine.legal_commands(g, "kennedy") == ["trigger", "decline"]


def test_nixon_cannot_pay_an_event_cost_while_locked() -> None:
    """With #85 Jackie Kennedy also in force, a locked Nixon cannot pay 1 momentum to play an event."""
    g = played("kennedy", 65, other_hand=[89], momentum={"kennedy": 2, "nixon": 5})
    g["effects"].append({"id": "jackie_kennedy", "side": "nixon", "card": 85})
    assert "event 89" not in engine.legal_commands(g, "nixon")


def test_triggered_by_kennedy() -> None:
    g = triggered("kennedy", 65)
    assert effect_ids(g) == [("no_momentum_spending", "nixon")]
