"""#33 Unpledged Electors: kept until Election Day (R6.4); then any of Alabama, Louisiana and
Mississippi that Kennedy wins with fewer than 4 support gives its EV to nobody (R14.1)."""

from engine.data import STATES
from engine.flow import advance
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_played_it_waits_for_election_day() -> None:
    g = played("nixon", 33)
    assert g["persistent"]["election_day"] == [33] and g["unpledged"] == []
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_election_day_tally_per_state() -> None:
    """A full Election Day (R13): AL won by Kennedy with 2 is unpledged, LA with 4 counts, MS is Nixon's."""
    g = triggered("nixon", 33, states={s: 1 for s in STATES} | {"AL": 2, "LA": 4, "MS": -1})
    g["stacks"] = {"kennedy": [], "nixon": []}
    g["turn"] = 9
    g["stack"] = [{"step": "game"}]
    advance(g)
    r = g["result"]
    assert r is not None and r["unpledged"] == ["AL"]
    assert g["unpledged"] == ["AL", "LA", "MS"]
    assert r["electoral_votes"]["nixon"] == STATES["MS"].ev
    assert r["electoral_votes"]["kennedy"] == 537 - STATES["MS"].ev - STATES["AL"].ev
    assert 33 in g["removed"] and conserved(g)


def test_election_day_names_the_three_states_as_a_sentence() -> None:
    g = triggered("nixon", 33, states={s: 1 for s in STATES})
    g["stacks"] = {"kennedy": [], "nixon": []}
    g["turn"] = 9
    g["stack"] = [{"step": "game"}]
    advance(g)
    assert (
        "#33 Unpledged Electors: Alabama, Louisiana and Mississippi give their EV to nobody if "
        "Kennedy wins them with fewer than 4 support." in [e["text"] for e in g["log"]]
    )
