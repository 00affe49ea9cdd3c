"""The ``check-auth`` stage: hold a move whose From failed DMARC/DKIM at our own server.

Runs after ``check-sender`` (the From is the seat's address and the reply key is valid).
With ``PBEM_AUTHSERV_ID`` set, the receiving server's ``Authentication-Results`` verdict is
read (`pbem.mail.authres`); a ``fail`` for the From domain means the From may be spoofed by
someone who learned the reply key, so the move is *held*: stored with its raw bytes, not
applied, the registered player told at the registered address, the operator shown it in
``pbem held`` (release or drop). With ``PBEM_DKIM_VERIFY`` the server also verifies the From
domain's DKIM signatures itself (`pbem.mail.dkimcheck`, dkimpy) and holds a mail whose
signature fails.
"""

from __future__ import annotations

import engine
from pbem.games.mailing import queue_mail
from pbem.mail import dkimcheck
from pbem.mail.authres import verdict
from pbem.pipeline.base import Context, Stage, StopPipeline
from pbem.sanitize import bounded
from pbem.store.db import lock_game
from pbem.store.models import HeldMessage


class HoldMessage(StopPipeline):
    """Keep the mail for the operator; the player is told, nothing is applied."""

    outcome = "held"


def check_auth(ctx: Context) -> None:
    assert ctx.parsed is not None
    domain = ctx.parsed.from_addr.rpartition("@")[2]
    reason = verdict(ctx.parsed.auth_results, ctx.settings.authserv_id, domain)
    if reason is not None:
        raise HoldMessage(f"held: {ctx.settings.authserv_id} reports {reason}")
    if ctx.settings.dkim_verify:  # our own check, for a receiving server that writes no A-R
        found = dkimcheck.verdict(ctx.raw, domain, dnsfunc=dkimcheck.DNS)
        if found is not None:
            raise HoldMessage(f"held: DKIM verification on arrival: {found}")


STAGE = Stage(
    "check-auth", "hold a move whose From failed DMARC/DKIM at our receiving server", check_auth
)


def hold(ctx: Context, stop: HoldMessage) -> None:
    """Store the held mail and queue the ``held`` notice to the seat's registered address."""
    assert ctx.seat is not None and ctx.inbound is not None and ctx.parsed is not None
    if ctx.game is None:
        ctx.game = lock_game(ctx.session, ctx.seat.game_id)
        assert ctx.game is not None
        ctx.state = engine.from_json(ctx.game.snapshot)
        ctx.inbound.game_id, ctx.inbound.side = ctx.game.id, ctx.seat.side
    assert ctx.state is not None
    ctx.session.flush()
    ctx.session.add(
        HeldMessage(
            inbound_id=ctx.inbound.id,
            game_id=ctx.game.id,
            side=ctx.seat.side,
            from_addr=bounded(ctx.parsed.from_addr, 320),
            reason=bounded(stop.reason, 500),
            mailbox=bounded(ctx.mailbox, 200),
            raw=ctx.raw,
            created_at=ctx.now,
        )
    )
    queue_mail(
        ctx.session,
        ctx.settings,
        kind="held",
        game=ctx.game,
        seat=ctx.seat,
        state=ctx.state,
        cause=f"in{ctx.inbound.id}",
        now=ctx.now,
        error=stop.reason,
        in_reply_to=ctx.parsed.message_id,
        advance_log=False,
    )
