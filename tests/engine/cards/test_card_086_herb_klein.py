"""#86 Herb Klein (ruling): Nixon gains 3 issue support, split among the issues as he likes."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered

ALL = ["issue defense", "issue economy", "issue civil_rights"]


def test_three_points_split_no_early_stop() -> None:
    g = played("nixon", 86, issues={"defense": 1, "economy": 0, "civil_rights": 0})
    assert engine.legal_commands(g, "nixon") == ALL
    g = play(g, "nixon", "issue defense", "issue defense")
    assert engine.legal_commands(g, "nixon") == ALL
    g = play(g, "nixon", "issue civil rights")
    assert g["issues"] == {"defense": -1, "economy": 0, "civil_rights": -1}
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_all_on_one_issue() -> None:
    g = played("kennedy", 86)
    g = play(g, "nixon", "issue economy", "issue economy", "issue economy")
    assert g["issues"]["economy"] == -3 and awaiting_action(g, "nixon")


def test_triggered() -> None:
    g = triggered("nixon", 86)
    g = play(g, "nixon", "issue economy 3")
    assert g["issues"]["economy"] == -3


def test_each_point_is_logged_on_its_issue() -> None:
    """It read 'Nixon gains 1 support in Civil Rights'."""
    g = play(played("nixon", 86), "nixon", "issue civil rights")
    assert g["log"][-1]["text"] == "Nixon gains 1 support on Civil Rights."
