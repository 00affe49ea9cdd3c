"""The flow: a stack of named steps stored in the game state.

Each frame is a dict ``{"step": NAME, ...}``. A step is either *automatic*
(``run`` is called whenever its frame is on top, and it pushes, pops or
rewrites frames) or a *decision* (``sides``/``legal``/``act``/``prompt``).
Interrupts such as a trigger decision are frames pushed on top, never
recursion. Step names are persisted in saved games: never rename one without
a migration (see docs/FLOW.md).
"""

from __future__ import annotations

from typing import ClassVar

from engine.schema import Frame as Frame  # re-exported for the steps
from engine.state import GameState as GameState


class Step:
    """Base class of every step; subclasses register with `register`."""

    name: ClassVar[str] = ""
    auto: ClassVar[bool] = False
    # set by `register`: the step keeps the default `sides` (only ``f["side"]`` decides)
    one_side: ClassVar[bool] = True

    # automatic steps
    def run(self, g: GameState, f: Frame) -> None:
        raise NotImplementedError(self.name)

    # decision steps
    def sides(self, g: GameState, f: Frame) -> list[str]:
        return [f["side"]]

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        raise NotImplementedError(self.name)

    def has_legal(self, g: GameState, f: Frame, side: str) -> bool:
        """Whether ``legal`` is non-empty; steps override it when that is cheaper to know."""
        return bool(self.legal(g, f, side))

    def is_legal(self, g: GameState, f: Frame, side: str, cmd: str) -> bool:
        """Whether ``cmd`` is in ``legal`` (exact text); steps override it when that is cheaper to know.

        An override may answer False for a legal command (the caller then takes the slow
        path through the full list), never True for one that ``legal`` does not list.
        """
        return cmd in self.legal(g, f, side)

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        raise NotImplementedError(self.name)

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return self.name.replace("_", " ")

    def ahead_example(self, g: GameState, f: Frame, side: str) -> str | None:
        """A line that answers this decision and the side's next ones ahead, when the step
        offers one (its prompt explains it); reports show it among the examples."""
        return None

    def choices_equivalent(self, g: GameState, f: Frame, side: str) -> bool:
        """True when every legal command leads to the same position (they differ only in an
        order no rule reads): one decision, however many commands list it."""
        return False

    def skip(self, g: GameState, f: Frame) -> None:
        """Called when no side has a legal command: by default the step ends."""
        pop(g)


STEPS: dict[str, Step] = {}


def register(cls: type[Step]) -> type[Step]:
    """Class decorator: add a step to the registry under its persisted name."""
    if cls.name in STEPS:
        raise ValueError(f"step {cls.name!r} registered twice")
    cls.one_side = cls.sides is Step.sides
    STEPS[cls.name] = cls()
    return cls


def top(g: GameState) -> Frame | None:
    stack: list[Frame] = g["stack"]
    return stack[-1] if stack else None


def push(g: GameState, frame: Frame) -> Frame:
    g["stack"].append(frame)
    return frame


def pop(g: GameState) -> Frame:
    frame: Frame = g["stack"].pop()
    return frame


def replace(g: GameState, frame: Frame) -> Frame:
    g["stack"][-1] = frame
    return frame


def step_of(frame: Frame) -> Step:
    return STEPS[frame["step"]]


def deciding_sides(g: GameState) -> list[str]:
    stack: list[Frame] = g["stack"]
    if not stack:
        return []
    f = stack[-1]
    step = STEPS[f["step"]]
    if step.auto:
        return []
    if step.one_side:
        side: str = f["side"]
        return [side] if step.has_legal(g, f, side) else []
    return [s for s in step.sides(g, f) if step.has_legal(g, f, s)]


def advance(g: GameState) -> None:
    """Run automatic steps until a side must decide or the game is over."""
    for _ in range(100_000):
        stack: list[Frame] = g["stack"]
        if not stack:
            return
        f = stack[-1]
        step = STEPS[f["step"]]
        if step.auto:
            step.run(g, f)
            continue
        if step.one_side:
            if step.has_legal(g, f, f["side"]):
                return
            step.skip(g, f)
            continue
        for s in step.sides(g, f):
            if step.has_legal(g, f, s):
                return
        step.skip(g, f)
    raise RuntimeError("flow did not reach a decision (runaway guard)")
