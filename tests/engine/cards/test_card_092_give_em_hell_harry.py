"""#92 Give 'Em Hell Harry (GMT, R16.6): only if Kennedy leads two or more issues, Kennedy loses 1
momentum and must remove 2 of his issue support in total, choosing the issues (ruling)."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import (
    awaiting_action,
    conserved,
    new_log,
    played,
    position_with,
    triggered,
)

TWO = {"defense": 2, "economy": 1, "civil_rights": -1}


def test_kennedy_chooses_which_issues() -> None:
    g = played("nixon", 92, edition="gmt", issues=dict(TWO))
    assert g["momentum"]["kennedy"] == 1 and engine.active_sides(g) == {"kennedy"}
    assert engine.legal_commands(g, "kennedy") == ["issue defense", "issue economy"]  # no 'done'
    g = play(g, "kennedy", "issue economy")
    assert engine.legal_commands(g, "kennedy") == ["issue defense"]
    g = play(g, "kennedy", "issue defense")
    assert g["issues"] == {"defense": 1, "economy": 0, "civil_rights": -1}
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_both_from_one_issue() -> None:
    g = played("nixon", 92, edition="gmt", issues=dict(TWO))
    g = play(g, "kennedy", "issue defense", "issue defense")
    assert g["issues"] == {"defense": 0, "economy": 1, "civil_rights": -1}


def test_not_when_kennedy_leads_fewer_than_two() -> None:
    g = position_with(
        "nixon", 92, edition="gmt", issues={"defense": 3, "economy": -1, "civil_rights": 0}
    )
    before = g
    g = play(g, "nixon", "event 92")
    assert g["issues"] == before["issues"] and g["momentum"] == before["momentum"]
    assert (
        "#92 Give 'Em Hell Harry: Kennedy leads fewer than 2 issues, so nothing happens."
        in new_log(before, g)
    )
    assert awaiting_action(g, "kennedy")


def test_triggered_by_nixon() -> None:
    g = triggered("nixon", 92, edition="gmt", issues=dict(TWO))
    assert g["momentum"] == {"kennedy": 1, "nixon": 1}
    assert engine.active_sides(g) == {"kennedy"}


def test_kennedy_removes_his_own_cubes_in_words() -> None:
    """It read 'Kennedy removes 1 Kennedy cube from Economy'."""
    g0 = played("nixon", 92, edition="gmt", issues=dict(TWO))
    g = play(g0, "kennedy", "issue economy", "issue defense")
    assert new_log(g0, g) == [
        "Kennedy removes 1 of his own cubes from Economy.",
        "Kennedy removes 1 of his own cubes from Defense.",
    ]
