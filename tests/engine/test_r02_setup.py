"""R2 Setup (and R15.3 / R16.7 option validation in `new_game`)."""

from __future__ import annotations

import pytest

import engine
from engine.data import REGIONS, STATES


@pytest.mark.parametrize("edition", ["zman", "gmt"])
def test_r2_1_to_r2_5_starting_board(edition: str) -> None:
    g = engine.new_game(3, edition=edition)
    assert g["states"] == {s: info.start for s, info in STATES.items()}  # R2.1
    assert g["states"]["AL"] == 1 and g["states"]["AZ"] == -1  # printed cubes, signed
    assert g["token"] == {"kennedy": "MA", "nixon": "CA"}  # R2.2
    assert g["issue_order"] == ["defense", "economy", "civil_rights"]  # R2.3
    assert g["issues"] == {"defense": 0, "economy": 0, "civil_rights": 0}
    assert g["turn"] == 1  # R2.4
    assert g["momentum"] == {"kennedy": 2, "nixon": 2}  # R2.5
    assert g["rest"] == {"kennedy": 0, "nixon": 0}
    assert g["candidate"] == {"kennedy": "active", "nixon": "active"}
    assert g["stacks"] == {"kennedy": [], "nixon": []}
    assert g["media"] == {r: 0 for r in REGIONS}  # R2.7
    assert g["endorsements"] == {r: 0 for r in REGIONS}
    assert len(g["endorse_deck"]) == 16


@pytest.mark.parametrize(("edition", "cubes"), [("zman", 10), ("gmt", 12)])
def test_r2_6_r16_1_bag_before_the_first_initiative_check(edition: str, cubes: int) -> None:
    g = engine.new_game(5, edition=edition)
    assert g["bag_size"] == cubes
    # the turn-1 initiative check (R5.2) drew 2 or 3 cubes, which went to supply (R3.3)
    winner = next(iter(engine.active_sides(g)))
    loser = "nixon" if winner == "kennedy" else "kennedy"
    assert g["bag"][winner] == cubes - 2
    assert g["bag"][loser] in (cubes - 1, cubes)


def test_r2_7_r5_1_decks_shuffled_and_six_cards_dealt() -> None:
    a, b = engine.new_game(1), engine.new_game(2)
    assert len(a["hands"]["kennedy"]) == len(a["hands"]["nixon"]) == 6
    assert len(a["deck"]) == 91 - 12
    assert a["deck"] != b["deck"]  # shuffled by seed
    assert a["endorse_deck"] != b["endorse_deck"] or a["deck"] != b["deck"]


def test_r5_2_initiative_winner_chooses_first_player() -> None:
    g = engine.new_game(9)
    (winner,) = engine.active_sides(g)
    assert engine.legal_commands(g, winner) == ["first kennedy", "first nixon"]
    g = engine.apply(g, winner, "first nixon")
    assert g["first"] == "nixon"
    assert engine.active_sides(g) == {"nixon"}
    assert g["stack"][-1]["step"] == "action"


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"edition": "deluxe"}, "unknown edition 'deluxe'"),
        ({"edition": "GMT"}, "unknown edition"),
        ({"edition": "gmt", "options": ["vice_president"]}, "unknown option 'vice_president'"),
        ({"options": ["vice_presidents"]}, "need the GMT edition"),
        ({"options": ["restricted_positioning"]}, "R16.7"),
        ({"edition": "zman", "options": ["vice_presidents", "restricted_positioning"]}, "GMT"),
    ],
)
def test_r15_3_r16_7_new_game_validates_edition_and_options(
    kwargs: dict[str, object], fragment: str
) -> None:
    with pytest.raises(ValueError, match=fragment):
        engine.new_game(1, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", ["1", 1.5, True, None])
def test_new_game_refuses_a_non_integer_seed(seed: object) -> None:
    with pytest.raises(ValueError, match="seed"):
        engine.new_game(seed)  # type: ignore[arg-type]


def test_r16_7_gmt_options_accepted_and_recorded() -> None:
    g = engine.new_game(1, edition="gmt", options=("restricted_positioning", "vice_presidents"))
    assert g["options"] == ["restricted_positioning", "vice_presidents"]
    # R15.1: the Vice President cards leave the deck and stand beside the candidate cards
    assert g["vp"] == {"kennedy": 39, "nixon": 42}
    everywhere = g["deck"] + g["hands"]["kennedy"] + g["hands"]["nixon"]
    assert 39 not in everywhere and 42 not in everywhere
    assert len(everywhere) == 95
