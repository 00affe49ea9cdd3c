"""The ``check-repeat`` stage: a re-sent copy of an applied mail is not applied again.

A mail from a seat whose game lines equal those of a mail already applied under the same reply
key (the same report answered) is a copy that the player's mail client sent again under a new
Message-ID (`pbem.pipeline.repeats`). Nothing of it is applied; the first copy is answered with
the current position and its fresh key (to play the same lines again, reply to that), further
copies are recorded without an answer. Runs after ``extract`` (it compares the lines as read).
"""

from __future__ import annotations

from pbem.pipeline import repeats
from pbem.pipeline.base import Context, IgnoreMessage, RejectMessage, Stage


class RepeatedMail(RejectMessage):
    """A re-sent copy of an applied mail: recorded as ``duplicate``, its sender told once."""

    outcome = "duplicate"


class RepeatedAgain(IgnoreMessage):
    """A further copy: recorded as ``duplicate``, not answered again."""

    outcome = "duplicate"


def check_repeat(ctx: Context) -> None:
    lines = repeats.fingerprint(ctx)
    if ctx.key is None or ctx.seat is None or lines is None:
        return
    found = repeats.earlier(ctx, lines)
    if found is None:
        return
    repeats.count_repeat(ctx, found)
    what = "; ".join(ctx.lines) if ctx.lines else "undo"
    if found.repeats:
        raise RepeatedAgain(f"another copy of the applied mail in{found.inbound_id} ({what})")
    raise RepeatedMail(
        f"this mail repeats your earlier mail that answered the same report with the same "
        f"lines ({what}); that mail was applied, so this copy was not applied again. To play "
        "these lines once more, reply to this mail"
    )


STAGE = Stage(
    "check-repeat",
    "a re-sent copy of an applied mail (same lines, same reply key) is not applied again",
    check_repeat,
)
