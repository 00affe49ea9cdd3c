"""The ``parse`` stage: read the MIME message defensively; garbage is recorded and dropped.

A mail over ``max_bytes`` or that cannot be read is ignored (the runner records it by its
content hash); one that takes more CPU than ``parse_cpu_seconds`` raises `OverBudget`, and the
runner quarantines it with the reason.
"""

from __future__ import annotations

from pbem.mail import MalformedMessage, parse_message
from pbem.mail.budget import cpu_budget
from pbem.pipeline.base import Context, IgnoreMessage, Stage


def parse(ctx: Context) -> None:
    if len(ctx.raw) > ctx.settings.max_bytes:
        raise IgnoreMessage(f"too large: {len(ctx.raw)} bytes > {ctx.settings.max_bytes}")
    try:  # a mail over the CPU budget raises OverBudget: the runner quarantines it, with why
        with cpu_budget(ctx.settings.parse_cpu_seconds):
            ctx.parsed = parse_message(ctx.raw, ctx.settings.address)
    except MalformedMessage as exc:
        raise IgnoreMessage(f"malformed message: {exc}") from None


STAGE = Stage("parse", "read the MIME message defensively; garbage is recorded and dropped", parse)
