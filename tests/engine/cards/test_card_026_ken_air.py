"""#26 Ken-Air: for the rest of the turn Kennedy pays no travel (R7.3) and each card he plays to
campaign is worth 1 CP more, never above 5."""

import engine
from engine import effects
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import conserved, played, triggered


def test_free_travel_and_plus_one_for_campaigning_only() -> None:
    g = played("kennedy", 26, extra=[41], clear_board=True)  # #41: 3 CP
    assert effects.travel_free(g, "kennedy") and not effects.travel_free(g, "nixon")
    assert effects.cp_value(g, "kennedy", 3, "campaign") == 4
    assert effects.cp_value(g, "kennedy", 3, "position") == 3
    assert effects.cp_value(g, "kennedy", 4, "campaign") == 5
    assert effects.cp_value(g, "kennedy", 5, "campaign") == 5
    g = play(g, "nixon", "candidate position", "done")
    g = play(g, "kennedy", "campaign 41")
    f = g["stack"][-1]
    assert f["step"] == "campaign" and f["cp"] == 4
    legal = engine.legal_commands(g, "kennedy")
    assert not any(c.startswith("travel") for c in legal)
    g = play(g, "kennedy", "support HI")  # Massachusetts to Hawaii: no travel cost
    assert g["stack"][-1]["cp"] == 3 and g["token"]["kennedy"] == "HI" and g["states"]["HI"] == 1
    assert conserved(g)


def test_triggered_by_kennedy() -> None:
    g = triggered("kennedy", 26)
    assert [(e["id"], e["side"]) for e in g["effects"]] == [("ken_air", "kennedy")]
