"""Expiry: what happens when a clock and its grace are out — forfeit, claim or autopilot.

`expire` applies the game's expiry policy to the late side; `autopilot` answers the late
side's timed-out question with the computer player (`pbem.games.timekeeping.autopilot`),
records the moves, starts a new clock period if the side is asked again, and reports to both
with a reason for each move.
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

import engine
from engine.data import other
from pbem.clocks import model
from pbem.clocks.control import fmt_duration
from pbem.clocks.model import ClockState, Due
from pbem.config import Settings
from pbem.games.bot_turns import play_until_asked
from pbem.games.bots import public_words
from pbem.games.fairplay.export import engine_seed_of
from pbem.games.mailing import queue_mail
from pbem.games.timekeeping.autopilot import KIND, play_for
from pbem.games.timekeeping.moves import bot_sides, end_game
from pbem.games.timekeeping.records import notify, record_event, store
from pbem.outbox.queue import refresh_key
from pbem.store import move_log
from pbem.store.models import Game, Seat
from pbem.store.move_log import AUTOPILOT, NewMove

__all__ = ["autopilot", "expire"]

SIDES = model.SIDES
SCORES = " (a score is the computer's estimate of what a choice gains, in electoral votes)"


def expire(
    s: Session,
    settings: Settings,
    game: Game,
    c: ClockState,
    d: Due,
    state: engine.GameState,
    now: datetime,
    seats: dict[str, Seat],
    key: str,
) -> None:
    control = model.control_of(c)
    late, opp = d.side, other(d.side)
    if control.expiry == "forfeit":
        end_game(
            s,
            settings,
            game,
            state,
            winner=opp,
            reason="timeout",
            detail=f"{late.title()} ran out of time; {opp.title()} wins",
            now=now,
        )
        return
    if control.expiry == "claim":
        ev = record_event(
            s,
            game,
            late,
            "claim_offered",
            f"{late.title()} out of time and grace; {opp.title()} may claim the win",
            now,
            key="expire:" + key,
        )
        notify(
            s,
            settings,
            game,
            state,
            opp,
            ev,
            now,
            seats=seats,
            subject=f"{late.title()} is out of time: you may claim the win",
            lines=[
                f"{late.title()}'s clock and grace have run out. Reply with the line "
                "'claim' to win the game on time, or do nothing and wait: the claim stays "
                f"open until {late.title()} moves."
            ],
            reply=("claim", "win the game on time"),
        )
        notify(
            s,
            settings,
            game,
            state,
            late,
            ev,
            now,
            seats=seats,
            subject="Out of time: your opponent may claim the win",
            lines=[
                f"Your clock and grace have run out: {opp.title()} may now claim the win "
                f"at any moment. Move now to play on: {engine.decision(state, late)}"
            ],
        )
        return
    autopilot(s, settings, game, c, late, state, now, seats, key)


def autopilot(
    s: Session,
    settings: Settings,
    game: Game,
    c: ClockState,
    side: str,
    state: engine.GameState,
    now: datetime,
    seats: dict[str, Seat],
    key: str,
) -> None:
    """Answer ``side``'s timed-out question with the computer player, record the moves,
    report to both (each move with its reason).

    A computer-played opponent answers at once, and the orders of the side that timed out
    answer what they can after it (`pbem.games.bot_turns`), as after a mail.
    """
    assert game.id is not None
    after, moves = play_for(state, side, engine_seed_of(s, game), game.id)
    played = [m.command for m in moves]
    move_log.append(s, game.id, (NewMove(side, cmd, AUTOPILOT) for cmd in played), now)
    detail = f"autopilot ({KIND} player) for {side.title()}: " + (
        "; ".join(played) or "nothing legal"
    )
    ev = record_event(s, game, side, "autopilot", detail, now, key="expire:" + key)
    t = now.timestamp()
    mid = engine.active_sides(after) - {side}  # the timed-out decision ends here, answered
    s.flush()
    answered = play_until_asked(s, settings, game, after, seats, now, think_here=True)
    replies = [m.command for m in answered.bot_moves]
    # what the opponent and observers read names no card they cannot see (R17)
    replies = [public_words(cmd, after) for cmd in replies]
    model.handover(c, engine.active_sides(state), mid, side, t, autopilot=True)
    model.handover(c, mid, engine.active_sides(after), None, t)  # a new period if still asked
    game.snapshot = engine.to_json(after)
    game.version += 1
    game.updated_at = now
    if engine.result(after) is not None:
        game.status = "over"
        model.stop_all(c, t)
    else:
        model.sync(c, bot_sides(seats), engine.active_sides(after), t)
    store(game, c)
    for seat in seats.values():
        refresh_key(seat, after)
    reasons = [f"- {m.command}: {m.reason}." for m in moves] or ["- nothing was legal."]
    told = [public_words(line, after) for line in reasons]  # the opponent's copy
    grace = (
        f" and {fmt_duration(model.control_of(c).grace)} of grace"
        if model.control_of(c).grace
        else ""
    )
    still = side in engine.active_sides(after)
    for target in SIDES:
        mine = target == side
        if mine:
            lines = [
                f"Your clock{grace} ran out, so the server's computer player answered the "
                "question you were asked (this game's expiry policy is autopilot). It played, "
                f"with its reasons{SCORES}:",
                *reasons,
                (
                    "The next question is yours again, with only the increment of time for "
                    "it: answer it soon."
                    if still
                    else "Your next decisions get only the increment of time each, so answer "
                    "soon: any move you send yourself plays on as usual."
                ),
            ]
        else:
            lines = [
                f"{side.title()}'s clock{grace} ran out, so the server's computer player "
                "answered the question they were asked (this game's expiry policy is "
                f"autopilot). It played, with its reasons{SCORES}:",
                *told,
            ]
        if replies:
            lines.append("The computer opponent answered: " + "; ".join(replies) + ".")
        if game.status == "over":
            queue_mail(
                s,
                settings,
                kind="game_over",
                game=game,
                seat=seats[target],
                state=after,
                cause=f"ev{ev.id}",
                now=now,
                seats=seats,
            )
        else:
            notify(
                s,
                settings,
                game,
                after,
                target,
                ev,
                now,
                seats=seats,
                full=True,
                subject=(
                    "Out of time: the computer played for you"
                    if mine
                    else f"{side.title()} ran out of time: the computer played for them"
                ),
                lines=lines,
            )
