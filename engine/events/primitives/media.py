"""Event primitives on media support (R1.3, R8) and points the player places or removes in
media regions or on issues one at a time (choice step ``space_points``)."""

from __future__ import annotations

from engine import board
from engine.data import ISSUES, REGIONS, counted, issue_name
from engine.events.script import (
    ask,
    primitive,
    resolve,
)
from engine.flow import Frame, Step, pop, push, register
from engine.state import GameState, log


@primitive
def media(g: GameState, f: Frame, who: str, region: str, n: int = 1) -> None:
    side = resolve(g, f, who)
    if side is None:
        return
    board.gain(g, "media", region, side, n)
    log(g, f"{side.title()} gains {n} media support in the {region.title()}.")


_VERB = {"media": "media", "issues": "issue"}


_KEYS = {"media": REGIONS, "issues": ISSUES}


@primitive
def gain_points(
    g: GameState, f: Frame, who: str, space: str, n: int, optional: bool = False
) -> None:
    """The side places ``n`` points on media boxes or issue tiles of its choice (R1.4, no checks)."""
    side = resolve(g, f, who)
    if side is not None:
        ask(
            g,
            f,
            side,
            "space_points",
            target=side,
            space=space,
            mode="gain",
            left=n,
            optional=optional,
        )


@primitive
def remove_points(
    g: GameState, f: Frame, who: str, target: str, space: str, n: int, optional: bool = True
) -> None:
    """The side removes up to (or exactly) ``n`` of ``target``'s media / issue cubes (R6.6)."""
    side, tgt = resolve(g, f, who), resolve(g, f, target)
    if side is None or tgt is None:
        return
    push(
        g,
        {
            "step": "space_points",
            "side": side,
            "target": tgt,
            "space": space,
            "mode": "lose",
            "left": n,
            "optional": optional,
            "card": f["card"],
        },
    )


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
            keys = tuple(
                k for k in keys if board.cubes_of(board.track(g, space)[k], f["target"]) > 0
            )
        out = [f"{verb} {k}" for k in keys]
        return [*out, "done"] if f["optional"] and out else out

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        if words[0] == "done":
            pop(g)
            return
        space, key, tgt = f["space"], words[1], f["target"]
        if f["mode"] == "gain":
            board.gain(g, space, key, tgt, 1)
            what = (
                f"media support in the {key.title()}"
                if space == "media"
                else f"support on {issue_name(key)}"
            )
            log(g, f"{tgt.title()} gains 1 {what}.")
        else:
            board.lose(g, space, key, tgt, 1)
            where = f"the {key.title()} media box" if space == "media" else issue_name(key)
            cube = "1 of his own cubes" if tgt == side else f"1 {tgt.title()} cube"
            log(g, f"{side.title()} removes {cube} from {where}.")
        f["left"] -= 1
        if f["left"] <= 0 or not self.legal(g, f, side):
            pop(g)

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        where = "media boxes, 'media REGION'" if f["space"] == "media" else "issues, 'issue NAME'"
        need = "up to " if f["optional"] else ""
        if f["mode"] == "gain":
            what = f"place {need}{counted(f['left'], 'more point')} on {where} each"
        else:
            cubes = counted(f["left"], f"more {f['target'].title()} cube")
            what = f"remove {need}{cubes} from {where} each"
        done = ", or 'done'" if f["optional"] else ""
        return f"{board.card_label(f['card'])}: {what}{done}."
