"""Effect primitives and choice steps for card events #49-#97 (part 2).

Generic, reusable additions to the vocabulary of `engine.events.ops` and
`engine.events.ops_part1` (whose ``pick_state``, ``token_to``,
``take_from_discard``, ``ban_campaign`` and ``state_arg`` part 2 reuses):
conditions (``only_if``), side variables (``let_media_owner``), hand
manipulation (``replace_cards``, ``draw``), playing a discarded card's event
(``event_from_discard``, #58), support checks in a chosen state
(``checks_in``), points placed on or removed from media / issue spaces
(``gain_points``, ``remove_points``), a capped campaign action
(``campaign_action``) and a few small board effects. Two state rules are
added to ``pick_state``: ``"any"`` and ``"maryland_or_virginia"``.

Choice steps (persisted names): ``discard_replace``, ``discard_event``,
``space_points``.
"""

from __future__ import annotations

from engine import board
from engine.data import ISSUES, REGIONS, STATES, other
from engine.events import event_available, start_event
from engine.events.ops import place_support, primitive, resolve
from engine.events.ops_part1 import STATE_RULES, state_arg
from engine.flow import Frame, Step, pop, push, register
from engine.phases import cp as cp_phase
from engine.state import GameState, log

STATE_RULES["any"] = lambda g, side, st: True
STATE_RULES["maryland_or_virginia"] = lambda g, side, st: st in ("MD", "VA")  # #69

SKIP = 1_000_000  # an event pc past any script: the event's remaining ops are skipped

# -- conditions and variables -------------------------------------------------------------


@primitive
def only_if(g: GameState, f: Frame, who: str, issue: str | None = None, issues_led: int | None = None) -> None:
    """Go on with the event only if ``who`` leads ``issue`` / at least ``issues_led`` issues."""
    side = resolve(g, f, who)
    ok = side is not None
    if ok and issue is not None:
        ok = board.issue_leader(g, issue) == side
    if ok and issues_led is not None:
        ok = sum(1 for i in ISSUES if board.issue_leader(g, i) == side) >= issues_led
    if not ok:
        log(g, f"{board.card_label(f['card'])}: its condition is not met, so nothing (more) happens.")
        f["pc"] = SKIP


@primitive
def let_media_owner(g: GameState, f: Frame, var: str, region: str) -> None:
    """Store in ``var`` the side with media support in ``region`` (R1.3), or nobody."""
    side = board.owner(g["media"][region])
    f["vars"][var] = side
    if side is None:
        log(g, f"{board.card_label(f['card'])}: nobody has media support in the {region.title()}, so nothing happens.")


# -- small board effects ------------------------------------------------------------------


@primitive
def exhaust_candidate(g: GameState, f: Frame, who: str) -> None:
    """Turn the side's active candidate card to its exhausted side (R6.9)."""
    side = resolve(g, f, who)
    if side is None:
        return
    if g["candidate"][side] == "active":
        g["candidate"][side] = "exhausted"
        log(g, f"{side.title()}'s candidate card is exhausted (R6.9).")
    else:
        log(g, f"{side.title()}'s candidate card is already exhausted.")


@primitive
def match_momentum(g: GameState, f: Frame, who: str = "player") -> None:
    """The side draws level with the opponent's momentum if it has less."""
    side = resolve(g, f, who)
    if side is None:
        return
    gap = g["momentum"][other(side)] - g["momentum"][side]
    if gap > 0:
        board.gain_momentum(g, side, gap)
    else:
        log(g, f"{side.title()} does not have less momentum than {other(side).title()}: no gain.")


@primitive
def lose_issue_each(g: GameState, f: Frame, who: str, n: int = 1) -> None:
    """The side loses up to ``n`` cubes on every issue where it has any (R6.6)."""
    side = resolve(g, f, who)
    if side is None:
        return
    for issue in ISSUES:
        k = board.lose(g, "issues", issue, side, n)
        if k:
            log(g, f"{side.title()} loses {k} support on {board.issue_name(issue)}.")


@primitive
def leaders_lose(g: GameState, f: Frame, issues: list[str]) -> None:
    """#96/#97: each issue's leader loses 1 there; one side leading them all also loses 1 momentum."""
    leaders = [board.issue_leader(g, i) for i in issues]
    for issue, side in zip(issues, leaders, strict=True):
        if side is not None:
            board.lose(g, "issues", issue, side, 1)
            log(g, f"{side.title()} leads {board.issue_name(issue)} and loses 1 support there.")
    if leaders[0] is not None and all(s == leaders[0] for s in leaders):
        board.lose_momentum(g, leaders[0], 1)


@primitive
def draw(g: GameState, f: Frame, who: str, n: int) -> None:
    """The side draws ``n`` campaign cards (names logged only to it, R17.2)."""
    side = resolve(g, f, who)
    if side is not None:
        board.draw_cards(g, side, n)


@primitive
def place_support_empty(g: GameState, f: Frame, who: str, n: int, per: int | None = None) -> None:
    """Place up to ``n`` support only in states where neither side has any (#67)."""
    empty = [s for s in STATES if g["states"][s] == 0]
    if not empty:
        log(g, f"{board.card_label(f['card'])}: there is no state without support.")
        return
    place_support(g, f, who=who, n=n, per=per, states=empty)


@primitive
def checks_in(g: GameState, f: Frame, who: str, state: str, n: int) -> None:
    """``n`` support checks for state support (a ``var:`` state allowed), no R7.4 (R13.4)."""
    side, st = resolve(g, f, who), state_arg(f, state)
    if side is None or st is None:
        return
    wins = board.support_checks(g, side, n, STATES[st].name)
    board.gain(g, "states", st, side, wins)


@primitive
def campaign_action(g: GameState, f: Frame, who: str, cp: int, cap: int | None = None) -> None:
    """A campaigning action worth ``cp`` (R7), at most ``cap`` CP per state; no card, no trigger."""
    side = resolve(g, f, who)
    if side is None:
        return
    log(g, f"{side.title()} campaigns with {cp} CP" + (f", at most {cap} per state." if cap else "."))
    extra = {"cap": cap} if cap is not None else {}
    cp_phase.start(g, side, "campaign", cp, None, **extra)


# -- hand and discard pile ----------------------------------------------------------------


@primitive
def replace_cards(g: GameState, f: Frame, who: str) -> None:
    """The side throws away any hand cards; each is replaced from the deck when it is done."""
    side = resolve(g, f, who)
    if side is None or not g["hands"][side]:
        return
    push(g, {"step": "discard_replace", "side": side, "n": 0, "card": f["card"]})


@register
class DiscardReplace(Step):
    """``discard C`` one card at a time, ``done`` draws one replacement per discarded card."""

    name = "discard_replace"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        if side != f["side"]:
            return []
        return [*(f"discard {c}" for c in sorted(g["hands"][side])), "done"]

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        if words[0] == "discard":
            c = int(words[1])
            g["hands"][side].remove(c)
            g["discard"].append(c)
            f["n"] += 1
            log(g, f"{side.title()} discards {board.card_label(c)}.")
            if g["hands"][side]:
                return
        pop(g)
        if f["n"]:
            board.draw_cards(g, side, f["n"])
        else:
            log(g, f"{side.title()} keeps the whole hand.")

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return (f"{board.card_label(f['card'])}: 'discard C' throws away a hand card; 'done' draws a "
                f"replacement for each ({f['n']} so far).")


@primitive
def event_from_discard(g: GameState, f: Frame, who: str) -> None:
    """#58: the side may take a discarded card and resolve its event at once (no rest cubes)."""
    side = resolve(g, f, who)
    if side is None:
        return
    push(g, {"step": "discard_event", "side": side, "card": f["card"]})


@register
class DiscardEvent(Step):
    """``take C`` resolves the event of a discarded card as if the side played it (R6.3)."""

    name = "discard_event"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        if side != f["side"]:
            return []
        pool = sorted({c for c in g["discard"] if event_available(g, c)})
        return [*(f"take {c}" for c in pool), "done"]

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        pop(g)
        if words[0] == "done":
            log(g, f"{side.title()} takes no event from the discard pile.")
            return
        c = int(words[1])
        g["discard"].remove(c)
        log(g, f"{side.title()} takes {board.card_label(c)} from the discard pile and resolves its event (R6.3).")
        start_event(g, side, c, "discard")

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return (f"{board.card_label(f['card'])}: 'take C' resolves the event of a card in the discard "
                "pile as if you played it (no rest cubes), or 'done'.")


# -- points on media and issue spaces -----------------------------------------------------

_VERB = {"media": "media", "issues": "issue"}
_KEYS = {"media": REGIONS, "issues": ISSUES}


@primitive
def gain_points(g: GameState, f: Frame, who: str, space: str, n: int, optional: bool = False) -> None:
    """The side places ``n`` points on media boxes or issue tiles of its choice (R1.4, no checks)."""
    side = resolve(g, f, who)
    if side is None:
        return
    push(g, {"step": "space_points", "side": side, "target": side, "space": space, "mode": "gain",
             "left": n, "optional": optional, "card": f["card"]})


@primitive
def remove_points(
    g: GameState, f: Frame, who: str, target: str, space: str, n: int, optional: bool = True
) -> None:
    """The side removes up to (or exactly) ``n`` of ``target``'s media / issue cubes (R6.6)."""
    side, tgt = resolve(g, f, who), resolve(g, f, target)
    if side is None or tgt is None:
        return
    push(g, {"step": "space_points", "side": side, "target": tgt, "space": space, "mode": "lose",
             "left": n, "optional": optional, "card": f["card"]})


@register
class SpacePoints(Step):
    """Place or remove media (``media R``) / issue (``issue X``) points one at a time."""

    name = "space_points"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        if side != f["side"]:
            return []
        space, verb = f["space"], _VERB[f["space"]]
        keys = _KEYS[space]
        if f["mode"] == "lose":
            keys = tuple(k for k in keys if board.cubes_of(g[space][k], f["target"]) > 0)
        out = [f"{verb} {k}" for k in keys]
        return [*out, "done"] if f["optional"] and out else out

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        if words[0] == "done":
            pop(g)
            return
        space, key, tgt = f["space"], words[1], f["target"]
        where = f"the {key.title()} media box" if space == "media" else board.issue_name(key)
        if f["mode"] == "gain":
            board.gain(g, space, key, tgt, 1)
            log(g, f"{tgt.title()} gains 1 support in {where}.")
        else:
            board.lose(g, space, key, tgt, 1)
            log(g, f"{side.title()} removes 1 {tgt.title()} cube from {where}.")
        f["left"] -= 1
        if f["left"] <= 0 or not self.legal(g, f, side):
            pop(g)

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        where = "media boxes, 'media REGION'" if f["space"] == "media" else "issues, 'issue NAME'"
        need = "up to " if f["optional"] else ""
        if f["mode"] == "gain":
            what = f"place {need}{f['left']} more point(s) on {where} each"
        else:
            what = f"remove {need}{f['left']} more {f['target'].title()} cube(s) from {where} each"
        done = ", or 'done'" if f["optional"] else ""
        return f"{board.card_label(f['card'])}: {what}{done}."
