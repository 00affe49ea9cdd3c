"""#28 Harry F. Byrd: Nixon removes up to 3 Kennedy support in total from Oklahoma, Mississippi and
Alabama (no per-state cap)."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_three_from_the_three_states_no_cap() -> None:
    g = played("nixon", 28, clear_board=True, states={"OK": 4, "MS": 1, "TX": 2})
    assert sorted(engine.legal_commands(g, "nixon")) == ["done", "remove MS", "remove OK"]
    g = play(g, "nixon", "remove OK", "remove OK", "remove OK")
    assert g["states"]["OK"] == 1 and g["states"]["MS"] == 1 and g["states"]["TX"] == 2
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_loss_limited() -> None:
    g = played("nixon", 28, clear_board=True, states={"AL": 1})
    g = play(g, "nixon", "remove AL")
    assert g["states"]["AL"] == 0 and awaiting_action(g, "kennedy")


def test_triggered() -> None:
    g = triggered("nixon", 28, clear_board=True, states={"MS": 2})
    assert engine.legal_commands(g, "nixon") == ["remove MS", "done"]
