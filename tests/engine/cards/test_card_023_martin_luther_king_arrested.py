"""#23 Martin Luther King Arrested: Civil Rights moves up 1; the player adds 3 Civil Rights cubes (R1.4)."""

from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_up_and_three_cubes_for_the_player() -> None:
    g = played("kennedy", 23, issues={"defense": 0, "economy": 0, "civil_rights": -1})
    assert g["issue_order"] == ["defense", "civil_rights", "economy"]
    assert g["issues"]["civil_rights"] == 2  # one point removes Nixon's cube (R1.4)
    assert awaiting_action(g, "nixon") and conserved(g)


def test_nixon_plays_it() -> None:
    g = played("nixon", 23)
    assert g["issues"]["civil_rights"] == -3


def test_triggered() -> None:
    g = triggered("nixon", 23)
    assert g["issues"]["civil_rights"] == -3 and g["momentum"]["nixon"] == 1
