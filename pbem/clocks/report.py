"""What mails show of the clocks: both clocks, the time control, vacation left, how a game ended.

`clock_context` reads the game (its clock JSON, ``ended``/``winner``: `Game`) into
the render context; `clock_model` turns that into the template model keys
``clock``, ``ending`` and ``notice`` (always present, None when there is
nothing to show), so every report can include ``_clock`` in one line.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any, Protocol

from pbem.clocks import model
from pbem.clocks.control import fmt_duration

__all__ = ["clock_context", "clock_model", "ending_of"]

WHY = {"timeout": "on time", "resigned": "by resignation"}


class Game(Protocol):
    """What the clocks read of a game (the row `pbem.store.models.Game`): the clock's JSON, and
    how a game ended outside the rules."""

    clock: str | None
    ended: str  # "" | timeout | resigned
    winner: str


def ending_of(game: Game) -> dict[str, str] | None:
    """A game ended outside the rules: who won and why (None otherwise)."""
    if not game.ended or not game.winner:
        return None
    winner = game.winner
    loser = "nixon" if winner == "kennedy" else "kennedy"
    text = {
        "timeout": f"{loser.title()} ran out of time: {winner.title()} wins the game on time.",
        "resigned": f"{loser.title()} resigned: {winner.title()} wins the game.",
    }.get(game.ended, f"{winner.title()} wins ({game.ended}).")
    return {
        "reason": game.ended,
        "why": WHY.get(game.ended, game.ended),
        "winner": winner.title(),
        "text": text,
    }


def _clock(game: Game, side: str, now: float) -> dict[str, Any] | None:
    if not game.clock:
        return None
    c: model.ClockState = json.loads(game.clock)
    control = model.control_of(c)
    if "sides" not in c:  # chosen, waiting for the game to start
        return {
            "enabled": control.enabled,
            "control": control.describe(),
            "spec": control.spec,
            "rows": [],
            "paused_until": "",
            "vacation_left": "",
        }
    rows = []
    for s in model.SIDES:
        sc = c["sides"][s]
        remaining = model.left(c, s, now)
        until = sc["vac_until"]
        vacation = (
            model.fmt_time(until, model.tz_of(c, side)) if until is not None and until > now else ""
        )
        state = (
            "on vacation until " + vacation
            if vacation
            else "running"
            if sc["since"] is not None
            else "stopped"
        )
        if s in model.robots(c):
            rows.append(
                {
                    "side": s.title(),
                    "mine": False,
                    "running": False,
                    "robot": True,
                    "over": False,
                    "left": "",
                    "state": "computer player: no clock",
                    "vacation": "",
                }
            )
            continue
        rows.append(
            {
                "side": s.title(),
                "mine": s == side,
                "running": sc["since"] is not None,
                "robot": False,
                "over": remaining <= 0,
                "left": fmt_duration(remaining)
                if remaining > 0
                else f"out of time by {fmt_duration(-remaining)}",
                "state": state,
                "vacation": vacation,
            }
        )
    pause = model.paused_until(c)
    return {
        "enabled": control.enabled,
        "control": control.describe(),
        "spec": control.spec,
        "rows": rows if control.enabled else [],
        "paused_until": (
            model.fmt_time(pause, model.tz_of(c, side)) if pause is not None and pause > now else ""
        ),
        "vacation_left": (
            fmt_duration(model.vacation_left(c, side, now))
            if control.enabled and control.vacation
            else ""
        ),
    }


def clock_context(game: Game, side: str, now: datetime | None = None) -> dict[str, Any]:
    """The render-context keys ``clock`` and ``ending`` for ``side``'s mail."""
    t = (now or datetime.now(UTC)).timestamp()  # `pbem.store.models.utcnow`
    return {"clock": _clock(game, side, t), "ending": ending_of(game)}


def clock_model(m: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """Template keys from the context; a game ended by time or resignation is over for the header."""
    notice = ctx.get("notice")
    if notice is None and m.get("kind") == "notice":
        notice = {"subject": "Notice", "lines": [], "full": False}
    out: dict[str, Any] = {"clock": ctx.get("clock"), "ending": ctx.get("ending"), "notice": notice}
    if out["ending"] and m.get("view"):
        out.update(over=True, my_move=False)
    return out
