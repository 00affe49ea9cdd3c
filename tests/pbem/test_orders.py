"""Standing orders, queued orders and forced decisions (pbem.games.orders, engine.forced), on positions.

Each standing order is shown applied at the moment its question arises (and only then); the
queue applies in order while legal and is cancelled by the first line that is not; a forced
command is applied only when it reveals nothing (R17), which a seeded playout checks for every
position with a single legal command.
"""

from __future__ import annotations

import random

import pytest

import engine
from engine import forced
from pbem.games import orders
from tests.engine.builders import action_position, at_step, top

NIXON_HAND = [4, 9, 12, 18, 25, 27]


def books(**standing: orders.Standing) -> dict[str, orders.Book]:
    return {s: orders.Book(s, standing.get(s, orders.Standing())) for s in engine.SIDES}


def trigger_question(card: int) -> engine.GameState:
    """Kennedy has played ``card`` for CP; Nixon is asked whether to trigger it (R6.7)."""
    g = action_position("kennedy", hand=[card, 26, 36, 38, 31, 20], other_hand=NIXON_HAND)
    g = engine.apply(g, "kennedy", f"campaign {card}")
    while top(g)["step"] == "campaign":
        g = engine.apply(g, "kennedy", "support MA")
    assert top(g) == {"step": "trigger", "side": "nixon", "card": card}
    return g


# --- standing orders ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("policy", "card", "expected"),
    [
        ("ask", 29, None),
        ("never", 29, "decline"),
        ("always", 26, "trigger"),
        ("icon", 29, "trigger"),  # #29 The Great Seal Bug shows Nixon's icon
        ("icon", 26, "decline"),  # #26 Ken-Air shows Kennedy's
    ],
)
def test_standing_trigger_order_answers_the_trigger_question(
    policy: str, card: int, expected: str | None
) -> None:
    g = trigger_question(card)
    b = books(nixon=orders.Standing(trigger=policy))
    done = orders.settle(g, b)
    if expected is None:
        assert done == [] and top(g)["step"] == "trigger"  # asked: the player decides
        return
    assert done[0] == orders.Auto(
        "nixon",
        expected,
        "standing",
        f"trigger #{card} {engine.card_info(card)['name']}",
        (expected,),
    )
    assert (
        b["nixon"].notes[0]
        == f"by standing order: {expected} (trigger #{card} {engine.card_info(card)['name']})"
    )
    assert any(
        f"Nixon {'declines' if expected == 'decline' else 'spends 1 momentum'}" in e["text"]
        for e in g["log"][-6:]
    )


def test_standing_trigger_order_is_not_applied_to_other_questions() -> None:
    g = action_position("nixon", hand=NIXON_HAND)
    b = books(nixon=orders.Standing(trigger="never", swap="decline", done="auto"))
    assert orders.settle(g, b) == [] and top(g)["step"] == "action"


def test_standing_swap_decline() -> None:
    g = at_step([{"step": "issue_swap", "side": "kennedy"}], phase="momentum")
    assert orders.settle(g, books()) == []  # asked by default
    g = at_step([{"step": "issue_swap", "side": "kennedy"}], phase="momentum")
    done = orders.settle(g, books(kennedy=orders.Standing(swap="decline")))
    assert done[0] == orders.Auto("kennedy", "decline", "standing", "issue swap", ("decline",))
    assert "Kennedy does not swap issues (R10.6)." in [e["text"] for e in g["log"]]


def test_standing_election_order_resolves_in_the_players_order() -> None:
    frames = [{"step": "election_event", "side": "kennedy", "left": [7, 32]}]
    g = at_step(frames, turn=9, phase="election", persistent={"election_day": [7, 32]})
    done = orders.settle(g, books(kennedy=orders.Standing(election=[32, 7])))
    assert [a.command for a in done][:1] == ["resolve 32"]
    g = at_step(frames, turn=9, phase="election", persistent={"election_day": [7, 32]})
    assert (
        orders.settle(g, books(kennedy=orders.Standing(election=[99]))) == []
    )  # not listed: asked


def test_standing_done_auto_ends_a_cp_step_with_nothing_useful_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    g = action_position("kennedy", hand=[26, 36, 38, 31, 20, 24])
    g = engine.apply(g, "kennedy", "campaign 26")
    auto = orders.Standing(done="auto")
    assert orders._standing_command(g, "kennedy", auto) is None  # support is still useful
    real = engine.legal_commands
    monkeypatch.setattr(
        engine,
        "legal_commands",
        lambda g, s: [c for c in real(g, s) if c.split()[0] in ("travel", "done")],
    )
    assert orders._standing_command(g, "kennedy", auto) == "done"
    assert orders._standing_command(g, "kennedy", orders.Standing()) is None


def test_standing_preempt_never_leaves_the_one_plain_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    g = action_position("kennedy", hand=[26, 36, 38, 31, 20, 24])
    monkeypatch.setattr(
        engine, "legal_commands", lambda g, s: ["campaign 26", "campaign 26 preempt"]
    )
    assert orders._standing_command(g, "kennedy", orders.Standing(preempt="never")) == "campaign 26"
    assert orders._standing_command(g, "kennedy", orders.Standing()) is None


# --- queued orders ------------------------------------------------------------------------------


def test_queue_applies_in_order_at_the_next_decision() -> None:
    g = action_position("kennedy", hand=[26, 36, 38, 31, 20, 24])
    g = engine.apply(g, "kennedy", "campaign 26")
    b = books()
    b["kennedy"].queue = ["support MA", "support MA"]
    done = orders.settle(g, b)
    assert [(a.side, a.command, a.why) for a in done[:2]] == [
        ("kennedy", "support MA", "queued")
    ] * 2
    assert b["kennedy"].queue == [] and top(g)["step"] == "trigger"  # the card play is over


def test_queue_stops_at_the_first_line_not_legal_at_its_question_and_cancels_the_rest() -> None:
    g = action_position("kennedy", hand=[26, 36, 38, 31, 20, 24])
    g = engine.apply(g, "kennedy", "campaign 26")
    b = books()
    b["kennedy"].queue = ["support MA", "support CA", "support MA", "done"]  # CA: 3 CP away
    done = orders.settle(g, b)
    assert [a.command for a in done] == ["support MA"]
    assert b["kennedy"].queue == []
    assert "your queue stopped: 'support CA' is not possible now" in b["kennedy"].notes[-1]
    assert "the 2 lines after it were cancelled" in b["kennedy"].notes[-1]
    # why, once: the mail it goes into lists the question and the legal commands below it
    assert "legal now:" not in b["kennedy"].notes[-1] and "; now: " not in b["kennedy"].notes[-1]
    assert top(g)["step"] == "campaign"  # the player is asked, as usual


def test_a_queued_line_for_another_question_waits_for_it() -> None:
    g = action_position("kennedy", hand=[26, 36, 38, 31, 20, 24])
    g = engine.apply(g, "kennedy", "campaign 26")
    b = books()
    b["kennedy"].queue = ["support MA", "media east", "support MA"]
    done = orders.settle(g, b)
    assert [a.command for a in done] == ["support MA"]
    assert b["kennedy"].queue == ["media east", "support MA"]  # waits for an advertising step
    assert not b["kennedy"].notes[:-1] and "stopped" not in b["kennedy"].notes[-1]
    assert top(g)["step"] == "campaign"  # meanwhile the player is asked


def test_a_queued_line_is_logged_as_the_canonical_commands_it_stood_for() -> None:
    """An alias or a one-line action in the queue is stored as what it meant (the move log
    replays canonical commands only, so a later parser change cannot break `pbem replay`)."""
    g = trigger_question(29)
    b = books()
    b["kennedy"].queue = ["no", "camp 36: ma 2"]
    engine.apply_in_place(g, "nixon", "decline")
    engine.apply_in_place(g, "nixon", "campaign 4: CA 2")
    done = orders.settle(g, b)
    assert [(a.command, a.applied) for a in done[:2]] == [
        ("no", ("decline",)),
        ("camp 36: ma 2", ("campaign 36", "support MA", "support MA")),
    ]
    replayed = trigger_question(29)
    for side, cmd in [
        ("nixon", "decline"),
        ("nixon", "campaign 4"),
        ("nixon", "support CA"),
        ("nixon", "support CA"),
        *((a.side, c) for a in done for c in a.applied),
    ]:
        engine.apply_in_place(replayed, side, cmd)
    assert replayed == g


def test_queue_waits_while_the_other_side_decides() -> None:
    g = trigger_question(29)
    b = books()
    b["kennedy"].queue = ["decline", "event 36"]
    assert orders.settle(g, b) == [] and b["kennedy"].queue == ["decline", "event 36"]
    engine.apply_in_place(g, "nixon", "decline")
    engine.apply_in_place(g, "nixon", "campaign 4: CA 2")  # Nixon's action; then Kennedy decides
    done = orders.settle(g, b)
    assert [(a.side, a.command, a.why) for a in done][:2] == [
        ("kennedy", "decline", "queued"),
        ("kennedy", "event 36", "queued"),
    ]
    assert b["kennedy"].queue == []


def test_read_mail_splits_now_queue_and_settings() -> None:
    m = orders.read_mail(
        [
            "event 36",
            "notify digest 7",
            "then",
            "decline",
            "Campaign 38: MA 2",
            "standing trigger icon",
            "cancel",
        ]
    )
    assert m.now == ["event 36"] and m.queue == ["decline", "Campaign 38: MA 2"]
    assert m.notify == ("digest", 7) and m.standing == [("trigger", ["icon"])] and m.cancel
    assert [a["line"] for a in m.answers][-1] == "then"


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("notify sometimes", "expected 'notify decisions', 'notify every', 'notify digest'"),
        ("notify digest 25", "whole hour 0-23"),
        (
            "standing trigger maybe",
            "expected 'standing trigger' followed by useful, ask, never, always or icon",
        ),
        ("standing election 7 foo", "card numbers"),
        ("standing bribe", "unknown standing order"),
        ("cancel everything", "'cancel' takes nothing after it"),
    ],
)
def test_bad_order_lines_say_what_is_legal(line: str, says: str) -> None:
    with pytest.raises(orders.OrdersError, match=says):
        orders.read_mail([line])


def test_a_queued_line_must_be_a_game_command() -> None:
    with pytest.raises(orders.OrdersError, match="'lunch' is not a game command"):
        orders.read_mail(["then", "lunch at noon"])


# --- forced decisions ---------------------------------------------------------------------------


def _own_draw(g: engine.GameState, side: str, cmd: str) -> bool:
    """Whether the command's own step draws or deals to ``side`` (the flow after it not run)."""
    from engine.flow import step_of, top

    g2 = engine.copy_state(g)
    f = top(g2)
    assert f is not None
    step_of(f).act(g2, f, side, cmd.split())
    return (
        g2["rng"] != g["rng"]
        or len(g2["deck"]) != len(g["deck"])
        or len(g2["endorse_deck"]) != len(g["endorse_deck"])
        or bool(set(g2["hands"][side]) - set(g["hands"][side]))
    )


def test_forced_decisions_never_draw_by_themselves_and_always_have_one_choice() -> None:
    """Seeded playouts: the server takes a single legal command iff its own step draws nothing."""
    seen = {"forced": 0, "kept": 0}
    for seed in range(4):
        g = engine.new_game(seed)
        rnd = random.Random(seed)
        while engine.result(g) is None:
            side = sorted(engine.active_sides(g))[0]
            legal = engine.legal_commands(g, side)
            got = forced.forced_command(g, side)
            if len(legal) != 1 and not forced.one_choice(g, side):
                assert got is None
            else:
                assert (got is None) == _own_draw(g, side, legal[0])
                seen["forced" if got else "kept"] += 1
            engine.apply_in_place(g, side, rnd.choice(legal))
    assert seen["forced"] > 0


def test_forced_last_strategy_card_is_taken_though_the_next_turn_deals() -> None:
    """The last strategy pick is no choice (R11.1); the deal and initiative check of the next turn
    (R5.1, R5.2) follow it whoever writes it, and the player reads them in the next mail."""
    g = at_step(
        [{"step": "strategy", "need": 1, "picked": {"kennedy": 1, "nixon": 0}}],
        phase="strategy",
        hands={"nixon": [27], "kennedy": [36]},
        stacks={"kennedy": [40]},
    )
    assert engine.legal_commands(g, "nixon") == ["strategy 27"]
    assert forced.reveals(g, "nixon", "strategy 27")  # the deal follows ...
    assert not forced.shows_by_itself(g, "nixon", "strategy 27")  # ... but not from the choice
    done = orders.settle(g, books())
    assert done[0] == orders.Auto(
        "nixon", "strategy 27", "forced", "campaign strategy", ("strategy 27",)
    )
    assert 27 in g["stacks"]["nixon"] and not engine.legal_commands(g, "nixon")


def test_forced_never_takes_a_single_command_that_draws_for_the_player() -> None:
    """An Election Day card is resolved by its own three checks (R13.3): even a single one is
    the player's to send, so each of their draws answers one of their mails."""
    g = at_step(
        [{"step": "election_card", "side": "nixon"}],
        turn=9,
        phase="election",
        stacks={"nixon": [27], "kennedy": []},
        bag={"kennedy": 5, "nixon": 5},
    )
    assert engine.legal_commands(g, "nixon") == ["resolve 27"]
    assert forced.shows_by_itself(g, "nixon", "resolve 27")
    assert forced.forced_command(g, "nixon") is None


@pytest.mark.parametrize("hand", [[27, 36], [27, 36, 14]])  # #14 is Gathering Momentum (R11.2)
def test_forced_last_two_strategy_cards_are_placed_in_either_order(hand: list[int]) -> None:
    """Turns 7-8 (R11.1): with no more valid cards than picks left, every order puts the same
    cards on the stack, and no rule reads the order (R11.4, R12.2, R13.3): one choice, taken."""
    g = at_step(
        [{"step": "strategy", "need": 2, "picked": {"kennedy": 0, "nixon": 0}}],
        turn=7,
        phase="strategy",
        hands={"nixon": hand, "kennedy": [38, 40, 41]},
    )
    assert len(engine.legal_commands(g, "nixon")) == 2 and forced.one_choice(g, "nixon")
    assert not forced.one_choice(g, "kennedy")  # 3 valid cards for 2 places: Kennedy chooses
    done = orders.settle(g, books())
    assert [a.command for a in done if a.side == "nixon"] == ["strategy 27", "strategy 36"]
    assert sorted(g["stacks"]["nixon"]) == [27, 36] and "kennedy" in engine.active_sides(g)


def test_forced_first_strategy_pick_is_taken_for_the_player() -> None:
    g = at_step(
        [{"step": "strategy", "need": 1, "picked": {"kennedy": 0, "nixon": 0}}],
        phase="strategy",
        hands={"nixon": [27], "kennedy": [36, 38]},
    )
    assert engine.legal_commands(g, "nixon") == ["strategy 27"]
    done = orders.settle(g, books())
    assert (
        orders.Auto("nixon", "strategy 27", "forced", "campaign strategy", ("strategy 27",)) in done
    )
    assert "kennedy" in engine.active_sides(g)  # Kennedy still chooses


def test_the_question_a_side_faces_is_named_in_a_players_words() -> None:
    g = engine.new_game(seed=2)  # Kennedy won the initiative
    assert orders.about(g, "kennedy") == "who goes first"  # not the step's key 'choose first'
    assert orders.about(g, "nixon") == ""
    assert orders.Auto("kennedy", "strategy 27", "forced", "campaign strategy").note() == (
        "strategy 27 (campaign strategy): your only legal choice"
    )
