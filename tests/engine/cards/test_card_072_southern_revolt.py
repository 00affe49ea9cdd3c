"""#72 Southern Revolt: only if Kennedy leads Civil Rights, Nixon places up to 5 support in Southern
states, max 2 per state."""

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

SOUTH = [s for s, i in STATES.items() if i.region == "south"]
KENNEDY_CR = {"defense": 0, "economy": 0, "civil_rights": 1}


def test_when_kennedy_leads_civil_rights() -> None:
    g = played("nixon", 72, clear_board=True, issues=dict(KENNEDY_CR))
    assert engine.legal_commands(g, "nixon") == [f"support {s}" for s in SOUTH] + ["done"]
    g = play(g, "nixon", "support TX", "support TX")
    assert "support TX" not in engine.legal_commands(g, "nixon")
    g = play(g, "nixon", "support GA", "support FL", "support FL")
    assert g["states"]["TX"] == -2 and g["states"]["FL"] == -2 and g["states"]["GA"] == -1
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_nothing_if_kennedy_does_not_lead_civil_rights() -> None:
    for issues in (
        {"defense": 0, "economy": 0, "civil_rights": 0},
        {"defense": 3, "economy": 0, "civil_rights": -1},
    ):
        g = position_with("nixon", 72, issues=issues)
        before = g
        g = play(g, "nixon", "event 72")
        assert g["states"] == before["states"] and awaiting_action(g, "kennedy")
        assert (
            "#72 Southern Revolt: Kennedy does not lead Civil Rights, so nothing happens."
            in new_log(before, g)
        )
        assert 72 in g["removed"]


def test_triggered() -> None:
    g = triggered("nixon", 72, clear_board=True, issues=dict(KENNEDY_CR))
    g = play(g, "nixon", "support AL", "done")
    assert g["states"]["AL"] == -1
