"""Handlers that act on a player's mail: extract lines, answer help/status, apply, record, report.

All command lines of one mail apply atomically on a copy of the position:
either every line applies, or none does and the reply names the failing line
(R17: the reply then shows the position *before* the mail, so a deliberately
failing line can never be used to peek at draws or re-roll them).
"""

from __future__ import annotations

from typing import Any

import engine
from engine.explain import overspend
from pbem.games.mailing import queue_mail
from pbem.games.notify import queue_reports
from pbem.mail.extract import reply_text
from pbem.outbox.queue import seats_of
from pbem.pipeline import rows
from pbem.pipeline.base import Answered, Context, RejectMessage, handler
from pbem.pipeline.lines import SentReports, did_you_mean, read_reply, suggest
from pbem.reports import cardtext
from pbem.server_words import SERVER_WORDS, words_of

ANSWERED = words_of("answered")  # the server words answered by a mail of their own
# those of them that may name a card ('help 17', 'card 17'): one card's mail
ASK_CARD = tuple(w for w in ANSWERED if SERVER_WORDS[w].args.lstrip("?") == "card")
SENT_REPORTS_READ = 60  # the latest reports to a seat whose lines are never read back as orders


def sent_reports(ctx: Context) -> SentReports:
    """The text of the latest mails sent (or queued) to this seat, read only if reading the
    reply needs it (`SentReports`)."""
    assert ctx.seat is not None
    session, game_id, side = ctx.session, ctx.seat.game_id, ctx.seat.side

    def load() -> list[str]:
        return rows.report_texts(session, game_id, side, SENT_REPORTS_READ)

    return SentReports(load=load)


@handler(
    "extract",
    "sort the reply's own lines into commands, table talk and prose "
    "(quotes, the server's own report lines and signatures never read)",
)
def extract(ctx: Context) -> None:
    assert ctx.parsed is not None
    sent = sent_reports(ctx)
    reply = reply_text(ctx.parsed.text, history_starts=sent.starts_history)
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


@handler(
    "meta-commands",
    "answer " + ", ".join(f"'{w}'" for w in ANSWERED) + " lines; they never change the game",
)
def meta_commands(ctx: Context) -> None:
    game_lines = []
    for line in ctx.lines:
        request = meta_request(line)
        if request:
            ctx.meta.append(request)
        else:
            game_lines.append(line)
    ctx.lines = game_lines
    if ctx.lines or ctx.undo:
        return
    _queue_meta(ctx)
    raise Answered("answered " + ", ".join(ctx.meta))


def meta_request(line: str) -> str:
    """``help``, ``status``, ``history`` or ``card QUERY`` for a server-word line, else ``""``.

    ``help 17`` / ``help nixon's knee`` ask for one card, as ``card 17`` does.
    """
    word, _, arg = line.strip().partition(" ")
    word, arg = word.lower().rstrip(":"), arg.strip()
    if word not in ANSWERED or (arg and word not in ASK_CARD):
        return ""
    if word in ASK_CARD and arg:
        return f"card {arg}"
    return word


def _queue_meta(ctx: Context) -> None:
    assert ctx.game is not None and ctx.seat is not None and ctx.state is not None
    assert ctx.inbound is not None and ctx.parsed is not None
    for n, request in enumerate(dict.fromkeys(ctx.meta)):
        kind, _, arg = request.partition(" ")
        context: dict[str, Any] = {}
        cause = f"in{ctx.inbound.id}"
        if kind == "card":
            found = cardtext.find(arg)
            if len(found) == 1:
                context = {"card": found[0]}
            else:
                context = {"card_query": arg, "card_matches": found[:8]}
            cause += f".{n}"  # one mail per card asked for
        queue_mail(
            ctx.session,
            ctx.settings,
            kind=kind,
            game=ctx.game,
            seat=ctx.seat,
            state=ctx.state,
            cause=cause,
            now=ctx.now,
            in_reply_to=ctx.parsed.message_id,
            advance_log=False,
            context=context,
        )


@handler("apply", "apply every line to a copy of the position, all or nothing")
def apply_commands(ctx: Context) -> None:
    assert ctx.state is not None
    g = ctx.state
    start = len(ctx.results)  # an accepted 'undo' is already there
    for i, line in enumerate(ctx.lines):
        try:
            after = engine.copy_state(g)  # g stays the position before the line
            canonical = engine.apply_in_place(after, ctx.side, line)
        except engine.CommandError as exc:
            why = _reason(exc, line, i, ctx.state, g, ctx.side)
            ctx.results.append({"line": line, "ok": False, "message": why})
            ctx.results.extend(
                {"line": rest, "ok": False, "message": "not read (after the error)"}
                for rest in ctx.lines[i + 1 :]
            )
            for r in ctx.results[: start + i]:
                r.update(
                    ok=False,
                    message="fine on its own, but not applied: a mail applies all or nothing",
                )
            if ctx.undone is not None:
                ctx.state = ctx.undone  # nothing applied, not even the undo (R17)
            raise RejectMessage(f"line {i + 1} {line!r}: {why}") from None
        g = after
        ctx.applied.extend(canonical)
        ctx.results.append({"line": line, "ok": True, "message": "ok"})
    ctx.new_state = g if g is not ctx.state else engine.copy_state(g)


def _reason(
    exc: engine.CommandError,
    line: str,
    i: int,
    before: engine.GameState,
    now: engine.GameState,
    side: str,
) -> str:
    """What the player is told: overspend in the one-line form, else the engine's reason with
    "did you mean" (details only where R17 allows them, see `_safe_reason`)."""
    why = _safe_reason(exc, i, before, now)
    if i > 0 and _hidden_drawn(before, now):
        return why
    short = overspend(now, side, line)
    if short:
        return f"{exc.kind}: {short}"
    if isinstance(exc, engine.CommandSyntaxError | engine.IllegalCommandError):
        hints = did_you_mean(line, engine.legal_commands(now, side))
        if hints:
            return why + " — did you mean " + " or ".join(f"'{h}'" for h in hints) + "?"
    return why


def _hidden_drawn(before: engine.GameState, after: engine.GameState) -> bool:
    """True if applying lines consumed randomness or drew from a hidden deck."""
    return (
        before["rng"] != after["rng"]
        or len(before["deck"]) != len(after["deck"])
        or len(before["endorse_deck"]) != len(after["endorse_deck"])
    )


def _safe_reason(
    exc: engine.CommandError, i: int, before: engine.GameState, after: engine.GameState
) -> str:
    """The error as the player may see it (R17: never the position after the prefix).

    The reason only: the mail quotes the line beside it and lists what is legal now (grouped,
    for the position before the mail) below it. After earlier lines that drew cards or cubes
    not even the reason is given (no peeking by failing on purpose).
    """
    if i > 0 and _hidden_drawn(before, after):
        return (
            f"{exc.kind}: this line could not follow the lines before it (details withheld: "
            "they drew cards or cubes, which a rejected mail may not reveal, R17)"
        )
    return f"{exc.kind}: {exc.reason}"


@handler("record", "append the canonical moves and store the new snapshot")
def record(ctx: Context) -> None:
    assert ctx.game is not None and ctx.new_state is not None and ctx.inbound is not None
    game, s = ctx.game, ctx.session
    assert game.id is not None
    # canonical commands, not the lines as written: a later alias or parser change cannot
    # break `pbem replay` (migration 0005 rewrote the older logs the same way)
    moves = (
        ([(ctx.side, "undo")] if ctx.undone is not None else [])
        + [(ctx.side, cmd) for cmd in ctx.applied]
        + [(a.side, c) for a in ctx.auto for c in a.applied]
    )
    if moves:
        seq = rows.last_move_seq(s, game.id)
        rows.insert_moves(s, game.id, seq + 1, moves, inbound_id=ctx.inbound.id, now=ctx.now)
    game.snapshot = engine.to_json(ctx.new_state)
    game.version += 1
    game.updated_at = ctx.now
    if engine.result(ctx.new_state) is not None:
        game.status = "over"
    s.add(game)
    ctx.inbound.outcome = "applied"


@handler("report", "queue reports to the seats that should hear of this mail (pbem.games.notify)")
def report(ctx: Context) -> None:
    assert ctx.game is not None and ctx.new_state is not None and ctx.seat is not None
    queue_reports(ctx)
    if ctx.meta:
        ctx.state = ctx.new_state
        ctx.seat = seats_of(ctx.session, ctx.game.id or 0)[ctx.side]
        _queue_meta(ctx)
