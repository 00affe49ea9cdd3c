"""The tree search: reproducible for a seed and a playout budget, its pieces behave as
described (shared tree, progressive widening, the heuristic's prior), and every computer
move comes with a reason that says what decided it.

Strength is measured in benchmarks (benchmarks/README.md), never here.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import bots
import bots.heuristic
import bots.ismcts
import engine
from bots import search
from bots.decision import describe, heuristic_reason, search_reason
from bots.heuristic import Heuristic
from bots.ismcts import OWN_DECISION_STEPS, VARIANTS, Config, Tree
from bots.search import Budget
from engine.determinize import determinize, sampler
from engine.state import GameState


def searched_position(seed: int = 5, skip: int = 0, step: str = "action") -> tuple[GameState, str]:
    """A position of a heuristic game with a choice at ``step`` (by default: an action)."""
    g = engine.new_game(seed)
    n = 0
    while True:
        side = sorted(engine.active_sides(g))[0]
        legal = engine.legal_commands(g, side)
        here = g["stack"][-1]["step"]
        if len(legal) > 1 and here == step:
            if skip == 0:
                return g, side
            skip -= 1
        engine.apply_in_place(g, side, bots.choose_command(g, side, "heuristic", seed=n))
        n += 1


def test_the_same_seed_and_playouts_give_the_same_decision() -> None:
    g, side = searched_position()
    first = search.decide(g, side, Budget(iterations=40), seed=3)
    again = search.decide(engine.copy_state(g), side, Budget(iterations=40), seed=3)
    assert first == again
    assert first.playouts == 40
    assert first.command in engine.legal_commands(g, side)


def test_the_tree_grows_below_the_root_and_is_shared_across_determinisations() -> None:
    g, side = searched_position()
    legal = engine.legal_commands(g, side)
    rnd = random.Random(1)
    ranked = [c for _, c in Heuristic(rnd).ranked(determinize(g, side, sampler(1)), side, legal)]
    tree = Tree(g, side, ranked, rnd, sampler(2), Config())
    tree.run(120, None)
    assert tree.root.visits == 120  # every determinisation went through the one root
    deep = [c for c in tree.root.children.values() if c.children]
    assert deep and max(sum(x.visits for x in c.children.values()) for c in deep) > 1
    stats = tree.stats()
    assert sum(s.visits for s in stats) == 120
    well_tried = [s for s in stats if s.visits >= max(x.visits for x in stats) / 5]
    assert tree.best() == stats[0].command
    assert stats[0].mean == max(s.mean for s in well_tried)  # the reason's "won X %" is the best


def test_progressive_widening_opens_the_heuristics_best_first() -> None:
    g, side = searched_position()
    legal = engine.legal_commands(g, side)
    assert len(legal) > 8
    rnd = random.Random(1)
    ranked = [c for _, c in Heuristic(rnd).ranked(determinize(g, side, sampler(1)), side, legal)]
    widened = Tree(g, side, ranked, random.Random(2), sampler(2), Config())
    widened.run(16, None)
    tried = {s.command for s in widened.stats()}
    assert len(tried) <= 1 + int(16**0.5)  # 1 + widen * visits ** alpha at the last visit
    assert tried <= set(ranked[: 1 + int(16**0.5)])  # from the top of the prior's order
    wide = Tree(g, side, ranked, random.Random(2), sampler(2), Config(widening=False, prior=False))
    wide.run(16, None)
    assert len(wide.stats()) > len(tried)  # UCB1 without widening tries everything once


def last_action_of_the_turn(seed: int = 5) -> tuple[GameState, str]:
    """A searched action in the last activity phase of turn 1 (R6.1)."""
    skip = 0
    while True:
        g, side = searched_position(seed, skip)
        if g["turn"] > 1:
            raise AssertionError("turn 1 ended before its last activity phase was found")
        if g["round"] == 4:
            return g, side
        skip += 1


def iterations_seen(
    monkeypatch: pytest.MonkeyPatch,
    config: Config,
    iterations: int,
    at: tuple[GameState, str] | None = None,
) -> list[tuple[int, int]]:
    """Each iteration's (actions played, the last turn an action was played in) in a `Tree`
    with ``config`` at ``at`` (by default the last action of turn 1)."""
    g, side = at or last_action_of_the_turn()
    seen: list[tuple[int, int]] = []
    actions, turn = 0, 0
    apply, score = engine.apply_in_place, bots.ismcts.win_probability

    def counting_apply(state: GameState, who: str, cmd: str) -> list[str]:
        nonlocal actions, turn
        if state["stack"][-1]["step"] == "action":
            actions, turn = actions + 1, state["turn"]
        return apply(state, who, cmd)

    def recording_score(state: GameState, who: str) -> float:
        nonlocal actions
        seen.append((actions, turn))
        actions = 0
        return score(state, who)

    monkeypatch.setattr(engine, "apply_in_place", counting_apply)
    monkeypatch.setattr(bots.ismcts, "win_probability", recording_score)
    legal = engine.legal_commands(g, side)
    Tree(g, side, legal, random.Random(1), sampler(1), config).run(iterations, None)
    assert len(seen) == iterations
    return seen


def test_an_iteration_stops_at_the_horizon_or_the_turns_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = iterations_seen(monkeypatch, Config(), 40)
    assert {turn for _, turn in seen} == {1}  # never past the turn's end
    assert max(actions for actions, _ in seen) <= 1 + 4  # the root's, then the horizon


def test_the_deep_model_plays_on_into_the_next_turn_and_counts_from_the_leaf(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = iterations_seen(monkeypatch, VARIANTS["deep"], 40)
    assert {turn for _, turn in seen} == {2}  # every iteration plays on into turn 2
    assert max(actions for actions, _ in seen) > 1 + 4  # the tree's actions, then four more


def test_the_turnend_model_plays_every_iteration_to_the_turns_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = searched_position()  # the first action of turn 1: ten actions in the turn (R6.1)
    assert (first[0]["turn"], first[0]["round"]) == (1, 1)
    four = iterations_seen(monkeypatch, Config(), 30, at=first)
    assert max(actions for actions, _ in four) == 1 + 4
    seen = iterations_seen(monkeypatch, VARIANTS["turnend"], 30, at=first)
    assert {turn for _, turn in seen} == {1}  # never past the turn's end
    assert max(actions for actions, _ in seen) == 10  # every action of the turn


def test_the_sim_model_tries_the_playouts_events_on_copies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    g, side = searched_position()  # a card play: events among the choices, in playouts too
    tries = 0
    simulate = bots.heuristic._simulate

    def counting(*args: Any) -> float | None:
        nonlocal tries
        tries += 1
        return simulate(*args)

    monkeypatch.setattr(bots.heuristic, "_simulate", counting)
    legal = engine.legal_commands(g, side)
    for config, tried in ((Config(), False), (VARIANTS["sim"], True)):
        tries = 0
        Tree(g, side, legal, random.Random(1), sampler(1), config).run(20, None)
        assert (tries > 0) is tried


def test_the_paired_search_deals_each_root_commands_nth_game_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`paired`: common random numbers, so two root commands are compared on the same deals."""
    g, side = searched_position()
    legal = engine.legal_commands(g, side)

    class Recording(Tree):
        root_choice = ""

        def _select(self, g: GameState, who: str, node: Any) -> Any:
            cmd, child = super()._select(g, who, node)
            if node is self.root:
                self.root_choice = cmd
            return cmd, child

    deals: list[tuple[str, str]] = []  # (the root command, the deal's generator key)
    deal = bots.ismcts.determinize

    def recording(state: GameState, who: str, rng: Any) -> GameState:
        h = deal(state, who, rng)
        deals.append((tree.root_choice, h["rng"]["key"]))
        return h

    monkeypatch.setattr(bots.ismcts, "determinize", recording)
    for config, paired in ((Config(), False), (VARIANTS["paired"], True)):
        deals.clear()
        tree = Recording(g, side, legal, random.Random(1), sampler(1), config)
        tree.run(60, None)
        keys = [key for _, key in deals]
        if not paired:
            assert len(set(keys)) == 60  # a new deal every game
            continue
        by_command: dict[str, list[str]] = {}
        for cmd, key in deals:
            by_command.setdefault(cmd, []).append(key)
        assert len(by_command) > 1
        most = max(by_command.values(), key=len)
        for games in by_command.values():
            assert games == most[: len(games)]  # the n-th game of each: the same deal
        assert len(set(keys)) == len(most)


def test_the_paired_search_compares_root_commands_on_the_deals_they_share() -> None:
    g, side = searched_position()
    a, b = engine.legal_commands(g, side)[:2]
    tree = Tree(g, side, [a, b], random.Random(1), sampler(1), VARIANTS["paired"])
    games = {a: [0.2, 0.2, 0.8, 0.8, 0.8, 0.8], b: [0.3, 0.3]}  # b drew the two poor deals
    for cmd, results in games.items():
        tree.root.children[(side, cmd)] = bots.ismcts.Node(len(results), sum(results))
        tree.sums[cmd] = [sum(results[:k]) for k in range(len(results) + 1)]
    # b beat a by 0.1 on both deals they share: a's mean (0.6) and that, not b's own 0.3
    assert [(s.command, round(s.mean, 6)) for s in tree.stats()] == [(b, 0.7), (a, 0.6)]
    plain = Tree(g, side, [a, b], random.Random(1), sampler(1), Config())
    plain.root.children = tree.root.children
    assert [s.command for s in plain.stats()] == [a, b]


def test_a_time_budget_runs_at_least_one_playout() -> None:
    g, side = searched_position()
    d = search.decide(g, side, Budget(seconds=1e-9), seed=1)
    assert d.playouts >= 1 and d.command in engine.legal_commands(g, side)


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v])
def test_every_variant_plays_a_legal_command(variant: str) -> None:
    g, side = searched_position(skip=3)
    d = search.decide(g, side, Budget(iterations=12, variant=variant), seed=2)
    assert d.command in engine.legal_commands(g, side) and d.playouts == 12


def test_point_spending_is_searched_with_its_share_of_the_budget_or_left_to_the_heuristic() -> None:
    g, side = searched_position(step="campaign")  # spending campaign points (R7)
    plain = search.decide(g, side, Budget(iterations=40), seed=2)
    assert plain.playouts == 0 and "by the rules of thumb" in plain.reason
    assert plain.command == bots.choose_command(g, side, "heuristic", seed=2)
    share = VARIANTS["points"].point_share
    searched = search.decide(g, side, Budget(iterations=40, variant="points"), seed=2)
    assert searched.playouts == round(40 * share) and "simulated games" in searched.reason
    assert searched.command in engine.legal_commands(g, side)


def test_variants_with_the_players_horizon_share_its_model() -> None:
    """`--regret` values each spec by its model: one reference for all the player's-horizon variants."""
    assert {VARIANTS[v].model() for v in ("", "flat", "narrow", "points")} == {Config()}
    assert VARIANTS["deep"].model() == Config(from_leaf=True, turn_end=False)
    assert VARIANTS["leaf"].model() != Config()
    assert VARIANTS["sim"].model() == Config(simulate=True)


def test_unknown_variants_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown search variant"):
        Budget(iterations=5, variant="magic")
    with pytest.raises(ValueError, match="unknown search variant"):
        bots.parse_kind("search:5i:magic")
    assert bots.parse_kind("search:50i:flat") == ("search", Budget(iterations=50, variant="flat"))


# --- reasons ---------------------------------------------------------------------------------


def test_the_search_says_how_its_move_did_in_the_simulated_games() -> None:
    g, side = searched_position()
    d = search.decide(g, side, Budget(iterations=60), seed=4)
    assert d.reason.startswith(describe(d.command))
    m = re.search(r"won (\d+) % of (\d+) simulated games", d.reason)
    assert m is not None, d.reason
    assert 0 < int(m.group(2)) <= 60
    if "against" in d.reason:  # the runner-up, by name, with its own figures
        assert re.search(r"against \d+ % of \d+ for '[^']+'", d.reason), d.reason
    assert "in 60 games" in d.reason or "60 in all" in d.reason


def test_every_computer_move_of_a_game_has_a_reason() -> None:
    g = engine.new_game(12, edition="gmt")
    kinds = {"kennedy": "search", "nixon": "heuristic"}
    seen = {"search": 0, "rules": 0, "forced": 0}
    for n in range(3000):
        active = sorted(engine.active_sides(g))
        if not active:
            break
        side = active[0]
        d = bots.decide(g, side, kinds[side], Budget(iterations=6), seed=n)
        assert d.command in engine.legal_commands(g, side)
        assert d.reason.startswith(describe(d.command)), d.reason
        if "simulated games" in d.reason:
            seen["search"] += 1
            assert d.playouts == 6
        elif "by the rules of thumb" in d.reason:
            seen["rules"] += 1
            assert re.search(r"(best of \d+ options|a toss-up) .* worth about [+-]\d", d.reason), (
                d.reason
            )
        else:
            assert "only legal move" in d.reason, d.reason
            seen["forced"] += 1
        engine.apply_in_place(g, side, d.command)
    assert engine.result(g) is not None
    assert all(seen.values()), seen


def test_the_reason_names_cards_and_states() -> None:
    assert describe("campaign 17").startswith("'campaign 17' (#17 ")
    assert describe("check OH 2") == "'check OH 2' (Ohio)"
    assert describe("done") == "'done'"


def test_the_reason_writes_issues_as_a_player_would() -> None:
    """An issue reads as it is written in a reply, never as the engine's key."""
    assert describe("issue civil_rights") == "'issue civil rights'"
    assert engine.parse("issue civil rights", ["issue civil_rights"]) == ["issue civil_rights"]
    reason = search_reason(
        "issue civil_rights",
        [("issue civil_rights", 80, 0.6), ("issue economy", 40, 0.5)],
        120,
        "swap civil_rights economy",
        plan=["issue civil_rights", "issue civil_rights"],
    )
    assert "_" not in reason, reason
    assert reason.endswith(
        "; then issue civil rights x2 (the rules of thumb alone would have played "
        "'swap civil rights economy')"
    )


def test_the_searchs_reason_calls_equal_rounded_results_a_toss_up() -> None:
    """'won 69 % of 44 ..., against 69 % of 44 for ...' read as if the first were better."""
    tie = search_reason(
        "event 6", [("event 6", 44, 0.691), ("position 6", 44, 0.688)], 914, "event 6"
    )
    assert tie == (
        "'event 6' (#6 New England): won 69 % of 44 simulated games, as did 'position 6' (#6 New "
        "England) (69 % of 44): a toss-up between the two most promising of 2 options tried in "
        "914 games"
    )
    clear = search_reason("event 6", [("event 6", 44, 0.7), ("position 6", 40, 0.6)], 84, "event 6")
    assert ", against 60 % of 40 for 'position 6' (#6 New England), the next most" in clear


def test_the_heuristics_decision_is_its_choice_with_a_reason() -> None:
    g, side = searched_position(skip=2)
    for seed in range(5):
        d = bots.decide(g, side, "heuristic", seed=seed)
        assert d.command == bots.choose_command(g, side, "heuristic", seed=seed)
        assert d.playouts == 0 and "best of" in d.reason


def test_the_heuristics_reason_calls_a_tie_a_toss_up() -> None:
    """Two options worth the same, as the reason rounds them, are not "best ... against" (it
    read "best of 4 options ..., worth about +1.0 ..., against +1.0 for 'issue defense'")."""
    tie = heuristic_reason("position", [(1.04, "issue economy"), (0.96, "issue defense")])
    assert tie == (
        "'issue economy': a toss-up by the rules of thumb with 'issue defense', both worth about "
        "+1.0 electoral votes per CP (of 2 options)"
    )
    clear = heuristic_reason("position", [(1.2, "issue economy"), (0.9, "issue defense")])
    assert clear.endswith(
        "best of 2 options by the rules of thumb, worth about +1.2 electoral "
        "votes per CP, against +0.9 for 'issue defense'"
    )


def test_sure_keeps_the_heuristics_best_unless_the_games_show_another_better() -> None:
    """``sure``: a lead within the noise of a few games does not overrule the heuristic's best;
    a lead of many standard errors does."""
    g, side = searched_position()
    ranked = [
        c for _, c in Heuristic(random.Random(0)).ranked(g, side, engine.legal_commands(g, side))
    ]
    first, other = ranked[0], ranked[1]

    def tree(results: dict[str, list[float]]) -> Tree:
        t = Tree(g, side, ranked, random.Random(0), sampler(0), VARIANTS["sure"])
        for cmd, values in results.items():
            child = t.root.children[(side, cmd)] = bots.ismcts.Node()
            for v in values:
                child.visits += 1
                child.total += v
                child.squares += v * v
        return t

    noisy = tree({first: [0.2, 0.8, 0.4, 0.6], other: [0.3, 0.9, 0.5, 0.7]})  # 0.5 vs 0.6
    assert noisy.best() == first and noisy.stats()[0].command == first
    clear = tree({first: [0.49, 0.51] * 20, other: [0.59, 0.61] * 20})  # the same lead, sure
    assert clear.best() == other
    plain = Tree(g, side, ranked, random.Random(0), sampler(0), VARIANTS[""])
    plain.root.children = noisy.root.children
    assert plain.best() == other  # without ``sure`` the better mean plays


def test_the_plan_is_the_decisions_follow_up_never_the_next_card_play() -> None:
    """A plan after declining a trigger read 'then position with a hidden card': the side's
    next card play (R6.1), told to the opponent before it was made. The plan follows the
    decision through its own steps and ends before the next action."""
    seen = 0
    for seed in (3,):
        g = engine.new_game(seed)
        for n in range(400):
            active = sorted(engine.active_sides(g))
            if not active:
                break
            side = active[0]
            legal = engine.legal_commands(g, side)
            if search.searches(g, legal) and n % 3 == 0:
                rnd, rng = random.Random(n), sampler(n)
                root = determinize(g, side, rng)
                ranked = [c for _, c in Heuristic(rnd).ranked(root, side, legal)]
                tree = Tree(g, side, ranked, rnd, rng, Config())
                tree.run(40, None)
                plan = tree.plan()
                h = determinize(g, side, sampler(n + 1))
                engine.apply_in_place(h, side, tree.best())
                node = tree.root.children[(side, tree.best())]
                for cmd in plan:
                    node = node.children[(side, cmd)]
                    assert node.step not in OWN_DECISION_STEPS, (tree.best(), plan, cmd)
                    if engine.active_sides(h) != {side}:
                        # this deal's draw decided it: the endorsement card names its region (R10.5)
                        assert cmd not in engine.legal_commands(h, side), (tree.best(), plan)
                        break
                    assert h["stack"][-1]["step"] != "action", (tree.best(), plan, cmd)
                    engine.apply_in_place(h, side, cmd)
                seen += bool(plan)
            engine.apply_in_place(g, side, bots.choose_command(g, side, "heuristic", seed=n))
    assert seen >= 5
