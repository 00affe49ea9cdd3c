"""The ``filter-loops`` stage: drop auto-replies, bulk mail, bounces and our own mail.

`pbem.mail.parse` names why a mail is automatic (RFC 3834 ``Auto-Submitted``, ``Precedence``,
list headers, our own Message-IDs); such a mail is recorded and never answered, so no two
robots can mail each other for ever (C3). DSNs of our own mail were handled by ``bounce``.
"""

from __future__ import annotations

from pbem.pipeline.base import Context, IgnoreMessage, Stage


def filter_loops(ctx: Context) -> None:
    assert ctx.parsed is not None
    if ctx.parsed.auto_reason:
        raise IgnoreMessage(f"automatic mail: {ctx.parsed.auto_reason}")


STAGE = Stage(
    "filter-loops",
    "drop auto-replies, bulk mail, bounces and our own mail (RFC 3834/3464)",
    filter_loops,
)
