"""#21 Fifty Stars (ruling): the side with more cubes in Alaska and Hawaii combined places up to 5
support anywhere, max 1 per state; on a tie nobody benefits."""

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


def test_combined_cubes_decide() -> None:
    """Nixon leads Alaska 3-0, Kennedy leads Hawaii with 1: Nixon has more cubes (not more states)."""
    g = played("kennedy", 21, clear_board=True, states={"AK": -3, "HI": 1})
    assert g["stack"][-1]["step"] == "place_support" and g["stack"][-1]["side"] == "nixon"
    g = play(g, "nixon", "support OH")
    assert "support OH" not in engine.legal_commands(g, "nixon")
    g = play(g, "nixon", "support PA", "support NY", "support TX", "support CA")
    assert sum(g["states"].values()) == -2 - 5
    assert awaiting_action(g, "nixon") and conserved(g)


def test_tie_nobody_benefits() -> None:
    g0 = position_with("kennedy", 21, clear_board=True, states={"AK": -2, "HI": 2})
    g = play(g0, "kennedy", "event 21")
    assert awaiting_action(g, "nixon")
    assert "#21 Fifty Stars: neither side has more support in Alaska and Hawaii." in new_log(g0, g)


def test_triggered() -> None:
    g = triggered("nixon", 21, clear_board=True, states={"HI": 1})
    assert g["stack"][-1]["side"] == "kennedy"
