"""#19 Old South: the Civil Rights leader must remove 5 of their own Southern support (limited to what
they have, R6.6) and may not campaign in the South for the rest of the turn."""

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

CR_K = {"defense": 0, "economy": 0, "civil_rights": 2}


def test_leader_chooses_which_five_and_no_campaign_in_south() -> None:
    g = played(
        "nixon",
        19,
        clear_board=True,
        issues=dict(CR_K),
        states={"TX": 3, "GA": 2, "FL": 2, "NY": 3},
    )
    assert g["stack"][-1]["step"] == "remove_support" and g["stack"][-1]["side"] == "kennedy"
    assert sorted(engine.legal_commands(g, "kennedy")) == ["remove FL", "remove GA", "remove TX"]
    assert "done" not in engine.legal_commands(g, "kennedy")  # mandatory
    g = play(g, "kennedy", "remove TX", "remove TX", "remove TX", "remove GA", "remove GA")
    assert (g["states"]["TX"], g["states"]["GA"], g["states"]["FL"], g["states"]["NY"]) == (
        0,
        0,
        2,
        3,
    )
    assert effects.campaign_banned(g, "kennedy", "FL") and not effects.campaign_banned(
        g, "kennedy", "NY"
    )
    assert not effects.campaign_banned(g, "nixon", "FL")
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_loss_limited_to_what_is_there_without_a_choice() -> None:
    """R6.6: 3 Southern cubes only: all go, no decision, the opponent gains nothing."""
    g0 = position_with(
        "kennedy", 19, clear_board=True, issues=dict(CR_K), states={"TX": 2, "VA": 1}
    )
    g = play(g0, "kennedy", "event 19")
    assert g["states"]["TX"] == 0 and g["states"]["VA"] == 0
    assert "Kennedy loses 3 support in the South in all (R6.6)." in new_log(g0, g)
    assert awaiting_action(g, "nixon")


def test_banned_campaign_in_the_south() -> None:
    """The Campaign step offers no Southern state to the banned side."""
    g = played("kennedy", 19, clear_board=True, issues=dict(CR_K), extra=[27])
    g = play(g, "nixon", "candidate position", "done")
    g = play(g, "kennedy", "campaign 27")
    legal = engine.legal_commands(g, "kennedy")
    assert "support TX" not in legal and "check TX 1" not in legal and "travel TX" in legal
    assert "support MA" in legal


def test_nobody_leads_civil_rights() -> None:
    g0 = position_with("kennedy", 19, clear_board=True, states={"TX": 3})
    g = play(g0, "kennedy", "event 19")
    assert g["states"]["TX"] == 3 and g["effects"] == [] and awaiting_action(g, "nixon")
    assert (  # it read 'nobody qualifies'
        "#19 Old South: nobody leads Civil Rights, so nothing happens." in new_log(g0, g)
    )


def test_triggered_hits_the_leader_not_the_triggerer() -> None:
    g = triggered(
        "kennedy",
        19,
        clear_board=True,
        issues={"defense": 0, "economy": 0, "civil_rights": -1},
        states={"AL": -1},
    )
    assert g["states"]["AL"] == 0
    assert [(e["id"], e["side"]) for e in g["effects"]] == [("campaign_ban_regions", "nixon")]


def test_nothing_to_lose_names_the_region() -> None:
    """It read 'Kennedy has no support there to lose'."""
    g0 = position_with("kennedy", 19, clear_board=True, issues=dict(CR_K), states={"NY": 2})
    g = play(g0, "kennedy", "event 19")
    assert "Kennedy has no support in the South to lose (R6.6)." in new_log(g0, g)
