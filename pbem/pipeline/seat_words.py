"""The seat words (vacation, resign, claim, address, timezone): lines that never reach the engine.

`SEAT_WORDS` derives from `pbem.server_words`; the ``seat-commands`` stage answers them, and
``check-fresh`` lets a mail of seat words alone through on an older reply key
(`only_seat_words`).
"""

from __future__ import annotations

from pbem.pipeline.base import Context
from pbem.pipeline.lines import own_text, read_reply
from pbem.server_words import words_of

SEAT_WORDS = words_of("seat")


def only_seat_words(ctx: Context) -> bool:
    """True if every command line of the mail is a seat word: fine on a stale reply key.

    These lines never touch the position (a resignation still needs its code), so a
    waiting player may answer any earlier mail of the game with them.
    """
    assert ctx.parsed is not None
    found = read_reply(own_text(ctx.parsed.text), max_lines=ctx.settings.max_lines)
    return bool(found.commands) and all(
        line.split()[0].lower() in SEAT_WORDS for line in found.commands
    )
