"""The ``extract`` stage: sort the reply's own lines into commands, table talk and prose.

`pbem.pipeline.lines.own_text` leaves out quotes, attributions and signatures;
`pbem.pipeline.lines.read_reply` reads what is left, with the text of the latest reports sent
to this seat (`sent_reports`) so the server's own report lines are never read back as orders.
A line that looks like a command but cannot be read rejects the whole mail, with "did you
mean" hints; so do too many command lines, and a mail with nothing of the writer's own.
"""

from __future__ import annotations

from sqlmodel import col, select

import engine
from pbem.pipeline.base import Context, RejectMessage, Stage
from pbem.pipeline.lines import SentReports, own_text, read_reply, suggest
from pbem.store.models import OutboxMessage

SENT_REPORTS_READ = 60  # the latest reports to a seat whose lines are never read back as orders


def sent_reports(ctx: Context) -> SentReports:
    """The text of the latest mails sent (or queued) to this seat."""
    assert ctx.seat is not None
    return SentReports(
        ctx.session.exec(
            select(OutboxMessage.text)
            .where(OutboxMessage.game_id == ctx.seat.game_id, OutboxMessage.side == ctx.seat.side)
            .order_by(col(OutboxMessage.id).desc())
            .limit(SENT_REPORTS_READ)
        )
    )


def extract(ctx: Context) -> None:
    assert ctx.parsed is not None
    sent = sent_reports(ctx)
    reply = own_text(ctx.parsed.text, sent)
    found = read_reply(reply, sent, max_lines=ctx.settings.max_lines)
    ctx.lines, ctx.ignored, ctx.talk, ctx.undo = (
        found.commands,
        found.ignored,
        found.talk,
        found.undo,
    )
    if found.unreadable:
        legal = engine.legal_commands(ctx.state, ctx.side) if ctx.state is not None else []
        for bad in found.unreadable:
            hints = suggest(bad, legal)
            message = bad.reason + (
                " — did you mean " + " or ".join(f"'{h}'" for h in hints) + "?" if hints else ""
            )
            ctx.results.append({"line": bad.line, "ok": False, "message": message})
        first = ctx.results[0]
        raise RejectMessage(
            f"line {first['line']!r} looks like a command but cannot be read: {first['message']}."
            " Nothing in your mail was applied"
        )
    if found.truncated:
        raise RejectMessage(
            f"too many command lines ({len(found.commands) + found.truncated}; "
            f"at most {ctx.settings.max_lines} in one mail)"
        )
    if not ctx.lines and not ctx.undo and not ctx.talk:
        if reply.quoted and not any(reply.lines):
            legal = engine.legal_commands(ctx.state, ctx.side) if ctx.state is not None else []
            example = f" (for example '{legal[0]}')" if legal else ""
            raise RejectMessage(
                "your mail holds only the quoted report, nothing of your own: "
                f"write your commands above the quoted text{example}, one per "
                "line"
            )
        raise RejectMessage("no command found in your mail (send 'help' for the command list)")


STAGE = Stage(
    "extract",
    "sort the reply's own lines into commands, table talk and prose "
    "(quotes, the server's own report lines and signatures never read)",
    extract,
)
