"""#68 Peace Without Surrender: Defense moves up 1; Nixon adds one cube on Defense."""

from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_defense_up_and_nixon_cube() -> None:
    g = played(
        "nixon",
        68,
        issue_order=["economy", "civil_rights", "defense"],
        issues={"defense": 1, "economy": 0, "civil_rights": 0},
    )
    assert g["issue_order"] == ["economy", "defense", "civil_rights"]
    assert g["issues"]["defense"] == 0  # R1.4: the Nixon point removed Kennedy's cube
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_kennedy_playing_it_helps_nixon() -> None:
    g = played("kennedy", 68)
    assert (
        g["issue_order"] == ["defense", "economy", "civil_rights"] and g["issues"]["defense"] == -1
    )


def test_triggered() -> None:
    g = triggered("nixon", 68)
    assert g["issues"]["defense"] == -1 and g["momentum"]["nixon"] == 1
