"""#32 Early Returns from Connecticut: kept until Election Day (R6.4), when whoever then leads
Connecticut makes 5 support checks for California (R13.4)."""

from engine.events import start_election_event
from engine.flow import advance
from engine.state import GameState
from tests.engine.cards.part1_helpers import awaiting_action, conserved, new_log, played, triggered


def _election_day(g: GameState) -> GameState:
    """Resolve the Election Day script of #32 now (R13.4), with the bag no longer refilled (R13.3)."""
    g["no_refill"] = True
    start_election_event(g, 32)
    advance(g)
    return g


def test_played_it_waits_for_election_day() -> None:
    g = played("nixon", 32, clear_board=True)
    assert g["persistent"]["election_day"] == [32] and 32 not in g["removed"]
    assert sum(g["states"].values()) == 0 and awaiting_action(g, "kennedy") and conserved(g)


def test_connecticut_leader_checks_for_california() -> None:
    g = played("nixon", 32, clear_board=True, states={"CT": 1, "CA": -2})
    g["bag"] = {"kennedy": 4, "nixon": 1}
    g0 = {**g, "log": list(g["log"])}
    g = _election_day(g)
    assert g["states"]["CA"] == 2  # 4 successes: 2 remove Nixon cubes, 2 placed (R1.4)
    assert g["bag"] == {"kennedy": 0, "nixon": 0}
    assert g["persistent"]["election_day"] == [] and 32 in g["removed"]
    assert any(
        line.startswith("Kennedy makes 5 support checks for California") for line in new_log(g0, g)
    )
    assert conserved(g)


def test_nixon_leads_connecticut() -> None:
    g = triggered("nixon", 32, clear_board=True, states={"CT": -1})
    g["bag"] = {"kennedy": 0, "nixon": 3}
    g = _election_day(g)
    assert g["states"]["CA"] == -3  # the bag ran dry after 3: no refill from R13.3 on


def test_nobody_leads_connecticut_nothing() -> None:
    g = played("kennedy", 32, clear_board=True)
    g["bag"] = {"kennedy": 3, "nixon": 3}
    g0 = {**g, "log": list(g["log"])}
    g = _election_day(g)
    assert g["states"]["CA"] == 0 and g["bag"] == {"kennedy": 3, "nixon": 3}
    assert (
        "#32 Early Returns from Connecticut: neither side has more support in Connecticut."
        in new_log(g0, g)
    )
