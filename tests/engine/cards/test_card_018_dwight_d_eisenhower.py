"""#18 Dwight D. Eisenhower: Nixon places up to 7 support, max 1 per state; the card stays as a
prevention event and #74 Eisenhower's Silence can no longer take effect (R6.4)."""

import pytest

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import (
    awaiting_action,
    conserved,
    played,
    position_with,
    triggered,
)


def test_seven_support_max_one_per_state_and_stays() -> None:
    g = played("nixon", 18, clear_board=True)
    for st in ("OH", "PA", "NY", "TX", "CA", "IL", "MI"):
        assert f"support {st}" in engine.legal_commands(g, "nixon")
        g = play(g, "nixon", f"support {st}")
        assert f"support {st}" not in engine.legal_commands(g, "nixon")
    assert sum(g["states"].values()) == -7
    assert g["persistent"]["prevention"] == [18] and 18 not in g["removed"]
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_prevents_eisenhowers_silence() -> None:
    g = position_with("kennedy", 74, persistent={"prevention": [18]})
    assert "event 74" not in engine.legal_commands(g, "kennedy")
    with pytest.raises(engine.IllegalCommandError, match=r"prevented by #18 Dwight D\. Eisenhower"):
        engine.apply(g, "kennedy", "event 74")
    assert conserved(g)


def test_triggered_by_nixon_goes_to_prevention_space() -> None:
    g = triggered("nixon", 18, clear_board=True)
    g = play(g, "nixon", "support WI", "done")
    assert g["states"]["WI"] == -1 and g["persistent"]["prevention"] == [18]


def test_the_log_names_what_it_prevents() -> None:
    g = play(played("nixon", 18), "nixon", "done")  # no support placed: the event ends
    assert (
        "#18 Dwight D. Eisenhower stays on the board for the rest of the game: #74 Eisenhower's "
        "Silence can no longer take effect (R6.4)." in [e["text"] for e in g["log"]]
    )
