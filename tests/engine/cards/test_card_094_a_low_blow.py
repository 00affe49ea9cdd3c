"""#94 A Low Blow (GMT, R16.6): only if Nixon leads two or more issues, Kennedy gains 1 momentum and
may swap out any hand cards for fresh ones from the deck."""

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

NIXON_TWO = {"defense": -1, "economy": -2, "civil_rights": 1}


def test_momentum_and_card_swap() -> None:
    g = played("kennedy", 94, edition="gmt", extra=[49, 51], issues=dict(NIXON_TWO))
    assert g["momentum"]["kennedy"] == 3
    assert engine.legal_commands(g, "kennedy") == ["discard 49", "discard 51", "done"]
    new = g["deck"][-1]
    g = play(g, "kennedy", "discard 51", "done")
    assert sorted(g["hands"]["kennedy"]) == sorted([49, new]) and g["discard"][-1] == 51
    assert awaiting_action(g, "nixon") and conserved(g)


def test_not_when_nixon_leads_fewer_than_two() -> None:
    g = position_with(
        "kennedy",
        94,
        edition="gmt",
        extra=[49],
        issues={"defense": -1, "economy": 0, "civil_rights": 0},
    )
    before = g
    g = play(g, "kennedy", "event 94")
    assert g["momentum"] == before["momentum"] and g["hands"]["kennedy"] == [49]
    assert "#94 A Low Blow: Nixon leads fewer than 2 issues, so nothing happens." in new_log(
        before, g
    )
    assert awaiting_action(g, "nixon")


def test_triggered_by_kennedy() -> None:
    g = triggered("kennedy", 94, edition="gmt", other_hand=[49], issues=dict(NIXON_TWO))
    assert g["momentum"]["kennedy"] == 2 and engine.legal_commands(g, "kennedy") == [
        "discard 49",
        "done",
    ]
