"""#10 Swing State: a state the opponent leads but does not carry (1-3 cubes, R1.5) gets 5 of the
player's support (R1.4, R6.10) and the player's token moves there at no cost."""

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


def test_only_states_the_opponent_leads_but_does_not_carry() -> None:
    g = played("kennedy", 10, clear_board=True, states={"OH": -1, "TX": -3, "CA": -4, "NY": 2})
    assert sorted(engine.legal_commands(g, "kennedy")) == ["state OH", "state TX"]
    g2 = play(g, "kennedy", "state TX")
    assert g2["states"]["TX"] == 2  # 3 Nixon cubes removed first, then 2 Kennedy
    assert g2["token"]["kennedy"] == "TX"
    assert "Kennedy gains 5 support in Texas." in new_log(g, g2)
    assert awaiting_action(g2, "nixon") and conserved(g2)


def test_no_qualifying_state_nothing_happens() -> None:
    g0 = position_with("nixon", 10, clear_board=True, states={"NY": 4})
    g = play(g0, "nixon", "event 10")
    assert g["states"]["NY"] == 4 and g["token"]["nixon"] == "CA"
    assert "#10 Swing State: no state qualifies, so nothing happens." in new_log(g0, g)
    assert awaiting_action(g, "kennedy")


def test_triggered_player_is_the_triggerer() -> None:
    """R6.7: Nixon triggers it: the states are those Kennedy leads with 1-3 cubes."""
    g = triggered("nixon", 10, clear_board=True, states={"OH": 2, "PA": -2})
    assert engine.legal_commands(g, "nixon") == ["state OH"]
    g = play(g, "nixon", "state OH")
    assert g["states"]["OH"] == -3 and g["token"]["nixon"] == "OH"


def test_gmt_opponent_token_there_needs_checks() -> None:
    """R16.3 (GMT): gaining where the opponent's token stands needs support checks."""
    g = played(
        "kennedy",
        10,
        edition="gmt",
        clear_board=True,
        states={"CA": -1},
        bag={"kennedy": 0, "nixon": 5},
    )
    g2 = play(g, "kennedy", "state CA")
    assert g2["states"]["CA"] == -1  # every check drew a Nixon cube
    assert any("(R16.3)" in line for line in new_log(g, g2))
    assert g2["token"]["kennedy"] == "CA"
