"""Committed games and invitations: create, accept (with entropy), decline, expire, start.

A committed game draws a 32-byte secret seed (`secrets`) when it is created and publishes only
its commitment. With invitations (the default of `pbem new`) the game waits in status
``invited`` until both players reply ``accept [any words]``; the words (or, without words,
the acceptance's Message-ID) are that player's entropy. Only then is the engine seed derived
(HMAC of the seed over both entropies, `pbem.games.fairplay.verify.engine_seed`) and the game set
up, so neither the server nor one player alone can pick the deal. ``decline`` cancels the
game and tells the other player; an invitation left unanswered expires
(``PBEM_INVITATION_HOURS``, default one week). A computer-played seat (``bot:…``) is not
invited and adds no words: the game starts when the human accepts, whose words alone are mixed
into the committed seed, so the final verification holds as in any game.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

import engine
from engine.data import other
from pbem import keys
from pbem.clocks.control import TimeControl
from pbem.config import Settings
from pbem.games.bots import is_bot, play_bots, store
from pbem.games.fairplay.mails import Note, note_to, queue_note
from pbem.games.fairplay.verify import commitment, engine_seed, normalise_entropy
from pbem.games.mailing import queue_mail
from pbem.games.notify import start_orders
from pbem.games.timekeeping.moves import sync
from pbem.games.timekeeping.records import ensure_clock
from pbem.outbox.queue import current_key, refresh_key, seats_of
from pbem.reports.model import EDITION_LABEL
from pbem.store.db import transaction
from pbem.store.models import Commitment, Game, Invitation, Seat

__all__ = [
    "InvitationRow",
    "accept",
    "decline",
    "invitations",
    "new_committed_game",
    "open_game",
]

MAX_ENTROPY = 300  # characters of a player's words kept as entropy


def new_committed_game(
    db: Engine,
    settings: Settings,
    *,
    emails: dict[str, str],
    edition: str,
    options: list[str],
    invite: bool,
    now: datetime,
    expires_in: timedelta | None = None,
    clock: str | None = None,
) -> int:
    """Create a game with a committed seed; invite both players, or start it at once.

    ``clock``: the game's time control as `pbem.games.timekeeping.records.pending_clock` writes it, so
    the invitations and the welcome show it and it starts with the game.
    """
    server_seed = secrets.token_hex(32)
    with transaction(db) as s:
        game = Game(
            seed=0,
            edition=edition,
            options=",".join(options),
            snapshot="",
            clock=clock,
            status="invited" if invite else "active",
            created_at=now,
            updated_at=now,
        )
        s.add(game)
        s.flush()
        assert game.id is not None
        expiry = expires_in or timedelta(hours=settings.invitation_hours)
        commit = Commitment(
            game_id=game.id,
            server_seed=server_seed,
            commitment=commitment(game.id, edition, options, server_seed),
            expires_at=now + expiry if invite else None,
        )
        s.add(commit)
        for side, email in emails.items():
            s.add(Seat(game_id=game.id, side=side, email=email, key_salt=secrets.token_hex(8)))
            if invite and not is_bot(email):  # a computer player is never invited
                s.add(Invitation(game_id=game.id, side=side))
        s.flush()
        seats = seats_of(s, game.id)
        if invite:
            for seat in seats.values():
                if not is_bot(seat.email):
                    _queue_invitation(s, settings, game, commit, seat, seats, now)
        else:
            _start(s, settings, game, commit, seats, now, in_reply_to={})
        return game.id


def _start(
    s: Session,
    settings: Settings,
    game: Game,
    commit: Commitment,
    seats: dict[str, Seat],
    now: datetime,
    in_reply_to: dict[str, str],
) -> None:
    """Derive the engine seed from the seed and both entropies, set the game up, welcome both."""
    assert game.id is not None
    entropy = {"kennedy": commit.entropy_kennedy, "nixon": commit.entropy_nixon}
    seed = engine_seed(commit.server_seed, game.id, entropy)
    state = engine.new_game(seed, edition=game.edition, options=game.option_list)
    commit.engine_seed = str(seed)
    game.snapshot, game.status, game.updated_at = engine.to_json(state), "active", now

    ensure_clock(game, settings, state, now.timestamp())
    s.add(commit)
    s.add(game)
    for seat in seats.values():
        refresh_key(seat, state)
    s.flush()
    open_game(s, settings, game, state, seats, now, in_reply_to)


def open_game(
    s: Session,
    settings: Settings,
    game: Game,
    state: engine.GameState,
    seats: dict[str, Seat],
    now: datetime,
    in_reply_to: dict[str, str] | None = None,
) -> None:
    """A set-up game opens: a bot seat to decide first moves now (so the welcome shows the
    human its move, not "waiting for Nixon"), the clocks and orders start, both are welcomed."""
    if play_bots(s, settings, game, state, seats, now):
        store(game, state, now)
        for seat in seats.values():
            refresh_key(seat, state)
    sync(s, game, state, now)  # no clock runs for a bot seat (pbem.clocks)
    start_orders(s, seats, state)  # notify preferences, summaries from the opening
    for side, seat in sorted(seats.items()):
        queue_mail(
            s,
            settings,
            kind="welcome",
            game=game,
            seat=seat,
            state=state,
            cause="v0",
            now=now,
            seats=seats,
            in_reply_to=(in_reply_to or {}).get(side),
        )


def _facts(game: Game, commit: Commitment, seats: dict[str, Seat]) -> list[tuple[str, str]]:
    return [
        ("Game", f"#{game.id}"),
        (
            "Rules",
            EDITION_LABEL.get(game.edition, game.edition)
            + (f", options: {', '.join(game.option_list)}" if game.option_list else ", no options"),
        ),
        ("Kennedy", seats["kennedy"].email),
        ("Nixon", seats["nixon"].email),
        *_clock_fact(game),
        ("Commitment (SHA-256)", commit.commitment),
    ]


def _clock_fact(game: Game) -> list[tuple[str, str]]:
    """The time control the players accept (pbem.clocks), when the game has one."""
    c = json.loads(game.clock) if game.clock else None
    return [("Time control", TimeControl.from_dict(c["control"]).describe())] if c else []


def _queue_invitation(
    s: Session,
    settings: Settings,
    game: Game,
    commit: Commitment,
    seat: Seat,
    seats: dict[str, Seat],
    now: datetime,
) -> None:
    opp = seats[other(seat.side)]
    expires = commit.expires_at or now
    bot = is_bot(opp.email)
    against = f"the computer ({opp.email})" if bot else opp.email
    note = Note(
        game_id=game.id or 0,
        subject=f"[1960 #{game.id}] Invitation: play {seat.side.title()} against {against}",
        title="You are invited to a game",
        paragraphs=[
            f"You are invited to play {seat.side.title()} in a game of 1960: The Making of the "
            "President by email, "
            + (
                f"against {against}, which plays {opp.side.title()}. The game starts when "
                "you accept."
                if bot
                else f"against {against} ({opp.side.title()}). The game starts when both of "
                "you have accepted."
            ),
            "Fair play: the server has already drawn the game's secret seed and shows you its "
            "commitment below. When you accept, add any words you like after 'accept': they "
            + (
                "are mixed into the seed (the computer player adds none), so the server cannot "
                "choose the deal."
                if bot
                else "are mixed into the seed together with your opponent's words, so neither "
                "the server nor either player can choose the deal."
            )
            + " At the end you get the seed, the words and every move, and can recompute every "
            "card and cube drawn (`pbem verify`, docs/RANDOMNESS.md). Keep this mail to compare "
            "the commitment.",
            f"The invitation expires on {expires:%Y-%m-%d %H:%M} UTC.",
        ],
        facts=_facts(game, commit, seats),
        commands=[
            (
                "accept blue suede shoes 1960",
                "accept; the words after 'accept' are your "
                "entropy (without words, the Message-ID of your reply is used)",
            ),
            (
                "decline",
                "decline the invitation: the game is cancelled"
                + ("" if bot else " and your opponent told"),
            ),
        ],
        footer="Reply to this mail: its Reply-To address carries your key for this game.",
    )
    key = current_key(settings, seat)
    mid = keys.message_id(settings.secret, settings.address, key, "invite")
    queue_note(
        s,
        note,
        kind="invitation",
        side=seat.side,
        recipient=seat.email,
        message_id=mid,
        reply_to=keys.reply_address(settings.address, key),
        now=now,
    )
    seat.thread_root = mid
    s.add(seat)


@dataclass(frozen=True)
class Answer:
    """What became of an invitation reply (for the pipeline's record)."""

    outcome: str  # accepted | started | declined | repeated | closed
    detail: str


def accept(
    s: Session,
    settings: Settings,
    game: Game,
    seat: Seat,
    words: str,
    *,
    message_id: str,
    cause: str,
    now: datetime,
) -> Answer:
    """Record ``seat``'s acceptance with its entropy; start the game when both have accepted."""
    assert game.id is not None
    commit = s.get(Commitment, game.id)
    invs = {i.side: i for i in s.exec(select(Invitation).where(Invitation.game_id == game.id))}
    assert commit is not None and seat.side in invs
    mine, theirs = invs[seat.side], invs.get(other(seat.side))  # None: a computer player
    seats = seats_of(s, game.id)
    if mine.status == "accepted":
        note_to(
            s,
            settings,
            game,
            seat,
            cause=cause,
            subject="You have already accepted",
            title="Already accepted",
            paragraphs=[
                "You accepted this invitation before; your first acceptance and its "
                "words stand (a second one cannot change the deal).",
                f"Waiting for {other(seat.side).title()} to accept.",
            ],
            now=now,
            in_reply_to=message_id,
        )
        return Answer("repeated", "accept again: the first acceptance stands")
    entropy = normalise_entropy(words)[:MAX_ENTROPY] or f"message-id:{message_id}"
    setattr(commit, f"entropy_{seat.side}", entropy)
    mine.status, mine.answered_at = "accepted", now
    s.add(commit)
    s.add(mine)
    if theirs is None or theirs.status == "accepted":
        _start(s, settings, game, commit, seats, now, in_reply_to={seat.side: message_id})
        return Answer("started", "accepted: both players in, the game starts")
    note_to(
        s,
        settings,
        game,
        seat,
        cause=cause,
        subject="Accepted — waiting for your opponent",
        title="Accepted",
        paragraphs=[
            "Thank you: your acceptance is recorded. Your entropy (revealed to both "
            "players with the seed at the end of the game):",
            f"\u201c{entropy}\u201d",
            f"The game starts as soon as {other(seat.side).title()} "
            f"({seats[other(seat.side)].email}) accepts; you will get the first report then.",
        ],
        facts=[("Commitment (SHA-256)", commit.commitment)],
        now=now,
        in_reply_to=message_id,
    )
    return Answer("accepted", f"accepted, waiting for {other(seat.side)}")


def decline(
    s: Session,
    settings: Settings,
    game: Game,
    seat: Seat,
    *,
    message_id: str,
    cause: str,
    now: datetime,
) -> Answer:
    """Cancel the game at ``seat``'s request and tell both players."""
    assert game.id is not None
    seats = seats_of(s, game.id)
    for inv in s.exec(select(Invitation).where(Invitation.game_id == game.id)):
        if inv.side == seat.side:
            inv.status, inv.answered_at = "declined", now
        elif inv.status == "pending":
            inv.status = "cancelled"
        s.add(inv)
    game.status, game.updated_at = "declined", now
    s.add(game)
    opp = seats[other(seat.side)]
    note_to(
        s,
        settings,
        game,
        seat,
        cause=cause,
        subject="Invitation declined — game cancelled",
        title="Declined",
        paragraphs=[
            f"You declined game #{game.id}; it is cancelled"
            + ("" if is_bot(opp.email) else f" and {opp.email} has been told")
            + ". Nothing more will be sent."
        ],
        now=now,
        in_reply_to=message_id,
    )
    note_to(
        s,
        settings,
        game,
        opp,
        cause=cause,
        subject="Game cancelled: your opponent declined",
        title="Game cancelled",
        paragraphs=[
            f"{seat.email} ({seat.side.title()}) declined the invitation, so game "
            f"#{game.id} is cancelled. Nothing more will be sent about it."
        ],
        now=now,
    )
    return Answer("declined", "declined: game cancelled")


@dataclass(frozen=True)
class InvitationRow:
    """A pending invitation, for `pbem games`."""

    side: str
    status: str
    expires_at: datetime | None


def invitations(s: Session, game_id: int) -> list[InvitationRow]:
    commit = s.get(Commitment, game_id)
    rows = s.exec(
        select(Invitation).where(Invitation.game_id == game_id).order_by(col(Invitation.side))
    )
    return [InvitationRow(i.side, i.status, commit.expires_at if commit else None) for i in rows]
