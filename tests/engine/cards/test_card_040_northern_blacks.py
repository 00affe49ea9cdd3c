"""#40 Northern Blacks: the Civil Rights leader places up to 5 support among Illinois, Michigan and
New York, max 2 per state."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered

CR_N = {"defense": 0, "economy": 0, "civil_rights": -1}


def test_three_states_max_two_each() -> None:
    g = played("kennedy", 40, clear_board=True, issues=dict(CR_N))
    assert engine.legal_commands(g, "nixon") == ["support IL", "support MI", "support NY", "done"]
    g = play(g, "nixon", "support IL", "support IL")
    assert engine.legal_commands(g, "nixon") == ["support MI", "support NY", "done"]
    g = play(g, "nixon", "support MI", "support MI", "support NY")
    assert (g["states"]["IL"], g["states"]["MI"], g["states"]["NY"]) == (-2, -2, -1)
    assert awaiting_action(g, "nixon") and conserved(g)


def test_nobody_leads() -> None:
    g = played("kennedy", 40)
    assert awaiting_action(g, "nixon")


def test_triggered() -> None:
    g = triggered("nixon", 40, issues={"defense": 0, "economy": 0, "civil_rights": 2})
    assert g["stack"][-1]["side"] == "kennedy"
