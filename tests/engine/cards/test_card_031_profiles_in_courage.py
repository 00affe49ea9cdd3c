"""#31 Profiles in Courage: for the rest of the turn Kennedy may redraw a failed support check, each
failed check once (R3.1)."""

from engine import board, effects
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import conserved, new_log, played, triggered


def test_failed_check_is_redrawn_once() -> None:
    g = played("kennedy", 31, extra=[41], states={"NY": -4}, bag={"kennedy": 1, "nixon": 1})
    assert effects.may_redraw(g, "kennedy") and not effects.may_redraw(g, "nixon")
    g = play(g, "nixon", "candidate position", "done")
    g = play(g, "kennedy", "campaign 41", "check NY 1")
    # whatever came first, Kennedy ends with his own cube: a Nixon draw was redrawn
    assert g["states"]["NY"] == -3
    assert conserved(g)


def test_redraw_only_once() -> None:
    g = played("kennedy", 31, bag={"kennedy": 0, "nixon": 3})
    g0 = {**g, "log": list(g["log"])}
    wins = board.support_checks(g, "kennedy", 1, "a test")
    assert wins == 0 and g["bag"] == {"kennedy": 0, "nixon": 1}
    assert any("Nixon (redrawn), Nixon" in line for line in new_log(g0, g))


def test_nixon_never_redraws() -> None:
    g = played("kennedy", 31, bag={"kennedy": 3, "nixon": 0})
    assert board.support_checks(g, "nixon", 1, "a test") == 0 and g["bag"]["kennedy"] == 2


def test_triggered_by_kennedy() -> None:
    g = triggered("kennedy", 31)
    assert effects.may_redraw(g, "kennedy")
