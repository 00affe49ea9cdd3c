"""Component data (R1.2, R1.7, R1.9, R16.6): counts, and agreement with the research data.

The engine carries its own copy of the facts (engine/data); the second half of
this module compares that copy with /work/shared/data when it is present.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import engine
from engine.data import (
    CARDS,
    ENDORSEMENT_DECK,
    REGIONS,
    STATES,
    STATES_BY_REGION,
    TOTAL_EV,
    WINNING_EV,
    deck_cards,
)

SHARED = Path("/work/shared/data")


def test_r1_7_zman_deck_has_91_cards() -> None:
    assert sorted(deck_cards("zman")) == list(range(1, 92))


def test_r16_6_gmt_deck_has_97_cards() -> None:
    assert sorted(deck_cards("gmt")) == list(range(1, 98))


def test_r1_9_endorsement_deck_has_16_cards() -> None:
    assert len(ENDORSEMENT_DECK) == 16
    assert sorted(set(ENDORSEMENT_DECK)) == sorted([*REGIONS, "any"])
    for region in REGIONS:
        assert ENDORSEMENT_DECK.count(region) == 3
    assert ENDORSEMENT_DECK.count("any") == 4


def test_r1_2_fifty_states_537_ev() -> None:
    assert len(STATES) == 50
    assert TOTAL_EV == 537
    assert sum(s.ev for s in STATES.values()) == 537
    assert WINNING_EV == 269


def test_r1_2_every_state_in_one_of_four_regions() -> None:
    assert sorted(s for r in REGIONS for s in STATES_BY_REGION[r]) == sorted(STATES)


def test_r7_3_alaska_and_hawaii_are_west_with_own_travel_zones() -> None:
    assert STATES["AK"].region == STATES["HI"].region == "west"
    assert STATES["AK"].zone == "alaska"
    assert STATES["HI"].zone == "hawaii"
    assert all(s.zone == s.region for a, s in STATES.items() if a not in ("AK", "HI"))


def test_r1_7_card_fields_are_sane() -> None:
    gm = sorted(n for n, c in CARDS.items() if c.gathering_momentum)
    assert gm == [14, 15, 16, 17]
    for n, c in CARDS.items():
        assert 2 <= c.cp <= 4, n
        assert c.rest == 4 - c.cp, n
        assert c.icon in ("kennedy", "nixon", "both"), n
        if c.gathering_momentum:
            assert c.issue == "" and c.state == "", n
        else:
            assert c.issue in engine.ISSUES, n
            assert c.state in STATES, n
        assert c.persistent in ("none", "prevention", "debate", "election_day"), n
        assert c.gmt_only == (n > 91), n


def test_new_game_uses_the_edition_deck() -> None:
    for edition, n in (("zman", 91), ("gmt", 97)):
        g = engine.new_game(1, edition=edition)
        in_play = g["deck"] + g["hands"]["kennedy"] + g["hands"]["nixon"]
        assert sorted(in_play) == list(range(1, n + 1))


# -- agreement with the shared research data ------------------------------------------------


def _shared_rows(name: str) -> list[dict[str, str]]:
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is not present on this machine")
    path = SHARED / name
    if not path.exists():
        pytest.skip(f"{path} is not present")
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _names(field: str) -> tuple[str, ...]:
    return tuple(x for x in field.split("|") if x)


def test_cards_match_shared_data() -> None:
    rows = _shared_rows("cards.csv") + _shared_rows("cards_gmt_extra.csv")
    assert len(rows) == 97
    by_name = {r["name"]: int(r["number"]) for r in rows}
    for r in rows:
        n = int(r["number"])
        c = CARDS[n]
        assert c.name == r["name"], n
        assert c.cp == int(r["cp"]), n
        assert c.rest == int(r["rest_cubes"]), n
        assert c.icon == r["candidate_icon"], n
        assert c.issue == r["debate_issue"], n
        assert c.state == r["state"], n
        assert c.persistent == r["persistent"], n
        assert c.prevents == tuple(by_name[x] for x in _names(r["prevents"])), n
        assert c.gathering_momentum == (r["gathering_momentum"] == "true"), n
        assert c.duration == r["effect_duration"], n
        assert c.aliases == _names(r["aliases"]), n
    assert sorted(CARDS) == sorted(int(r["number"]) for r in rows)


def test_states_match_shared_data() -> None:
    rows = _shared_rows("states.csv")
    assert len(rows) == 50
    for r in rows:
        s = STATES[r["abbreviation"]]
        assert s.name == r["name"]
        assert s.region == r["region"]
        assert s.zone == r["travel_zone"]
        assert s.ev == int(r["electoral_votes"])
        n = int(r["start_support_cubes"])
        side = r["start_support_candidate"]
        assert s.start == (0 if n == 0 else n if side == "kennedy" else -n), s.abbr
        assert s.border == r["edge_candidate"]
        assert r["edge_colour"] == {"kennedy": "blue", "nixon": "red"}[s.border]
    assert sorted(STATES) == sorted(r["abbreviation"] for r in rows)


def test_endorsements_match_shared_data() -> None:
    rows = _shared_rows("endorsements.csv")
    expected = sorted(r["region"] for r in rows for _ in range(int(r["count"])))
    assert sorted(ENDORSEMENT_DECK) == expected


def test_candidate_cards_and_vice_presidents_match_shared_data() -> None:
    rows = _shared_rows("candidates.csv")
    cands = {r["candidate"]: r for r in rows if r["card_type"] == "candidate"}
    g = engine.new_game(1)
    for side, r in cands.items():
        assert g["token"][side] == r["token_start_state"]  # R2.2
        assert g["momentum"][side] == int(r["start_momentum"])  # R2.5
        assert int(r["cp"]) == 5  # R1.8
    vps = {
        r["candidate"]: int(r["campaign_card_number"])
        for r in rows
        if r["card_type"] == "vice_president_optional"
    }
    g = engine.new_game(1, edition="gmt", options=["vice_presidents"])
    assert g["vp"] == vps  # R15.1
