"""#47 The Cold War: the Defense leader places up to 5 support anywhere, max 1 per state."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_defense_leader_places_five_max_one() -> None:
    g = played(
        "nixon", 47, clear_board=True, issues={"defense": 2, "economy": 0, "civil_rights": 0}
    )
    assert g["stack"][-1]["side"] == "kennedy"
    for st in ("OH", "PA", "NY", "TX", "CA"):
        g = play(g, "kennedy", f"support {st}")
        if st != "CA":
            assert f"support {st}" not in engine.legal_commands(g, "kennedy")
    assert sum(g["states"].values()) == 5 and awaiting_action(g, "kennedy") and conserved(g)


def test_nobody_leads_defense() -> None:
    g = played("nixon", 47)
    assert awaiting_action(g, "kennedy")
    assert g["log"][-1]["text"] == (  # no line said why nothing happened
        "#47 The Cold War: nobody leads Defense, so no one places support."
    )


def test_triggered() -> None:
    g = triggered("kennedy", 47, issues={"defense": -1, "economy": 0, "civil_rights": 0})
    assert g["stack"][-1]["side"] == "nixon"
