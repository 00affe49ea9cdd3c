"""Event primitives on the issue track and issue support (R1.10, R9).

Choice steps: ``order_issues`` (rearrange the track), ``choose_issue``.
"""

from __future__ import annotations

from itertools import permutations

from engine import board
from engine.data import ISSUES, issue_name
from engine.events.script import (
    ask,
    event_label,
    primitive,
    resolve,
)
from engine.flow import Frame, Step, pop, register
from engine.state import GameState, log


@primitive
def issue_up(g: GameState, f: Frame, issue: str, n: int = 1) -> None:
    board.move_issue_up(g, issue, n)


@primitive
def issue_support(g: GameState, f: Frame, who: str, issue: str, n: int) -> None:
    """Gain ``n`` issue support (R1.4)."""
    side = resolve(g, f, who)
    if side is None:
        return
    board.gain(g, "issues", issue, side, n)
    log(g, f"{side.title()} gains {n} support on {issue_name(issue)}.")


@primitive
def lose_issue_support(g: GameState, f: Frame, who: str, issue: str, n: int) -> None:
    """Lose up to ``n`` own cubes on an issue (R6.6)."""
    side = resolve(g, f, who)
    if side is not None:
        board.lose_logged(g, "issues", issue, side, n)


@primitive
def lose_issue_each(g: GameState, f: Frame, who: str, n: int = 1) -> None:
    """The side loses up to ``n`` cubes on every issue where it has any (R6.6)."""
    side = resolve(g, f, who)
    if side is None:
        return
    for issue in ISSUES:
        k = board.lose(g, "issues", issue, side, n)
        if k:
            log(g, f"{side.title()} loses {k} support on {issue_name(issue)}.")


@primitive
def leaders_lose(g: GameState, f: Frame, issues: list[str]) -> None:
    """#96/#97: each issue's leader loses 1 there; one side leading them all also loses 1 momentum."""
    leaders = [board.issue_leader(g, i) for i in issues]
    for issue, side in zip(issues, leaders, strict=True):
        if side is not None:
            board.lose(g, "issues", issue, side, 1)
            log(g, f"{side.title()} leads {issue_name(issue)} and loses 1 support there.")
    if leaders[0] is not None and all(s == leaders[0] for s in leaders):
        board.lose_momentum(g, leaders[0], 1)


@primitive
def rearrange_issues(g: GameState, f: Frame, who: str = "player") -> None:
    """The side puts the three issues in any order on the issue track (R1.10)."""
    ask(g, f, who, "order_issues")


@register
class OrderIssues(Step):
    """Rearrange the issue track: ``order FIRST SECOND THIRD``."""

    name = "order_issues"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        if side != f["side"]:
            return []
        return ["order " + " ".join(p) for p in permutations(g["issue_order"])]

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        pop(g)
        g["issue_order"] = list(words[1:4])
        shown = ", ".join(issue_name(i) for i in g["issue_order"])
        log(g, f"{side.title()} rearranges the issue track: {shown}.")

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return f"{event_label(f)}: put the issues in any order, 1st to 3rd, e.g. 'order economy defense civil_rights'."


@primitive
def issue_choice(g: GameState, f: Frame, who: str, n: int) -> None:
    """The side gains ``n`` issue support, all on one issue of its choice (R1.4)."""
    ask(g, f, who, "choose_issue", n=n)


@register
class ChooseIssue(Step):
    """Choose the issue that receives all the event's issue support: ``issue NAME``."""

    name = "choose_issue"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        return [f"issue {i}" for i in ISSUES] if side == f["side"] else []

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        pop(g)
        board.gain(g, "issues", words[1], side, f["n"])
        log(g, f"{side.title()} gains {f['n']} support on {issue_name(words[1])}.")

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return f"{event_label(f)}: choose the issue for all {f['n']} issue support, 'issue NAME'."
