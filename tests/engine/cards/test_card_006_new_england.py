"""#6 New England: Kennedy places up to 5 state support, max 2 per state, among Connecticut,
Massachusetts, Maine, Rhode Island, Vermont and New York (ruling: New York, not New Hampshire, is the
sixth state). Event support needs no support checks (R6.10)."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered

SIX = ["support CT", "support MA", "support ME", "support RI", "support VT", "support NY"]


def test_only_the_six_states_new_york_not_new_hampshire() -> None:
    g = played("kennedy", 6, clear_board=True)
    legal = engine.legal_commands(g, "kennedy")
    assert legal == [*SIX, "done"]
    assert "support NH" not in legal  # ruling


def test_five_points_max_two_per_state() -> None:
    g = played("kennedy", 6, clear_board=True)
    g = play(g, "kennedy", "support NY", "support NY")
    assert "support NY" not in engine.legal_commands(g, "kennedy"), "max 2 per state"
    g = play(g, "kennedy", "support MA", "support MA", "support VT")
    assert {st: v for st, v in g["states"].items() if v} == {"NY": 2, "MA": 2, "VT": 1}
    assert awaiting_action(g, "nixon"), "the fifth point ends the event"
    assert 6 in g["removed"] and conserved(g)


def test_up_to_five_points_remove_nixon_cubes_first() -> None:
    """R1.4: two points in Maine where Nixon has one cube leave one Kennedy cube."""
    g = played("kennedy", 6, clear_board=True, states={"ME": -1})
    g = play(g, "kennedy", "support ME", "support ME", "done")
    assert g["states"]["ME"] == 1 and sum(1 for v in g["states"].values() if v) == 1
    assert awaiting_action(g, "nixon")


def test_nixon_playing_it_lets_kennedy_place() -> None:
    g = played("nixon", 6, clear_board=True)
    assert engine.active_sides(g) == {"kennedy"}
    assert engine.legal_commands(g, "nixon") == []
    g = play(g, "kennedy", "support RI", "done")
    assert g["states"]["RI"] == 1


def test_triggered_by_kennedy() -> None:
    g = triggered("kennedy", 6, clear_board=True)
    g = play(g, "kennedy", "support CT", "support CT", "done")
    assert g["states"]["CT"] == 2 and g["momentum"]["kennedy"] == 1
