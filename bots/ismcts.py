"""Information-set Monte Carlo tree search (single observer) over determinisations.

One tree per decision, from the deciding side's information set: every iteration samples a
state consistent with that side's view (`engine.determinize`: the opponent's cards, the deck
and every draw to come dealt anew), walks the tree in it, grows it by one node, plays on with
the fast heuristic to a horizon and scores the position (`engine.evaluate.win_probability`).
The horizon (`Config`) is a number of further actions (R6.1), counted from the root's
decision or from the tree's leaf, and, unless the iteration may play on into the next turn,
the turn's end; the last turn always plays on to the election.
The tree's nodes are sequences of decisions, not states, so every determinisation that
allows a decision adds to the same statistics (the tree is shared across them).

At a node the side to move (the root's side first when both must decide) chooses among the
commands legal in *this* determinisation:

- the heuristic ranks them (`bots.heuristic`): its order is the **prior** of PUCT
  selection — ``Q + C * P * sqrt(available) / (1 + visits)`` with ``P`` falling geometrically
  with the rank — and, with no statistics yet, the order of first tries;
- **progressive widening**: only the best ``1 + widen * visits ** alpha`` of them may be
  chosen at the root (below it ``visits / expand_after``), so the many CP placements (a
  hundred ``support``/``check`` commands at a campaign step) open one at a time, best
  first, as the node is visited; until then the heuristic's choice is played there, as in a
  playout (exploring poor placements early would make a card play look worse than it is);
- ``available`` counts the iterations where the command could be chosen (ISMCTS's
  availability), so a command legal in few determinisations is not over-explored.

The opponent's nodes choose for the opponent (``1 - Q``). The root plays the most-visited
command; `Tree.stats` gives the root's statistics for the reason a player reads.

`Config` holds the pieces, so a benchmark can switch one off (`VARIANTS`): ``flat`` is the
earlier search (five heuristic candidates at the root, UCB1, no tree below the root),
``narrow`` half of UCB1's constant at the root (less exploration); ``leaf`` the horizon
counted from the tree's leaf, ``deep`` that and past the turn's end, ``turnend`` every
iteration to the turn's end, however far (``horizon`` 10: a turn's five rounds, R6.1);
``points`` searches the point-spending steps too with a quarter of the budget, ``allpoints``
with all of it; ``sure`` keeps the heuristic's best unless another command's mean beats it
by two standard errors of the difference (a few noisy games do not overrule it),
``surepoints`` is both; ``sim`` has the playouts' heuristic try events on copies, as the
player at the table does (about 1.6 times the cost of a playout); ``paired`` plays every root
command's n-th game on the same deal (the same hidden cards, draws and playout seed: common
random numbers) and compares two commands on the deals they share.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

import engine
from bots.heuristic import Heuristic
from engine import rng as _rng
from engine.determinize import determinize, sampler
from engine.evaluate import win_probability
from engine.schema import Rng

__all__ = ["VARIANTS", "Config", "Node", "RootStat", "Tree"]

MAX_PLAYOUT_MOVES = 600
# the steps where a side starts a decision of its own, never the follow-up of an earlier one:
# the first player (R5.2), a card play (R6.1), a trigger (R6.7), the 2nd issue's award (R10.3),
# the issue swap (R10.6), strategy cards (R11.1), debate cards and sides (R12), Election Day's
# strategy cards (R13.3)
OWN_DECISION_STEPS = frozenset(
    {
        "action",
        "trigger",
        "strategy",
        "debate_pick",
        "debate_side",
        "award_choice",
        "issue_swap",
        "election_card",
        "choose_first",
    }
)


@dataclass(frozen=True)
class Config:
    """The search's pieces and constants (the defaults are the player's)."""

    tree: bool = True  # a tree below the root (False: one level, the flat search)
    prior: bool = True  # the heuristic's order as a prior (False: plain UCB1 everywhere)
    widening: bool = True  # progressive widening (False: every legal command at once)
    candidates: int = 0  # > 0: only the heuristic's best few at the root (the flat search's 5)
    root_ucb: bool = True  # the root by UCB1 with the prior as a progressive bias (else PUCT)
    by_mean: bool = True  # play the best mean of the well-tried (else the most tried)
    well_tried: float = 0.2  # well-tried: at least this share of the most-tried's visits
    root_min: int = 5  # the root opens at least this many of the heuristic's best at once
    c_ucb: float = 0.5  # UCB1's constant
    bias: float = 0.1  # the progressive bias at the root: bias * P / (1 + visits)
    c_puct: float = 0.6  # PUCT's constant below the root
    decay: float = 0.6  # the prior of the heuristic's n-th best is proportional to decay ** n
    widen: float = 1.0
    alpha: float = 0.5
    expand_after: int = 10  # below the root: the heuristic's choice alone until this many visits
    horizon: int = 4  # an iteration stops after this many further actions (R6.1) ...
    from_leaf: bool = False  # ... counted from the tree's leaf (False: from the root's decision)
    turn_end: bool = True  # ... or at the turn's end (False: it plays on into the next turn)
    point_share: float = 0.0  # > 0: point-spending steps searched, with this share of the budget
    sure: float = 0.0  # > 0: the heuristic's best stands unless beaten by this many standard errors
    simulate: bool = False  # the playouts' heuristic tries events on copies (`bots.heuristic`)
    paired: bool = False  # root commands compared on common deals (see `Tree._paired_mean`)

    def model(self) -> Config:
        """What an iteration's value measures (the horizon, the playouts' player), the search's
        other pieces at the player's defaults: two configs with the same model value a command
        alike."""
        return Config(
            horizon=self.horizon,
            from_leaf=self.from_leaf,
            turn_end=self.turn_end,
            simulate=self.simulate,
        )


VARIANTS = {
    "": Config(),
    "flat": Config(tree=False, prior=False, widening=False, candidates=5, well_tried=0.0),
    "notree": Config(tree=False),
    "noprior": Config(prior=False),
    "nowiden": Config(widening=False),
    "puct": Config(root_ucb=False, by_mean=False, root_min=1),
    "narrow": Config(c_ucb=0.25),
    "leaf": Config(from_leaf=True),
    "deep": Config(from_leaf=True, turn_end=False),
    "turnend": Config(horizon=10),
    "points": Config(point_share=0.25),
    "allpoints": Config(point_share=1.0),
    "sure": Config(sure=2.0),
    "surepoints": Config(point_share=1.0, sure=2.0),
    "sim": Config(simulate=True),
    "paired": Config(paired=True),
}


@dataclass
class Node:
    """A sequence of decisions from the root; its children by (side, command)."""

    visits: int = 0
    total: float = 0.0  # the root side's summed results
    squares: float = 0.0  # ... and their squares (the spread of a root command's results)
    available: int = 0
    step: str = ""  # the step the decision was taken at (engine's stack: "action", "campaign" ...)
    children: dict[tuple[str, str], Node] = field(default_factory=dict)


@dataclass(frozen=True)
class RootStat:
    """One root command's statistics: simulated games, the root side's mean result (with
    `Config.paired`, as `Tree._paired_mean` corrects it)."""

    command: str
    visits: int
    mean: float
    prior_rank: int  # 0: the heuristic's best
    variance: float = 0.0  # of the simulated games' results (0 with fewer than two)

    def error(self) -> float:
        """The standard error of ``mean``."""
        return math.sqrt(self.variance / self.visits) if self.visits else math.inf


class Tree:
    """One decision's search: `run` until the budget is spent, then `best` and `stats`."""

    def __init__(
        self,
        state: engine.GameState,
        side: str,
        ranked_root: list[str],
        rnd: random.Random,
        rng: Rng,
        config: Config,
    ) -> None:
        self.state, self.side, self.rnd, self.rng, self.config = state, side, rnd, rng, config
        self.root = Node()
        n = config.candidates or len(ranked_root)
        self.root_order = ranked_root[:n]  # the heuristic's order (simulated events)
        self.rank = {c: i for i, c in enumerate(self.root_order)}
        self.fast = Heuristic(rnd, simulate=config.simulate)
        self.iterations = 0
        # `paired`: the root commands' n-th games share a deal and a playout seed, from this
        self.pairing = _rng.below(rng, 1 << 32) if config.paired else 0
        self.sums: dict[str, list[float]] = {}  # a root command's results summed, game by game

    # --- the loop ---------------------------------------------------------------------------

    def run(self, iterations: int | None, seconds: float | None) -> int:
        """Iterate until ``iterations`` (or ``seconds`` of wall-clock time, at least one
        iteration) are spent; returns the iterations run."""
        deadline = time.perf_counter() + seconds if seconds is not None else math.inf
        limit = iterations if iterations is not None else 1 << 30
        first = min(1, limit)
        while self.iterations < limit and (
            self.iterations < first or time.perf_counter() < deadline
        ):
            self._iterate()
            self.iterations += 1
        return self.iterations

    def _iterate(self) -> None:
        cfg = self.config
        first: tuple[str, Node] | None = None
        if cfg.paired:  # the root's command first, then its n-th deal (common random numbers)
            first = self._select(self.state, self.side, self.root)
            deal = self.pairing * 1_000_003 + first[1].visits
            self.rnd.seed(deal)
            g = determinize(self.state, self.side, sampler(deal))
        else:
            g = determinize(self.state, self.side, self.rng)
        turn = g["turn"]
        last_turn = turn >= 9  # the last turn plays on to the election (R13)
        path = [self.root]
        node: Node | None = self.root
        actions = 0
        root_cmd = ""
        expanding = True  # walk the tree until a new node is added
        for _ in range(MAX_PLAYOUT_MOVES):
            active = engine.active_sides(g)
            if not active or (cfg.turn_end and g["turn"] != turn and not last_turn):
                break
            if (
                g["stack"][-1]["step"] == "action"
                and len(path) > 1
                and not (cfg.from_leaf and expanding)
            ):
                actions += 1
                if actions > cfg.horizon and not last_turn:
                    break
            if node is not None and expanding:
                who = self.side if self.side in active else min(active)
                if first is not None:
                    (cmd, child), first = first, None
                else:
                    cmd, child = self._select(g, who, node)
                if node is self.root:
                    root_cmd = cmd
                path.append(child)
                if child.visits == 0 or not cfg.tree:
                    expanding = False
                node = child
            else:
                who = min(active) if len(active) == 1 else self.rnd.choice(sorted(active))
                cmd = self.fast.choose(g, who)
            engine.apply_in_place(g, who, cmd)
        result = win_probability(g, self.side)
        if cfg.paired and root_cmd:
            sums = self.sums.setdefault(root_cmd, [0.0])
            sums.append(sums[-1] + result)
        for n in path:
            n.visits += 1
            n.total += result
            n.squares += result * result

    # --- selection --------------------------------------------------------------------------

    def _candidates(self, g: engine.GameState, who: str, node: Node) -> list[str]:
        """The commands ``who`` may choose at ``node`` in this determinisation, best first."""
        if node is self.root:
            order = self.root_order
        else:
            legal = engine.legal_commands(g, who)
            order = legal if len(legal) == 1 else [c for _, c in self.fast.ranked(g, who, legal)]
        cfg = self.config
        if cfg.widening:
            if node is self.root:
                k = max(cfg.root_min, 1 + int(cfg.widen * node.visits**cfg.alpha))
            else:
                k = 1 + int(cfg.widen * (node.visits / cfg.expand_after) ** cfg.alpha)
            order = order[:k]
        return order

    def _select(self, g: engine.GameState, who: str, node: Node) -> tuple[str, Node]:
        cfg = self.config
        order = self._candidates(g, who, node)
        mine = who == self.side
        parent_q = node.total / node.visits if node.visits else 0.5
        if not mine:
            parent_q = 1.0 - parent_q
        best, best_score, best_child = order[0], -math.inf, None
        weight = 1.0
        norm = (1.0 - cfg.decay) / (1.0 - cfg.decay ** len(order)) if cfg.decay < 1 else 1.0
        reference = self._reference() if cfg.paired and node is self.root else None
        for cmd in order:
            child = node.children.get((who, cmd))
            if child is None:
                child = node.children[(who, cmd)] = Node(step=g["stack"][-1]["step"])
            child.available += 1
            if child.visits:
                if reference is None:
                    q = child.total / child.visits
                else:
                    q = self._paired_mean(cmd, reference)
                q = q if mine else 1.0 - q
            else:
                q = parent_q  # first-play urgency: the parent's value
            p = weight * norm if cfg.prior else 0.0
            if cfg.prior and not (cfg.root_ucb and node is self.root):
                score = q + cfg.c_puct * p * math.sqrt(child.available) / (1 + child.visits)
            elif child.visits == 0:
                score = 1e9 + p  # UCB1: every candidate once, best-ranked first
            else:
                score = q + cfg.c_ucb * math.sqrt(math.log(child.available) / child.visits)
                score += cfg.bias * p / (1 + child.visits)
            if score > best_score:
                best, best_score, best_child = cmd, score, child
            weight *= cfg.decay
        assert best_child is not None
        return best, best_child

    def _reference(self) -> list[float] | None:
        """The most-tried root command's summed results (`paired`'s yardstick)."""
        if not self.sums:
            return None
        return max(self.sums.values(), key=len)

    def _paired_mean(self, cmd: str, reference: list[float]) -> float:
        """``cmd``'s mean, corrected by how the most-tried command did on the same deals
        against all of its own: the difference of two root commands' means is then taken
        on the deals they share (common random numbers)."""
        sums = self.sums[cmd]
        n = len(sums) - 1
        mean = sums[-1] / n
        if reference is sums:
            return mean
        m = len(reference) - 1
        return min(1.0, max(0.0, mean - reference[n] / n + reference[-1] / m))

    # --- the answer -------------------------------------------------------------------------

    def stats(self) -> list[RootStat]:
        """The root's tried commands, the preferred first: with ``by_mean`` the well-tried by
        their mean, then the rest; else by simulated games (ties: the higher mean)."""
        reference = self._reference() if self.config.paired else None
        out = [
            RootStat(
                cmd,
                child.visits,
                self._paired_mean(cmd, reference) if reference else child.total / child.visits,
                self.rank.get(cmd, -1),
                _variance(child),
            )
            for (who, cmd), child in self.root.children.items()
            if who == self.side and child.visits
        ]
        out.sort(key=lambda s: (-s.visits, -s.mean, s.prior_rank))
        if self.config.by_mean and out:
            floor = out[0].visits * self.config.well_tried
            out.sort(key=lambda s: (s.visits < floor, -s.mean if s.visits >= floor else 0.0))
        if self.config.sure > 0 and out:
            first = next((s for s in out if s.prior_rank == 0), None)
            tried = max(s.visits for s in out) * self.config.well_tried
            if first is not None and first is not out[0] and first.visits >= max(2, tried):
                lead = out[0].mean - first.mean
                noise = math.hypot(out[0].error(), first.error())
                if lead < self.config.sure * noise:  # not shown better: the heuristic's stands
                    out.remove(first)
                    out.insert(0, first)
        return out

    def best(self) -> str:
        stats = self.stats()
        return stats[0].command if stats else self.root_order[0]

    def plan(self, limit: int = 6) -> list[str]:
        """The side's own decisions right after `best`, most visited first (its intended
        follow-up: the CP placements of a campaign, the options of an event, the region of an
        award). It ends before the side's next decision of its own (`OWN_DECISION_STEPS`): that
        is not this one's follow-up, and the opponent, who reads the reason, would learn a
        card play (or a strategy card) before it was made."""
        node = self.root.children.get((self.side, self.best()))
        out: list[str] = []
        while node is not None and len(out) < limit:
            own = [(c.visits, cmd) for (who, cmd), c in node.children.items() if c.visits]
            if not own or any(
                who != self.side for (who, _), c in node.children.items() if c.visits
            ):
                break
            visits, cmd = max(own)
            if visits < 2 or node.children[(self.side, cmd)].step in OWN_DECISION_STEPS:
                break
            out.append(cmd)
            node = node.children[(self.side, cmd)]
        return out


def _variance(node: Node) -> float:
    """The sample variance of the results through ``node`` (0 with fewer than two)."""
    if node.visits < 2:
        return 0.0
    mean = node.total / node.visits
    return max(0.0, (node.squares - node.visits * mean * mean) / (node.visits - 1))
