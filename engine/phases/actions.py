"""One action of an activity phase (R6): a card as event or for CP, the candidate
card, the Vice President card (R15.1), preempting (R6.8) and triggering (R6.7).

Steps: ``action`` (decision), ``after_cp`` (auto), ``trigger`` (decision).
"""

from __future__ import annotations

from engine import board, effects
from engine.data import CARDS, other
from engine.events import EVENTS, event_available, start_event
from engine.flow import Frame, Step, pop, push, register
from engine.phases import cp
from engine.state import GameState, log

CP_KINDS = ("campaign", "advertise", "position")


def can_spend_momentum(g: GameState, side: str, n: int) -> bool:
    return g["momentum"][side] >= n and not effects.momentum_locked(g, side)


def can_use_for(g: GameState, side: str, kind: str) -> bool:
    cost = effects.play_cost(g, side, kind)
    return cost == 0 or can_spend_momentum(g, side, cost)


# Canonical texts per card, built once: "event N", then per CP use "KIND N" and "KIND N preempt".
_CARD_USES = frozenset(("event", *CP_KINDS))
_EVENT_CMD = {n: f"event {n}" for n in CARDS}
_USE_CMDS = {n: tuple((f"{k} {n}", f"{k} {n} preempt") for k in CP_KINDS) for n in CARDS}


class _Plays:
    """What a side may do with its cards now (R6.3-R6.8), effect hooks consulted once per listing."""

    def __init__(self, g: GameState, side: str) -> None:
        if g["effects"]:
            self.event_ok = can_use_for(g, side, "event")
            self.uses = tuple(can_use_for(g, side, k) for k in CP_KINDS)
            # R6.8: the preempt is paid on top of any play cost of that use (e.g. #2 Nixon's Knee)
            free = effects.free_preempt(g, side)
            self.preempts = tuple(
                ok
                and (
                    free
                    or can_spend_momentum(
                        g, side, board.PREEMPT_COST + effects.play_cost(g, side, k)
                    )
                )
                for ok, k in zip(self.uses, CP_KINDS, strict=True)
            )
        else:  # no effect in force: no play cost, momentum not locked
            self.event_ok = True
            self.uses = (True, True, True)
            ok = g["momentum"][side] >= board.PREEMPT_COST
            self.preempts = (ok, ok, ok)
        prevention = g["persistent"]["prevention"]
        self.prevented = {c for p in prevention for c in CARDS[p].prevents} if prevention else _NONE
        key = (self.event_ok, self.preempts, self.uses)
        table = _TABLES.get(key)
        if table is None:
            table = _TABLES[key] = _table(*key)
        # card -> (its commands, its commands while its event is unavailable)
        self.table = table

    def commands(self, card: int) -> tuple[str, ...]:
        return self.table[card][card not in EVENTS or card in self.prevented]  # event_available


_NONE: frozenset[int] = frozenset()
_Table = dict[int, tuple[tuple[str, ...], tuple[str, ...]]]
_Key = tuple[bool, tuple[bool, ...], tuple[bool, ...]]
_TABLES: dict[_Key, _Table] = {}  # memo of `_table` (a few dozen keys at most)
_NO_PREEMPT = (False, False, False)


def _table(event_ok: bool, preempts: tuple[bool, ...], uses: tuple[bool, ...]) -> _Table:
    """Every card's command lists for one combination of what the side may pay for."""
    return {
        card: (
            _card_list(card, event_ok, preempts, uses),
            _card_list(card, False, _NO_PREEMPT, uses),
        )  # event not available (R6.4)
        for card in CARDS
    }


def _card_list(
    card: int, event: bool, preempts: tuple[bool, ...], uses: tuple[bool, ...]
) -> tuple[str, ...]:
    """A card's commands in canonical order: event, then each allowed use (and its preempt)."""
    out = [_EVENT_CMD[card]] if event else []
    for ok, preempt, (use, pre) in zip(uses, preempts, _USE_CMDS[card], strict=True):
        if ok:
            out.append(use)
            if preempt:
                out.append(pre)
    return tuple(out)


@register
class Action(Step):
    """R6.1: the side's action in this activity phase."""

    name = "action"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        if side != f["side"]:
            return []
        plays = _Plays(g, side)
        if "only" in f:  # the Vice President card played in place of a discard (R15.1)
            return list(plays.commands(f["only"]))
        out: list[str] = []
        table, prevented = plays.table, plays.prevented
        for card in sorted(g["hands"][side]):
            out.extend(table[card][card not in EVENTS or card in prevented])
        if g["candidate"][side] == "active":
            out.extend(f"candidate {k}" for k, ok in zip(CP_KINDS, plays.uses, strict=True) if ok)
        vp = g["vp"][side]
        if vp is not None:
            out.extend(f"vp {c}" for c in sorted(g["hands"][side]) if CARDS[c].icon == side)
        return out or ["pass"]

    def has_legal(self, g: GameState, f: Frame, side: str) -> bool:
        if "only" in f:
            return bool(self.legal(g, f, side))
        return bool(side == f["side"])  # 'pass' when nothing else is legal

    def is_legal(self, g: GameState, f: Frame, side: str, cmd: str) -> bool:
        words = cmd.split(" ")
        if side == f["side"] and len(words) > 1 and words[0] in _CARD_USES and words[1].isdigit():
            card = int(words[1])  # one card's commands are enough
            held = card == f["only"] if "only" in f else card in g["hands"][side]
            return held and cmd in _Plays(g, side).commands(card)
        return cmd in self.legal(g, f, side)

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        verb = words[0]
        pop(g)
        if verb == "pass":
            log(g, f"{side.title()} has nothing to play and passes.")
            return
        if verb == "vp":
            _play_vp(g, side, int(words[1]))
            return
        if verb == "candidate":
            g["candidate"][side] = "exhausted"
            kind = words[1]
            value = effects.cp_value(g, side, 5, kind)
            log(g, f"{side.title()} plays the candidate card for {value} CP to {kind} (R6.9).")
            _pay_play_cost(g, side, kind)
            effects.on_play(g, side, kind)
            cp.start(g, side, kind, value, None)
            return
        card = int(words[1])
        _take_from_hand(g, side, card, f)
        g["rest"][side] += CARDS[card].rest  # R6.2
        if verb == "event":
            log(g, f"{side.title()} plays {board.card_label(card)} as an event (R6.3).")
            _pay_play_cost(g, side, "event")
            effects.on_play(g, side, "event")
            start_event(g, side, card, "played")
            return
        preempted = len(words) > 2
        if preempted:
            if not effects.free_preempt(g, side):
                g["momentum"][side] -= board.PREEMPT_COST
            log(g, f"{side.title()} preempts the event of {board.card_label(card)} (R6.8).")
        value = effects.cp_value(g, side, CARDS[card].cp, verb)
        log(g, f"{side.title()} plays {board.card_label(card)} for {value} CP to {verb} (R6.5).")
        _pay_play_cost(g, side, verb)
        effects.on_play(g, side, verb)
        push(g, {"step": "after_cp", "side": side, "card": card, "preempted": preempted})
        cp.start(g, side, verb, value, card)

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return (
            f"Turn {g['turn']}, activity phase {g['round']}: play a card from your hand as an "
            "event, or for its CP to campaign, advertise or position, or play your candidate card (R6.1). "
            "One line may carry the whole action: 'campaign 17: NY 2, PA 1', 'position 17: defense 2', "
            "'advertise 17: east 2, west 1' (where your successes go, declared before the draw)."
        )


def _take_from_hand(g: GameState, side: str, card: int, f: Frame) -> None:
    if "only" in f:
        g["vp"][side] = None
    else:
        g["hands"][side].remove(card)


def _pay_play_cost(g: GameState, side: str, kind: str) -> None:
    cost = effects.play_cost(g, side, kind)
    if cost:
        why, start = effects.play_cost_cause(g, side, kind), len(g["log"])
        board.lose_momentum(g, side, cost)
        for entry in g["log"][start:]:
            entry["why"] = why  # the card in force that asks it, not the play's rule


def _play_vp(g: GameState, side: str, discard: int) -> None:
    """R15.1: discard a card showing only the side's icon; play the VP card instead."""
    g["hands"][side].remove(discard)
    g["discard"].append(discard)
    vp = g["vp"][side]
    assert vp is not None, "R15.1 is offered only with the Vice Presidents option"
    log(
        g,
        f"{side.title()} discards {board.card_label(discard)} to play the Vice President card {board.card_label(vp)} (R15.1).",
    )
    push(g, {"step": "action", "side": side, "only": vp})


def triggerable(g: GameState, side: str, card: int) -> bool:
    """R6.7: the opponent may spend one momentum to trigger the event."""
    if not event_available(g, card):
        return False
    cost = board.TRIGGER_COST + effects.play_cost(g, side, "event")
    return can_spend_momentum(g, side, cost)


@register
class AfterCP(Step):
    """After a CP play: offer the trigger (R6.7), then discard the card (R6.5)."""

    name = "after_cp"
    auto = True

    def run(self, g: GameState, f: Frame) -> None:
        opp = other(f["side"])
        card = f["card"]
        if not f.get("asked") and not f["preempted"] and triggerable(g, opp, card):
            f["asked"] = True
            push(g, {"step": "trigger", "side": opp, "card": card})
            return
        g["discard"].append(card)
        pop(g)


@register
class Trigger(Step):
    """R6.7: trigger the event of the card the opponent just played for CP, or decline."""

    name = "trigger"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        return ["trigger", "decline"] if side == f["side"] else []

    def is_legal(self, g: GameState, f: Frame, side: str, cmd: str) -> bool:
        return side == f["side"] and cmd in ("trigger", "decline")

    def has_legal(self, g: GameState, f: Frame, side: str) -> bool:
        return bool(side == f["side"])

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        pop(g)
        if words[0] == "decline":
            log(g, f"{side.title()} declines to trigger {board.card_label(f['card'])}.")
            return
        pop(g)  # the after_cp frame: the card does not go to the discard pile
        g["momentum"][side] -= board.TRIGGER_COST
        _pay_play_cost(g, side, "event")
        log(g, f"{side.title()} spends 1 momentum to trigger {board.card_label(f['card'])} (R6.7).")
        start_event(g, side, f["card"], "triggered")

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return (
            f"Your opponent played {board.card_label(f['card'])} for CP. Spend 1 momentum to "
            "trigger its event as if you had played it, or decline (R6.7)."
        )
