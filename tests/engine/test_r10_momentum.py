"""R10 Momentum phase: decay rounding (R10.2), award order (R10.3, R10.5), issue decay
(R10.4), swap only on a strict media majority (R10.6); GMT order in test_r16_gmt."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.builders import at_step, legal, play, top

NO_ISSUES = {"defense": 0, "economy": 0, "civil_rights": 0}
NO_MEDIA = {"west": 0, "midwest": 0, "south": 0, "east": 0}


def momentum_phase(**kw: Any) -> Any:
    """Run a normal turn's Momentum phase from the given board (Z-Man unless told)."""
    kw.setdefault("issues", dict(NO_ISSUES))
    kw.setdefault("media", dict(NO_MEDIA))
    return at_step([{"step": "turn", "stage": "momentum", "i": 10}], **kw)


@pytest.mark.parametrize(
    ("before", "after"), [(0, 0), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (8, 4)]
)
def test_r10_2_decay_discards_half_rounded_down(before: int, after: int) -> None:
    g = momentum_phase(momentum={"kennedy": before, "nixon": before})
    assert top(g)["step"] == "strategy"  # nothing else happened
    assert g["momentum"] == {"kennedy": after, "nixon": after}


def test_r10_2_the_decay_line_says_what_each_keeps() -> None:
    """It read 'Momentum decay (R10.2): Kennedy 2, Nixon 0': the count left, or the count lost?"""
    g = momentum_phase(momentum={"kennedy": 3, "nixon": 0})
    assert "Momentum decay (R10.2): Kennedy keeps 2, Nixon keeps 0." in [
        e["text"] for e in g["log"]
    ]


def test_r10_3_awards_go_to_issue_leaders_in_order_3rd_2nd_1st() -> None:
    issues = {
        "defense": 1,
        "economy": -1,
        "civil_rights": -2,
    }  # track: defense, economy, civil rights
    g = momentum_phase(
        momentum={"kennedy": 0, "nixon": 0},
        issues=issues,
        endorse_deck=["south", "east"],
        endorse_discard=[],
    )
    # decay, then the 3rd issue (Civil Rights, Nixon) already paid; the 2nd (Economy, Nixon) asks
    assert top(g)["step"] == "award_choice" and top(g)["side"] == "nixon"
    assert g["momentum"] == {"kennedy": 0, "nixon": 1}
    assert legal(g, "nixon") == ["momentum", "endorsement"]
    assert g["endorsements"]["east"] == 0  # the 1st issue's award has not been made yet
    g = play(g, "nixon", "endorsement")  # resolved before the 1st issue's award (R10.5)
    assert g["endorsements"]["east"] == -1
    # then the 1st issue (Defense, Kennedy): 1 momentum and 1 endorsement
    assert g["momentum"] == {"kennedy": 1, "nixon": 1}
    assert g["endorsements"]["south"] == 1
    assert g["endorse_discard"] == ["east", "south"]


def test_r10_3_second_issue_leader_may_take_momentum() -> None:
    g = momentum_phase(momentum={"kennedy": 0, "nixon": 0}, issues={**NO_ISSUES, "economy": 3})
    g = play(g, "kennedy", "momentum")
    assert g["momentum"] == {"kennedy": 1, "nixon": 0}
    assert g["endorsements"] == NO_MEDIA


def test_r10_3_an_issue_nobody_leads_gives_nothing() -> None:
    g = momentum_phase(momentum={"kennedy": 0, "nixon": 0})
    assert g["momentum"] == {"kennedy": 0, "nixon": 0} and g["endorsements"] == NO_MEDIA
    assert len(g["endorse_deck"]) == 16


def test_r10_5_any_region_endorsement_lets_the_drawer_choose() -> None:
    g = momentum_phase(
        momentum={"kennedy": 0, "nixon": 0},
        issues={**NO_ISSUES, "defense": -1},
        endorse_deck=["any"],
        endorse_discard=[],
    )
    assert top(g)["step"] == "endorse_region" and top(g)["side"] == "nixon"
    assert legal(g, "nixon") == ["region west", "region midwest", "region south", "region east"]
    g = play(g, "nixon", "region midwest")
    assert g["endorsements"]["midwest"] == -1


def test_r10_5_r1_4_endorsement_removes_an_opposing_marker_instead() -> None:
    g = momentum_phase(
        momentum={"kennedy": 0, "nixon": 0},
        issues={**NO_ISSUES, "defense": 2},
        endorsements={**NO_MEDIA, "west": -2},
        endorse_deck=["west"],
        endorse_discard=[],
    )
    assert g["endorsements"]["west"] == -1


def test_r10_5_endorsement_discard_is_reshuffled_when_the_deck_is_empty() -> None:
    g = momentum_phase(
        momentum={"kennedy": 0, "nixon": 0},
        issues={**NO_ISSUES, "defense": 2},
        endorse_deck=[],
        endorse_discard=["south"],
    )
    assert g["endorsements"]["south"] == 1
    assert g["endorse_deck"] == [] and g["endorse_discard"] == ["south"]


def test_r10_4_issue_decay_after_the_awards() -> None:
    issues = {"defense": 1, "economy": 0, "civil_rights": -3}
    g = momentum_phase(
        momentum={"kennedy": 0, "nixon": 0},
        issues=issues,
        endorse_deck=["east"],
        endorse_discard=[],
    )
    # Kennedy still led Defense (1 cube) when the awards were made
    assert g["momentum"] == {"kennedy": 1, "nixon": 1}
    assert g["issues"] == {"defense": 0, "economy": 0, "civil_rights": -2}


def test_r10_6_swap_for_the_strict_media_majority_after_issue_decay() -> None:
    media = {"west": 1, "midwest": 1, "south": -1, "east": 0}
    g = momentum_phase(
        momentum={"kennedy": 0, "nixon": 0},
        media=media,
        issues={**NO_ISSUES, "defense": 1},
        endorse_deck=["east"],
        endorse_discard=[],
    )
    assert top(g)["step"] == "issue_swap" and top(g)["side"] == "kennedy"
    assert g["issues"]["defense"] == 0 and g["momentum"]["kennedy"] == 1  # awards and decay done
    assert legal(g, "kennedy") == ["swap defense economy", "swap economy civil_rights", "decline"]
    g = play(g, "kennedy", "swap economy civil_rights")
    assert g["issue_order"] == ["defense", "civil_rights", "economy"]
    assert top(g)["step"] == "strategy"


def test_r10_6_decline_keeps_the_order() -> None:
    g = momentum_phase(momentum={"kennedy": 0, "nixon": 0}, media={**NO_MEDIA, "east": -1})
    assert top(g)["side"] == "nixon"
    g = play(g, "nixon", "decline")
    assert g["issue_order"] == ["defense", "economy", "civil_rights"]
    assert g["log"][-1]["text"] == "Nixon does not swap issues (R10.6)."


@pytest.mark.parametrize("media", [NO_MEDIA, {"west": 2, "midwest": 0, "south": -1, "east": -1}])
def test_r10_6_no_swap_on_a_media_tie(media: dict[str, int]) -> None:
    g = momentum_phase(momentum={"kennedy": 0, "nixon": 0}, media=media)
    assert top(g)["step"] == "strategy"
    assert g["issue_order"] == ["defense", "economy", "civil_rights"]


@pytest.mark.parametrize("award", ["momentum", "endorsement"])
def test_r10_3_each_award_is_logged_with_the_issue_it_is_for(award: str) -> None:
    """Every award line says which issue's lead earned it (the report prints the cause): the
    2nd issue's endorsement as much as its momentum (it said nothing), and both alike."""
    issues = {"defense": 1, "economy": -1, "civil_rights": -2}  # K leads the 1st, N the 2nd, 3rd
    g = momentum_phase(
        momentum={"kennedy": 0, "nixon": 0},
        issues=issues,
        endorse_deck=["south", "east"],
        endorse_discard=[],
    )
    assert [e["why"] for e in g["log"] if e["text"] == "Nixon gains 1 momentum and now has 1."] == [
        "leads Civil Rights, the 3rd issue, R10.3"
    ]
    seen = len(g["log"])
    g = play(g, "nixon", award)
    line = g["log"][seen]  # the award itself
    assert line["text"].startswith("Nixon gains 1 momentum" if award == "momentum" else "Nixon")
    assert line["why"] == "leads Economy, the 2nd issue, R10.3", line
    first = next(
        e for e in g["log"][seen:] if e["text"] == "Kennedy gains 1 momentum and now has 1."
    )
    assert first["why"] == "leads Defense, the 1st issue, R10.3"
