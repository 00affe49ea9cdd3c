"""#13 Nikita Kruschev (ruling: the event of #84 Quemoy and Matsu): the Defense leader gains 1 momentum
and places up to 3 support anywhere, max 1 per state."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_defense_leader_momentum_and_three_support() -> None:
    g = played(
        "kennedy", 13, clear_board=True, issues={"defense": -2, "economy": 0, "civil_rights": 0}
    )
    assert g["momentum"] == {"kennedy": 2, "nixon": 3}
    assert g["stack"][-1]["step"] == "place_support" and g["stack"][-1]["side"] == "nixon"
    g = play(g, "nixon", "support OH")
    assert "support OH" not in engine.legal_commands(g, "nixon")
    g = play(g, "nixon", "support PA", "support NY")
    assert (g["states"]["OH"], g["states"]["PA"], g["states"]["NY"]) == (-1, -1, -1)
    assert awaiting_action(g, "nixon") and conserved(g)


def test_nobody_leads_defense_nothing() -> None:
    g = played("kennedy", 13)
    assert g["momentum"] == {"kennedy": 2, "nixon": 2} and awaiting_action(g, "nixon")


def test_triggered() -> None:
    g = triggered("kennedy", 13, issues={"defense": 1, "economy": 0, "civil_rights": 0})
    assert g["momentum"]["kennedy"] == 2  # paid 1, gained 1
