"""#37 Lunch Counter Sit-Ins: Civil Rights moves up 1; the Civil Rights leader places up to 3 support,
max 1 per state."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_up_and_leader_places() -> None:
    g = played(
        "nixon", 37, clear_board=True, issues={"defense": 0, "economy": 0, "civil_rights": 1}
    )
    assert g["issue_order"] == ["defense", "civil_rights", "economy"]
    assert g["stack"][-1]["step"] == "place_support" and g["stack"][-1]["side"] == "kennedy"
    g = play(g, "kennedy", "support IL")
    assert "support IL" not in engine.legal_commands(g, "kennedy")
    g = play(g, "kennedy", "support OH", "support MI")
    assert sum(g["states"].values()) == 3
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_nobody_leads() -> None:
    g = played("nixon", 37)
    assert awaiting_action(g, "kennedy")


def test_triggered() -> None:
    g = triggered("kennedy", 37, issues={"defense": 0, "economy": 0, "civil_rights": -1})
    assert g["stack"][-1]["side"] == "nixon"
