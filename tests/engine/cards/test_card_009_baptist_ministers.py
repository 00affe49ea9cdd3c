"""#9 Baptist Ministers: Nixon removes up to 5 Kennedy support in the South/Midwest, max 2 per state.
Prevented once #1 is in force (R6.4)."""

import pytest

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import (
    awaiting_action,
    conserved,
    played,
    position_with,
    triggered,
)

BOARD = {"TX": 3, "OH": 1, "NY": 4, "CA": 2, "GA": -2}
PREVENTION = {"prevention": [1], "debate": [], "election_day": []}


def test_choices_only_kennedy_cubes_in_south_and_midwest() -> None:
    g = played("nixon", 9, clear_board=True, states=BOARD)
    assert engine.legal_commands(g, "nixon") == ["remove OH", "remove TX", "done"]


def test_max_two_per_state_and_five_in_all() -> None:
    board = {"TX": 3, "OH": 3, "GA": 3, "IL": 1}
    g = played("nixon", 9, clear_board=True, states=board)
    g = play(g, "nixon", "remove TX", "remove TX")
    assert "remove TX" not in engine.legal_commands(g, "nixon")
    g = play(g, "nixon", "remove OH", "remove OH", "remove GA")
    assert g["states"]["TX"] == 1 and g["states"]["OH"] == 1 and g["states"]["GA"] == 2
    assert g["states"]["IL"] == 1
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_up_to_five_may_stop_early() -> None:
    g = played("nixon", 9, clear_board=True, states=BOARD)
    g = play(g, "nixon", "remove TX", "done")
    assert g["states"]["TX"] == 2 and g["states"]["OH"] == 1
    assert awaiting_action(g, "kennedy")


def test_loss_limited_to_cubes_on_board() -> None:
    """R6.6: only one Kennedy cube in the region: the step ends after it."""
    g = played("nixon", 9, clear_board=True, states={"OH": 1})
    g = play(g, "nixon", "remove OH")
    assert g["states"]["OH"] == 0 and awaiting_action(g, "kennedy")


def test_triggered_by_nixon() -> None:
    g = triggered("nixon", 9, clear_board=True, states={"TX": 2})
    assert engine.legal_commands(g, "nixon") == ["remove TX", "done"]
    g = play(g, "nixon", "remove TX", "remove TX")
    assert g["states"]["TX"] == 0 and g["momentum"]["nixon"] == 1 and conserved(g)


def test_prevented_by_greater_houston() -> None:
    """R6.4: with #1 in force #9 can be neither played as an event nor triggered."""
    g = position_with("nixon", 9, persistent=PREVENTION)
    assert "event 9" not in engine.legal_commands(g, "nixon")
    with pytest.raises(
        engine.IllegalCommandError, match="prevented by #1 Greater Houston Ministerial Association"
    ):
        engine.apply(g, "nixon", "event 9")
    k = position_with("kennedy", 9, persistent=PREVENTION)
    k = play(k, "kennedy", "position 9", "done")
    assert engine.legal_commands(k, "nixon") != ["trigger", "decline"]
    assert 9 in k["discard"] and conserved(k)
