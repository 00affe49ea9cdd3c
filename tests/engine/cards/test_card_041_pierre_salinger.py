"""#41 Pierre Salinger: Kennedy gains 3 issue support, all on one issue of his choice (R1.4)."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered

CHOICES = ["issue defense", "issue economy", "issue civil_rights"]


def test_one_issue_gets_all_three() -> None:
    g = played("kennedy", 41, issues={"defense": 0, "economy": -1, "civil_rights": 0})
    assert engine.legal_commands(g, "kennedy") == CHOICES
    g = play(g, "kennedy", "issue economy")
    assert g["issues"] == {"defense": 0, "economy": 2, "civil_rights": 0}
    assert awaiting_action(g, "nixon") and conserved(g)


def test_accepts_a_readable_issue_name() -> None:
    g = play(played("kennedy", 41), "kennedy", "issue civil rights")
    assert g["issues"]["civil_rights"] == 3


def test_triggered_by_nixon_still_kennedy() -> None:
    g = triggered("nixon", 41)
    assert engine.legal_commands(g, "kennedy") == CHOICES
    assert engine.legal_commands(g, "nixon") == []
