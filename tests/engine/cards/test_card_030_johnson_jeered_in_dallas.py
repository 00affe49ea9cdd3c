"""#30 Johnson Jeered in Dallas: one Kennedy cube leaves Texas (if any, R6.6); Kennedy may not campaign
in the South for the rest of the turn."""

import engine
from engine import effects
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import (
    awaiting_action,
    conserved,
    new_log,
    played,
    position_with,
    triggered,
)


def test_texas_loss_and_southern_ban() -> None:
    g = played("nixon", 30, states={"TX": 2}, other_hand=[41])
    assert g["states"]["TX"] == 1
    assert effects.campaign_banned(g, "kennedy", "GA") and not effects.campaign_banned(
        g, "kennedy", "OH"
    )
    assert not effects.campaign_banned(g, "nixon", "GA")
    g = play(g, "kennedy", "campaign 41")
    legal = engine.legal_commands(g, "kennedy")
    assert not any(
        c.split()[1] in ("TX", "GA") for c in legal if c.startswith(("support", "check"))
    )
    assert conserved(g)


def test_loss_limited() -> None:
    g0 = position_with("nixon", 30, states={"TX": -2})
    g = play(g0, "nixon", "event 30")
    assert g["states"]["TX"] == -2
    assert "Kennedy has no support in Texas to lose (R6.6)." in new_log(g0, g)
    assert awaiting_action(g, "kennedy")


def test_triggered() -> None:
    g = triggered("nixon", 30, states={"TX": 1})
    assert g["states"]["TX"] == 0 and [(e["side"]) for e in g["effects"]] == ["kennedy"]
