"""#61 Fatigue Sets In: the opponent's candidate card, if active, is exhausted (R6.9)."""

import engine
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_opponent_candidate_exhausted() -> None:
    g = played("kennedy", 61)
    assert g["candidate"] == {"kennedy": "active", "nixon": "exhausted"}
    assert awaiting_action(g, "nixon") and conserved(g)
    assert not any(c.startswith("candidate") for c in engine.legal_commands(g, "nixon"))


def test_nixon_plays_it_on_kennedy() -> None:
    g = played("nixon", 61)
    assert g["candidate"] == {"kennedy": "exhausted", "nixon": "active"}


def test_already_exhausted_stays_exhausted() -> None:
    g = played("kennedy", 61, candidate={"kennedy": "exhausted", "nixon": "exhausted"})
    assert g["candidate"] == {"kennedy": "exhausted", "nixon": "exhausted"}
    assert "Nixon's candidate card is already exhausted." in [e["text"] for e in g["log"][-3:]]


def test_triggered_the_triggering_players_opponent_is_hit() -> None:
    g = triggered("nixon", 61)  # Kennedy played it for CP, Nixon triggers
    assert g["candidate"] == {"kennedy": "exhausted", "nixon": "active"}
