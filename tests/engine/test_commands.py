"""The command language (engine/commands.py): table-driven parser cases, compact CP
form, and the errors `apply` raises (quote the input, name the decision, list what is legal)."""

from __future__ import annotations

import pytest

import engine
from engine.commands import ADVERTISING, Declared, Spend, parse
from engine.errors import AmbiguousCommandError, CommandError, CommandSyntaxError
from tests.engine.builders import action_position, play, top

# what `legal_commands` might list; names are resolved against it for ambiguous prefixes
LEGAL = ["event 22", "campaign 22", "campaign 40", "advertise 40", "position 40", "campaign 41"]

PARSES: list[tuple[str, list[object]]] = [
    ("event 22", ["event 22"]),
    ("EVENT 22", ["event 22"]),
    ("  Event   #22 ", ["event 22"]),
    ("event gaffe", ["event 22"]),
    ("event GAF", ["event 22"]),
    ("play 22", ["event 22"]),
    ("campaign pierre salinger", ["campaign 41"]),
    ("campaign pierre", ["campaign 41"]),
    ("campaign nor", ["campaign 40"]),  # Northern Blacks / Norman Vincent Peale: only #40 in play
    ("ad 40", ["advertise 40"]),
    ("advertising 40", ["advertise 40"]),
    ("pos 40", ["position 40"]),
    ("campaign 22 preempt", ["campaign 22 preempt"]),
    ("campaign 22 pre-empt", ["campaign 22 preempt"]),
    ("campaign nixon's knee", ["campaign 2"]),
    ("campaign Nixon’s Knee", ["campaign 2"]),
    ("candidate campaign", ["candidate campaign"]),
    ("first JFK", ["first kennedy"]),
    ("first rmn", ["first nixon"]),
    ("support ny", ["support NY"]),
    ("support New York", ["support NY"]),
    ("support new york 2", [Spend("NY", 2)]),  # counted: one declaration where R7.4 applies
    ("support NY 1, OH", [Spend("NY", 1), "support OH"]),
    ("place ohio", ["support OH"]),
    ("support north carolina, south carolina", ["support NC", "support SC"]),
    ("check TX 2", ["check TX 2"]),
    ("travel Alaska", ["travel AK"]),
    ("issue civil rights", ["issue civil_rights"]),
    ("issue Civil_Rights", ["issue civil_rights"]),
    ("issue defence", ["issue defense"]),
    ("media mid west", ["media midwest"]),
    ("media east 2, west", ["media east", "media east", "media west"]),
    ("swap defense economy", ["swap defense economy"]),
    ("region South", ["region south"]),
    ("debate 40 nixon", ["debate 40 nixon"]),
    ("debate 55", ["debate 55"]),
    ("strategy 41", ["strategy 41"]),
    ("resolve 7", ["resolve 7"]),
    ("done", ["done"]),
    ("end", ["done"]),
    ("no", ["decline"]),
    ("trigger", ["trigger"]),
    ("remove AL", ["remove AL"]),
    ("order economy defense civil rights", ["order economy defense civil_rights"]),
    # the compact form (R7.2/R7.3 costs are worked out when each step is applied)
    ("campaign 17: NY 2, PA 1", ["campaign 17", Spend("NY", 2), Spend("PA", 1)]),
    ("campaign 40 new york 2 pennsylvania", ["campaign 40", Spend("NY", 2), Spend("PA", 1)]),
    (
        "position 40: defense 2, economy",
        ["position 40", "issue defense", "issue defense", "issue economy"],
    ),
    (
        "advertise 40: east, west 2",
        [
            "advertise 40",
            Declared("media east", 1, ADVERTISING),
            Declared("media west", 2, ADVERTISING),
        ],
    ),
    (
        "candidate advertise: south 5",
        ["candidate advertise", Declared("media south", 5, ADVERTISING)],
    ),
    ("candidate campaign: NY 2", ["candidate campaign", Spend("NY", 2)]),
]


@pytest.mark.parametrize(("text", "expected"), PARSES)
def test_parse_to_canonical_commands(text: str, expected: list[object]) -> None:
    assert parse(text, LEGAL) == expected


ERRORS: list[tuple[str, type[CommandError], str]] = [
    ("", CommandSyntaxError, "empty command"),
    ("   ", CommandSyntaxError, "empty command"),
    ("fly NY", CommandSyntaxError, "unknown command word 'fly'"),
    ("event 999", CommandSyntaxError, "there is no card #999"),
    ("event", CommandSyntaxError, "expected a card number or name"),
    ("event zzzz", CommandSyntaxError, "expected a card number or name"),
    ("support", CommandSyntaxError, "expected a state"),
    ("support Atlantis", CommandSyntaxError, "expected a state"),
    ("media europe", CommandSyntaxError, "expected a region"),
    ("issue taxes", CommandSyntaxError, "expected an issue"),
    ("first everybody", CommandSyntaxError, "expected a side"),
    ("candidate relax", CommandSyntaxError, "campaign, advertise or position"),
    ("check TX", CommandSyntaxError, "expected a number"),
    ("check TX 2 3", CommandSyntaxError, "nothing more after 'check STATE N'"),
    ("done now", CommandSyntaxError, "nothing more after 'done'"),
    ("support NY 40", CommandSyntaxError, "not a sensible count"),
    ("campaign nixon", AmbiguousCommandError, "could be any of"),
    ("event southern", AmbiguousCommandError, "'southern' could be any of: #"),
    ("strategy gathering momentum", AmbiguousCommandError, "#14 Gathering Momentum in the South"),
]


@pytest.mark.parametrize(("text", "cls", "fragment"), ERRORS)
def test_parse_errors(text: str, cls: type[CommandError], fragment: str) -> None:
    with pytest.raises(cls) as info:
        parse(text, ["event 40", "campaign 40", "campaign 41"])
    msg = str(info.value)
    assert fragment.lower() in msg.lower()
    assert repr(text) in msg  # the message quotes the input
    assert "legal now: event 40, campaign 40, campaign 41" in msg


def test_ambiguous_prefix_lists_the_candidates() -> None:
    with pytest.raises(AmbiguousCommandError) as info:
        parse("campaign nixon", LEGAL)
    assert "#2 Nixon's Knee" in str(info.value) and "#76 Nixon's Pledge" in str(info.value)


# -- through apply -------------------------------------------------------------------------


def _pos(**kw: object) -> engine.GameState:
    kw.setdefault("momentum", {"kennedy": 0, "nixon": 0})
    return action_position("kennedy", [40, 41, 22], clear_board=True, **kw)  # type: ignore[arg-type]


def test_compact_campaign_expands_with_travel_costs() -> None:
    g = play(_pos(), "kennedy", "campaign 40: NY 1, OH 1")  # 1 + (1 border + 1)
    assert g["states"]["NY"] == 1 and g["states"]["OH"] == 1
    assert g["token"]["kennedy"] == "OH"
    assert top(g)["side"] == "nixon"  # all 3 CP spent


def test_compact_campaign_uses_declared_checks_where_r7_4_requires() -> None:
    g = play(
        _pos(states={"NY": -4}, bag={"kennedy": 5, "nixon": 0}), "kennedy", "campaign 40: NY 2"
    )
    assert g["states"]["NY"] == -2
    assert any("2 support checks for New York" in e["text"] for e in g["log"])


def test_compact_campaign_that_overspends_fails_and_changes_nothing() -> None:
    g = _pos()
    before = engine.to_json(g)
    with pytest.raises(engine.IllegalCommandError) as info:
        engine.apply(g, "kennedy", "campaign 40: NY 2, CA 1")
    assert engine.to_json(g) == before
    msg = str(info.value)
    assert "'campaign 40: NY 2, CA 1'" in msg and "R7.4" in msg and "legal now:" in msg


def test_illegal_command_names_the_decision_and_lists_what_is_legal() -> None:
    g = _pos()
    with pytest.raises(engine.IllegalCommandError) as info:
        engine.apply(g, "kennedy", "campaign 55")
    e = info.value
    assert "#55 Hostile Press Corps is not in your hand" in str(e)
    assert "now: Turn 1, activity phase 1" in str(e)
    assert "campaign 40" in e.legal and "campaign 40" in str(e)
    assert e.legal == engine.legal_commands(g, "kennedy")


def test_wrong_kind_of_command_for_the_decision_names_the_choices() -> None:
    g = _pos()
    verbs = list(dict.fromkeys(c.split()[0] for c in engine.legal_commands(g, "kennedy")))
    named = ", ".join(f"'{v}'" for v in verbs[:-1]) + f" or '{verbs[-1]}'"
    with pytest.raises(engine.IllegalCommandError) as info:
        engine.apply(g, "kennedy", "media east")
    assert f"'media' is not a choice at this point; the choices are {named}" in str(info.value)


def test_not_your_turn() -> None:
    with pytest.raises(engine.NotYourTurnError) as info:
        engine.apply(_pos(), "nixon", "campaign 58")
    assert "'campaign 58'" in str(info.value) and "Waiting for Kennedy" in str(info.value)


def test_game_over() -> None:
    g = _pos()
    g["result"] = {"winner": "kennedy"}
    with pytest.raises(engine.GameOverError, match=r"'event 22'.*game has ended"):
        engine.apply(g, "kennedy", "event 22")


def test_error_classes_are_command_errors_and_value_errors() -> None:
    for cls in (
        engine.CommandSyntaxError,
        engine.IllegalCommandError,
        engine.AmbiguousCommandError,
        engine.NotYourTurnError,
        engine.GameOverError,
    ):
        assert issubclass(cls, engine.CommandError) and issubclass(cls, ValueError)


def test_every_legal_command_parses_to_itself() -> None:
    g = _pos()
    for state in (g, play(g, "kennedy", "campaign 40"), play(g, "kennedy", "position 40")):
        legal = engine.legal_commands(state, "kennedy")
        for cmd in legal:
            assert parse(cmd, legal) == [cmd]


def test_wrong_kind_of_command_where_one_verb_is_legal_names_it_once() -> None:
    g = engine.new_game(2)  # Kennedy chooses who goes first: 'first kennedy' or 'first nixon'
    with pytest.raises(engine.IllegalCommandError) as info:
        engine.apply(g, "kennedy", "campaign 27")
    assert "'campaign' is not a choice at this point; the only choice is 'first'" in str(info.value)
