"""The ``bounce`` stage: a DSN of our own mail is recorded and the other player told, never answered.

Postfix (or any MTA) returns a mail it could not deliver to the envelope sender, the game
mailbox, as an RFC 3464 delivery status notification. Read with `pbem.mail.dsn`, it names the
recipient that failed and the Message-ID of our mail; that finds the outbox row. Anybody can
send a DSN-shaped mail, so one is believed only when the Message-ID it returns is signed by
this server (`pbem.keys.is_our_message_id`: only the mail's recipient and the servers on its
way have seen it) and names a row of the outbox; a DSN without the original's headers, or
naming a Message-ID we did not sign, is ignored with the reason (`pbem log`/`pbem poll`
output), never acted on: otherwise anyone who knows a player's address could have the
opponent told that the player's mail bounces. The row is
marked ``bounced`` (with the status and the remote server's words), the game gets a
``bounce`` event (`pbem log GAME`), the poll counts it (`pbem poll` exits 3: an operator should
look), and the opponent is told once per dead address by a ``notice``. Nothing is ever sent
to the DSN's sender, and a notice that bounces itself tells nobody: no mail loop.
"""

from __future__ import annotations

import logging

from sqlmodel import select

import engine
from pbem import keys
from pbem.config import accepted_secrets
from pbem.games.timekeeping.records import notify, record_event
from pbem.outbox.queue import seats_of
from pbem.pipeline.base import Context, IgnoreMessage, Stage
from pbem.sanitize import bounded
from pbem.store.db import lock_game
from pbem.store.models import GameEvent, OutboxMessage

log = logging.getLogger("pbem.bounces")


class Bounced(IgnoreMessage):
    """A bounce of our mail: recorded for the operator, never answered."""

    outcome = "bounced"


def bounce(ctx: Context) -> None:
    assert ctx.parsed is not None
    dsn = ctx.parsed.dsn
    if dsn is None:
        return
    failed = dsn.failed
    if not failed:
        actions = ", ".join(sorted({r.action or "?" for r in dsn.recipients})) or "none"
        raise IgnoreMessage(f"delivery report ({actions}): nothing failed")
    row = _bounced_row(ctx, dsn.original_message_id, failed[0].recipient)
    hit = next((r for r in failed if r.recipient == row.recipient.lower()), failed[0])
    why = (
        hit.diagnostic
        if hit.status and hit.status in hit.diagnostic
        else (f"{hit.status} {hit.diagnostic}".strip() or "no reason given")
    )
    row.status, row.last_error = "bounced", bounded(f"bounced: {why}", 2000)
    ctx.session.add(row)
    where = f"game {row.game_id} {row.side}" if row.game_id and row.side else "no game"
    reason = bounded(
        f"bounce: the {row.kind} mail to {row.recipient} ({where}) could not be delivered: {why}",
        1000,
    )
    if row.game_id is not None and row.side in engine.SIDES:
        _record(ctx, row, why)
    log.warning("%s", reason)
    raise Bounced(reason)


STAGE = Stage(
    "bounce", "record a bounce (RFC 3464 DSN) of our own mail; tell the other player once", bounce
)


def _bounced_row(ctx: Context, message_id: str | None, recipient: str) -> OutboxMessage:
    """Our outbox row the DSN returns, found by the original's signed Message-ID; a DSN that
    does not prove which mail of ours it returns is ignored (raises `IgnoreMessage`)."""
    if not message_id:
        raise IgnoreMessage(
            f"bounce (RFC 3464) for {recipient} without the returned mail's Message-ID: "
            "cannot tell it is a mail of ours; not acted on"
        )
    shown = bounded(message_id, 120)
    if not keys.is_our_message_id(accepted_secrets(ctx.settings), message_id):
        raise IgnoreMessage(
            f"bounce (RFC 3464) for {recipient} of {shown}: not a Message-ID this server "
            "signed; not acted on"
        )
    s = ctx.session
    for mid in dict.fromkeys((message_id, message_id.lower())):
        row = s.exec(select(OutboxMessage).where(OutboxMessage.message_id == mid)).first()
        if row is not None:
            return row
    raise IgnoreMessage(f"bounce (RFC 3464) for {recipient} of {shown}: no such mail in the outbox")


def _record(ctx: Context, row: OutboxMessage, why: str) -> None:
    """The game's ``bounce`` event; the opponent's notice the first time this address bounces."""
    assert row.game_id is not None and row.side is not None
    game = lock_game(ctx.session, row.game_id)
    if game is None:
        return
    s, key = ctx.session, f"bounce:{row.id}"
    earlier = s.exec(
        select(GameEvent).where(GameEvent.game_id == row.game_id, GameEvent.kind == "bounce")
    ).all()
    if any(e.key == key for e in earlier):
        return  # a second DSN for the same mail
    detail = f"{row.recipient}: {why}"
    event = record_event(s, game, row.side, "bounce", bounded(detail, 2000), ctx.now, key=key)
    other = next(side for side in engine.SIDES if side != row.side)
    seats = seats_of(s, row.game_id)
    told = any(e.side == row.side and e.detail.startswith(f"{row.recipient}:") for e in earlier)
    other_dead = any(
        e.side == other and e.detail.startswith(f"{seats[other].email}:") for e in earlier
    )
    if told or other_dead or game.status != "active":
        return
    name = row.side.capitalize()
    notify(
        s,
        ctx.settings,
        game,
        engine.from_json(game.snapshot),
        other,
        event,
        ctx.now,
        seats=seats,
        subject=f"Mail to {name} could not be delivered",
        lines=[
            f"Our mail to {name} ({row.recipient}) could not be delivered: their mail "
            f"server answered \u201c{why}\u201d.",
            f"The site operator has been told. Until {name} has a working address they "
            "will not see the reports; if the game waits for them, their clock runs as "
            "usual. You need not do anything.",
        ],
    )
