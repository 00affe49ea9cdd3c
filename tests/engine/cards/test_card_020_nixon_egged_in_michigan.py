"""#20 Nixon Egged in Michigan: Nixon's token to Michigan, Nixon loses 1 support there (if any, R6.6)
and may not campaign in the Midwest for the rest of the turn."""

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


def test_token_loss_and_ban() -> None:
    g = played("kennedy", 20, states={"MI": -2})
    assert g["token"]["nixon"] == "MI" and g["states"]["MI"] == -1
    assert effects.campaign_banned(g, "nixon", "OH") and not effects.campaign_banned(
        g, "nixon", "PA"
    )
    assert not effects.campaign_banned(g, "kennedy", "OH")
    assert awaiting_action(g, "nixon") and conserved(g)


def test_loss_limited_when_nixon_has_no_cube_there() -> None:
    g0 = position_with("kennedy", 20, states={"MI": 2})
    g = play(g0, "kennedy", "event 20")
    assert g["states"]["MI"] == 2
    assert "Nixon has no support in Michigan to lose (R6.6)." in new_log(g0, g)


def test_nixon_campaign_offers_no_midwest_state() -> None:
    g = played("kennedy", 20, other_hand=[27])
    g = play(g, "nixon", "campaign 27")
    legal = engine.legal_commands(g, "nixon")
    assert not any(c in legal for c in ("support MI", "support OH", "check MI 1", "check OH 1"))
    assert "support PA" in legal or "check PA 1" in legal


def test_triggered_by_kennedy() -> None:
    g = triggered("kennedy", 20, states={"MI": -1})
    assert g["states"]["MI"] == 0 and g["token"]["nixon"] == "MI" and g["momentum"]["kennedy"] == 1
