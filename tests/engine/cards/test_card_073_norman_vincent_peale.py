"""#73 Norman Vincent Peale: Nixon removes up to 5 Kennedy support anywhere, max 1 per state.
Prevented once #1 Greater Houston Ministerial Association is in force (R6.4)."""

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
from tests.engine.cards.part2_helpers import in_force

BOARD = {"MA": 3, "NY": 1, "TX": 2, "CA": -2, "IL": 1, "OH": 1, "GA": 1}


def test_choices_only_kennedy_cubes() -> None:
    g = played("nixon", 73, clear_board=True, states=BOARD)
    assert engine.legal_commands(g, "nixon") == [
        "remove GA",
        "remove IL",
        "remove MA",
        "remove NY",
        "remove OH",
        "remove TX",
        "done",
    ]


def test_one_per_state_five_in_all() -> None:
    g = played("nixon", 73, clear_board=True, states=BOARD)
    g = play(g, "nixon", "remove MA")
    assert "remove MA" not in engine.legal_commands(g, "nixon")
    g = play(g, "nixon", "remove NY", "remove TX", "remove IL", "remove OH")
    assert g["states"] == {**g["states"], "MA": 2, "NY": 0, "TX": 1, "IL": 0, "OH": 0, "GA": 1}
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_loss_limited_to_the_board() -> None:
    """R6.6: a single Kennedy cube on the board: the step ends after it."""
    g = played("nixon", 73, clear_board=True, states={"NY": 1})
    g = play(g, "nixon", "remove NY")
    assert g["states"]["NY"] == 0 and awaiting_action(g, "kennedy")


def test_triggered_by_nixon() -> None:
    g = triggered("nixon", 73, clear_board=True, states={"NY": 2})
    assert engine.legal_commands(g, "nixon") == ["remove NY", "done"]


def test_prevented_by_greater_houston() -> None:
    g = in_force(position_with("nixon", 73), 1)
    assert "event 73" not in engine.legal_commands(g, "nixon")
    with pytest.raises(
        engine.IllegalCommandError,
        match=r"prevented by #1 Greater Houston Ministerial Association \(R6.4\)",
    ):
        engine.apply(g, "nixon", "event 73")
    k = in_force(position_with("kennedy", 73), 1)
    k = play(k, "kennedy", "position 73", "done")
    assert engine.legal_commands(k, "nixon") != ["trigger", "decline"] and 73 in k["discard"]
    assert conserved(k)
