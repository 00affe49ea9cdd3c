"""#24 East Harlem Pledge: Nixon loses one Civil Rights cube (if any, R6.6); Kennedy removes up to 5
Nixon support in the South, max 2 per state."""

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


def test_issue_loss_and_southern_removal() -> None:
    g = played(
        "kennedy",
        24,
        clear_board=True,
        issues={"defense": 0, "economy": 0, "civil_rights": -2},
        states={"TX": -3, "GA": -1, "OH": -2},
    )
    assert g["issues"]["civil_rights"] == -1
    assert sorted(engine.legal_commands(g, "kennedy")) == ["done", "remove GA", "remove TX"]
    g = play(g, "kennedy", "remove TX", "remove TX")
    assert engine.legal_commands(g, "kennedy") == ["remove GA", "done"]
    g = play(g, "kennedy", "remove GA")
    assert (g["states"]["TX"], g["states"]["GA"], g["states"]["OH"]) == (-1, 0, -2)
    assert awaiting_action(g, "nixon") and conserved(g)


def test_loss_limited_no_nixon_issue_cube() -> None:
    """R6.6: Kennedy leads Civil Rights; Nixon has nothing to lose there and Kennedy gains nothing."""
    g = played(
        "kennedy", 24, clear_board=True, issues={"defense": 0, "economy": 0, "civil_rights": 1}
    )
    assert g["issues"]["civil_rights"] == 1
    assert awaiting_action(g, "nixon")  # no Nixon cube in the South: no removal step


def test_triggered_by_kennedy() -> None:
    g = triggered("kennedy", 24, clear_board=True, states={"AL": -2})
    g = play(g, "kennedy", "remove AL", "remove AL")
    assert g["states"]["AL"] == 0 and g["momentum"]["kennedy"] == 1


def test_nothing_to_remove_names_whose_support_and_where() -> None:
    """It read 'there is no opposing support there to remove'."""
    g0 = position_with("kennedy", 24, clear_board=True, states={"OH": -2})
    g = play(g0, "kennedy", "event 24")
    assert "#24 East Harlem Pledge: Nixon has no support in the South to remove (R6.6)." in new_log(
        g0, g
    )
