"""#84 Quemoy and Matsu: the Defense leader (if any) gains 1 momentum and places up to 3 support
anywhere, max 1 per state."""

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

K_DEF = {"defense": 2, "economy": 0, "civil_rights": 0}


def test_defense_leader_places() -> None:
    g = played("nixon", 84, clear_board=True, issues=dict(K_DEF))
    assert g["momentum"]["kennedy"] == 3 and engine.active_sides(g) == {"kennedy"}
    g = play(g, "kennedy", "support NY")
    assert "support NY" not in engine.legal_commands(g, "kennedy")
    g = play(g, "kennedy", "support CA", "support TX")
    assert sum(g["states"].values()) == 3 and awaiting_action(g, "kennedy") and conserved(g)


def test_nobody_leads_defense() -> None:
    g = position_with("kennedy", 84)
    before = g
    g = play(g, "kennedy", "event 84")
    assert g["momentum"] == before["momentum"] and g["states"] == before["states"]
    assert awaiting_action(g, "nixon")
    assert [line for line in new_log(before, g) if "nobody" in line] == [
        "#84 Quemoy and Matsu: nobody leads Defense, so no one gains momentum.",
        "#84 Quemoy and Matsu: nobody leads Defense, so no one places support.",
    ]


def test_triggered() -> None:
    g = triggered("nixon", 84, issues={"defense": -1, "economy": 0, "civil_rights": 0})
    assert g["momentum"]["nixon"] == 2 and engine.legal_commands(g, "nixon")[-1] == "done"
