"""#49 Eleanor Roosevelt's Speaking Tour: Kennedy places up to 5 support in Midwestern states,
max 2 per state (card_effects.md; R6.10 no checks)."""

import engine
from engine.data import STATES
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered

MIDWEST = sorted(s for s, i in STATES.items() if i.region == "midwest")


def test_choices_are_the_midwestern_states() -> None:
    g = played("kennedy", 49)
    legal = engine.legal_commands(g, "kennedy")
    assert legal == [f"support {s}" for s in STATES if s in MIDWEST] + ["done"]


def test_max_two_per_state_five_in_all_no_checks() -> None:
    """Nixon's token in Ohio and Nixon cubes there: still no checks (R6.10); R1.4 removes first."""
    g = played(
        "kennedy", 49, clear_board=True, states={"OH": -1}, token={"kennedy": "MA", "nixon": "OH"}
    )
    g = play(g, "kennedy", "support OH", "support OH")
    assert "support OH" not in engine.legal_commands(g, "kennedy")
    assert g["states"]["OH"] == 1
    g = play(g, "kennedy", "support IL", "support IL", "support WI")
    assert g["states"]["IL"] == 2 and g["states"]["WI"] == 1
    assert awaiting_action(g, "nixon") and conserved(g)
    assert 49 in g["removed"] and g["rest"]["kennedy"] == 1  # R6.3, R6.2


def test_may_stop_early() -> None:
    g = played("kennedy", 49, clear_board=True)
    g = play(g, "kennedy", "support MI", "done")
    assert sum(g["states"].values()) == 1 and awaiting_action(g, "nixon")


def test_triggered_by_kennedy_when_nixon_plays_it_for_cp() -> None:
    g = triggered("kennedy", 49, clear_board=True)
    assert engine.legal_commands(g, "kennedy")[-1] == "done"
    g = play(g, "kennedy", "support MN")
    assert g["states"]["MN"] == 1 and g["momentum"]["kennedy"] == 1  # R6.7 costs 1
    assert g["rest"]["kennedy"] == 0  # R6.2: no rest cubes for a triggered event
