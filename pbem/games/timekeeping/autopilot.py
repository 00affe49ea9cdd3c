"""The autopilot: what the server plays for a side whose clock and grace ran out, and why.

It plays with the project's computer player, the ``heuristic`` kind of `bots` (the same
commands as `bots.choose_command`): rules of thumb from the side's own view only (R17), fast
enough to run inside the tick's transaction. Its randomness is `seed_for`: a hash of the
game's engine seed, the game, the position's sequence number and the side, so the same game
times out the same way every time while the bot's private seed is never the engine's own
(R17.3: the deck order stays hidden).

`play_for` plays the smallest unit that timed out: the question the side was asked, and the
steps that finish what its answer began (a card played for CP with its points, an event's
own questions, the two strategy cards of turns 7–8) — never the next question (after
``first kennedy``, Kennedy's action is his again, with a new clock period). Each move comes
with a one-line reason in a player's words, from the heuristic's own scores (`explain`).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

import engine
from engine.determinize import determinize, sampler
from engine.forced import deciding_step

__all__ = ["KIND", "MAX_COMMANDS", "Move", "choose_command", "explain", "play_for", "seed_for"]

KIND = "heuristic"  # the computer player that moves for an absent human
MAX_COMMANDS = 200  # one expiry plays one decision, never more than this many commands
# a step that asks a question of its own: the autopilot stops before it (a timed-out
# question is answered, the next one is the player's again)
NEW_QUESTIONS = frozenset(
    {
        "action",
        "choose_first",
        "award_choice",
        "issue_swap",
        "strategy",
        "trigger",
        "debate_pick",
        "debate_order",
        "debate_bonus",
        "election_card",
        "election_event",
    }
)
REPEATED = frozenset({"strategy"})  # one question with several answers (R11.1, turns 7-8)
REGION_NAMES = {
    "west": "the West",
    "midwest": "the Midwest",
    "south": "the South",
    "east": "the East",
}


@dataclass(frozen=True)
class Move:
    """One autopilot command and its reason, in a player's words."""

    command: str
    reason: str


def seed_for(game_seed: int, game_id: int, state: engine.GameState, side: str) -> int:
    """The bot's seed for ``side``'s decision at ``state``: deterministic, never the game's own."""
    text = f"autopilot:{game_seed}:{game_id}:{state['seq']}:{side}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def choose_command(state: engine.GameState, side: str, seed: int) -> str | None:
    """The autopilot's command for ``side`` now, or None when it has nothing to decide."""
    if side not in engine.active_sides(state):
        return None
    return explain(state, side, seed).command


def explain(state: engine.GameState, side: str, seed: int) -> Move:
    """The heuristic's command for ``side`` (as `bots.choose_command` picks it with ``seed``)
    and why, from its own scores of every legal command."""
    from bots.heuristic import Heuristic  # only when a clock ran out: ~0.1 s of imports

    g = determinize(state, side, sampler(seed))
    legal = engine.legal_commands(g, side)
    if len(legal) == 1:
        return Move(legal[0], "the only legal choice")
    ranked = Heuristic(random.Random(seed)).ranked(g, side, legal)
    (best, cmd), (second, alt) = ranked[0], ranked[1]
    if best - second < 0.05:  # the scores tell them apart by the noise only
        return Move(cmd, f"the computer scores it and '{alt}' the same ({best:+.1f}): a toss-up")
    why = _why(state, side, deciding_step(state, side) or "", cmd)
    return Move(cmd, f"{why} (score {best:+.1f}; next best '{alt}' {second:+.1f})")


def _why(state: engine.GameState, side: str, step: str, cmd: str) -> str:
    """What the heuristic weighed for ``cmd`` at ``step``, in words (bots/heuristic.py)."""
    w = cmd.split()
    verb = w[0]
    name = side.title()
    if step == "action":
        if verb == "event":
            return "its event is worth more to you than any other play"
        if verb == "candidate":
            return f"the candidate card's 5 CP to {w[1]} are the best use now"
        if verb == "pass":
            return "nothing else could be played"
        return f"its CP used to {verb} gain the most electoral votes of any play"
    if verb in ("support", "check") and len(w) > 1 and w[1] in engine.STATES:
        return f"{engine.STATES[w[1]].name} gains the most electoral votes per CP, travel counted"
    if verb == "media" and len(w) > 1:
        return f"media in {REGION_NAMES.get(w[1], w[1])} is worth the most"
    if verb == "issue":
        return f"{' '.join(w[1:]).replace('_', ' ')} is the issue worth most to lead"
    if verb == "done":
        return "no point left is worth spending"
    if verb == "travel":
        return "the best states to campaign in lie there"
    if step == "strategy":
        if state["turn"] < 6:
            return "the strongest card for the debates (its CP and icon)"
        return "its three Election Day checks are worth the most"
    if step == "debate_pick":
        return "the most CP on an issue still open, on your side"
    return f"it leaves {name} best placed, counting likely electoral votes one step ahead"


def play_for(
    state: engine.GameState, side: str, game_seed: int, game_id: int
) -> tuple[engine.GameState, list[Move]]:
    """Play the question ``side`` timed out on and what its answer began; returns (new
    state, the moves with their reasons). Never the next question: see the module docstring."""
    g = engine.copy_state(state)
    played: list[Move] = []
    first = deciding_step(g, side)
    while len(played) < MAX_COMMANDS:
        step = deciding_step(g, side)
        if step is None:
            break
        if played and step in NEW_QUESTIONS and not (step == first and step in REPEATED):
            break
        move = explain(g, side, seed_for(game_seed, game_id, g, side))
        engine.apply_in_place(g, side, move.command)
        played.append(move)
    return g, played
