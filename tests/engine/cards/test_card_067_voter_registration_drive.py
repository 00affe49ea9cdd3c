"""#67 Voter Registration Drive: the player places up to 3 support, max 1 per state, only in states
where neither side has support."""

import engine
from engine.data import STATES
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import (
    awaiting_action,
    conserved,
    new_log,
    played,
    position_with,
    triggered,
)


def test_only_empty_states_offered() -> None:
    g = played("kennedy", 67)
    empty = [s for s in STATES if STATES[s].start == 0]
    assert engine.legal_commands(g, "kennedy") == [f"support {s}" for s in empty] + ["done"]
    assert "support MA" not in engine.legal_commands(g, "kennedy")  # Kennedy already there


def test_one_per_state_three_in_all() -> None:
    g = played("nixon", 67, clear_board=True)
    g = play(g, "nixon", "support NY")
    assert "support NY" not in engine.legal_commands(g, "nixon")
    g = play(g, "nixon", "support CA", "support TX")
    assert g["states"]["NY"] == g["states"]["CA"] == g["states"]["TX"] == -1
    assert sum(g["states"].values()) == -3 and awaiting_action(g, "kennedy") and conserved(g)


def test_no_empty_state_nothing_happens() -> None:
    g = position_with("kennedy", 67, states={s: 1 for s in STATES})
    before = g
    g = play(g, "kennedy", "event 67")
    assert g["states"] == before["states"] and awaiting_action(g, "nixon")
    assert "#67 Voter Registration Drive: there is no state without support." in new_log(before, g)


def test_triggered() -> None:
    g = triggered("nixon", 67, clear_board=True)
    g = play(g, "nixon", "support OH", "done")
    assert g["states"]["OH"] == -1
