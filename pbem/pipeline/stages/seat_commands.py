"""The ``seat-commands`` stage: the seat words by mail (vacation, resign, claim, address, timezone).

The lines starting with a seat word (`pbem.pipeline.seat_words.SEAT_WORDS`) are taken out of
the mail and answered; they never reach the engine. A mail from a seat's address that is still
awaiting confirmation may carry only ``address confirm CODE``. ``resign`` and ``claim`` end the
game (`pbem.games.timekeeping.moves.end_game`).
"""

from __future__ import annotations

from engine.data import other
from pbem.clocks import model
from pbem.clocks.control import ClockSpecError, fmt_duration, parse_duration
from pbem.games.mailing import queue_mail
from pbem.games.seats import aliases_of, confirm_code, valid_email
from pbem.games.timekeeping import moves, records
from pbem.pipeline.base import Answered, Context, IgnoreMessage, RejectMessage, Stage
from pbem.pipeline.seat_words import SEAT_WORDS


def seat_commands(ctx: Context) -> None:
    assert ctx.parsed is not None and ctx.seat is not None and ctx.game is not None
    sender = ctx.parsed.from_addr.lower()
    mine = [line for line in ctx.lines if line.split()[0].lower() in SEAT_WORDS]
    if sender != ctx.seat.email.lower() and sender not in aliases_of(ctx.seat):
        confirm = [line for line in mine if line.lower().split()[:2] == ["address", "confirm"]]
        if not confirm:  # the pending address may only confirm itself
            raise IgnoreMessage(f"{sender} awaits confirmation and sent no 'address confirm'")
        mine, ctx.lines = confirm[:1], []
    if not mine:
        return
    ctx.lines = [line for line in ctx.lines if line not in mine]
    answers: list[str] = []
    for line in mine:
        answers += _one(ctx, line.split())
        if ctx.game.status != "active":
            raise Answered(f"game ended by {line!r}")
    if answers:
        ev = records.record_event(
            ctx.session, ctx.game, ctx.side, "answer", " | ".join(mine), ctx.now
        )
        assert ctx.state is not None
        records.notify(
            ctx.session,
            ctx.settings,
            ctx.game,
            ctx.state,
            ctx.side,
            ev,
            ctx.now,
            subject=_subject(mine, answers),
            lines=answers,
        )
    if not ctx.lines:
        raise Answered("answered " + ", ".join(m.split()[0].lower() for m in mine))


STAGE = Stage(
    "seat-commands",
    f"answer {', '.join(SEAT_WORDS)} lines (never sent to the engine)",
    seat_commands,
)


def _subject(lines: list[str], answers: list[str]) -> str:
    """The answer's subject: its first sentence for one word, else the words answered."""
    first = answers[0].split(". ")[0].rstrip(".")
    if len(lines) == 1 and len(first) <= 90:
        return first
    return "; ".join(m.split()[0].lower() for m in lines) + ": answered"


def _one(ctx: Context, words: list[str]) -> list[str]:
    word = words[0].lower()
    args = words[1:]
    if word == "vacation":
        return _vacation(ctx, args)
    if word == "resign":
        return _resign(ctx, args)
    if word == "claim":
        return _claim(ctx)
    if word == "timezone":
        return _timezone(ctx, args)
    return _address(ctx, args)


def _timezone(ctx: Context, args: list[str]) -> list[str]:
    """``timezone Europe/Berlin``: the times in this player's mails, in their zone (UTC: reset)."""
    assert ctx.game is not None
    c = _clock(ctx)
    t = ctx.now.timestamp()
    if not args:
        zone = model.tz_of(c, ctx.side) or "UTC"
        return [
            f"Times in your mails are shown in {zone}: now is {model.fmt_time(t, model.tz_of(c, ctx.side))}. "
            "Write e.g. 'timezone Europe/Berlin' or 'timezone America/New_York' to change it."
        ]
    found = model.valid_zone(args[0])
    if found is None:
        raise RejectMessage(
            f"'timezone {args[0]}': not a time zone name; write a name like "
            "Europe/Berlin, America/New_York, Asia/Tokyo or UTC"
        )
    zone, zones = found, dict(c.get("zones", {}))
    if zone in ("UTC", "Etc/UTC"):
        zones.pop(ctx.side, None)
    else:
        zones[ctx.side] = zone
    c["zones"] = zones
    records.store(ctx.game, c)
    return [
        f"Times in your mails are now shown in {zone}: now is "
        f"{model.fmt_time(t, zones.get(ctx.side))}. Dates you write ('vacation 2027-01-03') "
        "are read in that zone too."
    ]


def _clock(ctx: Context) -> model.ClockState:
    assert ctx.game is not None and ctx.state is not None
    return records.ensure_clock(ctx.game, ctx.settings, ctx.state, ctx.now.timestamp())


def _tell_opponent(ctx: Context, kind: str, subject: str, lines: list[str]) -> None:
    assert ctx.game is not None and ctx.state is not None
    ev = records.record_event(ctx.session, ctx.game, ctx.side, kind, lines[0], ctx.now)
    records.notify(
        ctx.session,
        ctx.settings,
        ctx.game,
        ctx.state,
        other(ctx.side),
        ev,
        ctx.now,
        subject=subject,
        lines=lines,
    )


def _vacation_until(arg: str, now: float, tz: str | None = None) -> float:
    if len(arg) == 10 and arg[4] == "-" and arg[7] == "-":
        try:
            return model.parse_date(arg, tz)
        except ValueError:
            raise RejectMessage(
                f"vacation {arg!r}: not a date; write e.g. 'vacation 2027-01-03' or 'vacation 5d'"
            ) from None
    try:
        seconds = (
            float(arg) * model.DAY if arg.replace(".", "", 1).isdigit() else parse_duration(arg)
        )
    except ClockSpecError:
        raise RejectMessage(
            f"vacation {arg!r}: write a number of days ('vacation 5d'), a date "
            "('vacation 2027-01-03') or 'vacation end'"
        ) from None
    return now + seconds


def _vacation(ctx: Context, args: list[str]) -> list[str]:
    assert ctx.game is not None
    c = _clock(ctx)
    t = ctx.now.timestamp()
    if not args:
        left = fmt_duration(model.vacation_left(c, ctx.side, t))
        return [
            f"You have {left} of vacation left this year. Write 'vacation 5d' or "
            "'vacation 2027-01-03' to take some."
        ]
    if args[0].lower() in ("end", "over", "stop", "off"):
        if not model.on_vacation(c, ctx.side, t):
            raise RejectMessage("'vacation end': you are not on vacation")
        refund = model.end_vacation(c, ctx.side, t)
        records.store(ctx.game, c)
        _tell_opponent(
            ctx,
            "vacation_end",
            f"{ctx.side.title()} is back from vacation",
            [f"{ctx.side.title()} is back from vacation; the clocks run again."],
        )
        return [
            f"Welcome back: your vacation has ended, {fmt_duration(refund)} returned to "
            "your yearly allowance. The clocks run again."
        ]
    until = _vacation_until(args[0], t, model.tz_of(c, ctx.side))
    try:
        model.start_vacation(c, ctx.side, t, until)
    except model.VacationError as exc:
        raise RejectMessage(f"'vacation {args[0]}': {exc}") from None
    records.store(ctx.game, c)
    when = model.fmt_time(until, model.tz_of(c, ctx.side))
    theirs = model.fmt_time(until, model.tz_of(c, other(ctx.side)))
    _tell_opponent(
        ctx,
        "vacation",
        f"{ctx.side.title()} is on vacation until {theirs}",
        [
            f"{ctx.side.title()} is on vacation until {theirs}. Both clocks are stopped "
            "until then; you may still send your moves."
        ],
    )
    return [
        f"You are on vacation until {when}: both clocks are stopped. "
        f"{fmt_duration(model.vacation_left(c, ctx.side, t))} of vacation are left this year. "
        "Any game command you send ends the vacation early, returning the unused days."
    ]


def _resign(ctx: Context, args: list[str]) -> list[str]:
    assert ctx.game is not None and ctx.seat is not None and ctx.state is not None
    code = confirm_code(ctx.settings, ctx.seat, "resign")
    if not args:
        return [
            f"To resign game #{ctx.game.id}, reply with this line: resign {code}",
            "Nothing has changed yet; ignore this mail to play on.",
        ]
    if args[0].upper() != code:
        raise RejectMessage(
            f"'resign {args[0]}': that is not the confirmation code; send 'resign' alone to get it"
        )
    winner = other(ctx.side)
    moves.end_game(
        ctx.session,
        ctx.settings,
        ctx.game,
        ctx.state,
        winner=winner,
        reason="resigned",
        detail=f"{ctx.side.title()} resigned; {winner.title()} wins",
        now=ctx.now,
    )
    return []


def _claim(ctx: Context) -> list[str]:
    assert ctx.game is not None and ctx.state is not None
    c = _clock(ctx)
    control = model.control_of(c)
    late = other(ctx.side)
    t = ctx.now.timestamp()
    if control.expiry != "claim":
        raise RejectMessage(f"'claim': this game's expiry policy is {control.expiry}, not claim")
    sc = c["sides"][late]
    if (
        sc["since"] is None
        or model.left(c, late, t) > -control.grace
        or model.on_vacation(c, late, t)
    ):
        left = model.left(c, late, t)
        raise RejectMessage(
            f"'claim': {late.title()} is not out of time and grace "
            f"({fmt_duration(left + control.grace) if sc['since'] is not None else 'their clock is stopped'}"
            f"{' left' if sc['since'] is not None else ''})"
        )
    moves.end_game(
        ctx.session,
        ctx.settings,
        ctx.game,
        ctx.state,
        winner=ctx.side,
        reason="timeout",
        detail=f"{late.title()} ran out of time; {ctx.side.title()} claimed the win",
        now=ctx.now,
    )
    return []


def _address(ctx: Context, args: list[str]) -> list[str]:
    assert ctx.game is not None and ctx.seat is not None and ctx.state is not None
    seat = ctx.seat
    usage = (
        "write 'address add NEW@EXAMPLE.ORG', 'address use ADDRESS', 'address remove ADDRESS' "
        "or 'address confirm CODE'"
    )
    if len(args) != 2:
        raise RejectMessage(f"'address {' '.join(args)}': {usage}")
    verb, arg = args[0].lower(), args[1].strip("<>").lower()
    if verb == "confirm":
        assert ctx.parsed is not None
        if ctx.parsed.from_addr.lower() != seat.pending_email:
            raise RejectMessage(
                f"'address confirm': send it from the new address "
                f"({seat.pending_email or 'none is waiting'}), replying to its mail"
            )
        if not seat.pending_email or arg.upper() != confirm_code(
            ctx.settings, seat, "addr:" + seat.pending_email
        ):
            raise RejectMessage(f"'address confirm {args[1]}': no address awaits this code")
        new, seat.pending_email = seat.pending_email, ""
        seat.aliases = ",".join([*aliases_of(seat), new])
        ctx.session.add(seat)
        _tell_opponent(
            ctx,
            "address",
            f"{ctx.side.title()} added an address",
            [f"{ctx.side.title()} may now also send from {new}."],
        )
        return [
            f"{new} is confirmed: you may send your moves from it. Write 'address use {new}' "
            "to have the reports mailed there."
        ]
    if not valid_email(arg):
        raise RejectMessage(f"'address {verb} {args[1]}': not an email address; {usage}")
    if verb == "add":
        if arg in (s.email for s in ctx.seats.values()) or arg in aliases_of(seat):
            raise RejectMessage(f"'address add {arg}': that address is already in this game")
        seat.pending_email = arg
        ctx.session.add(seat)
        ev = records.record_event(ctx.session, ctx.game, ctx.side, "address_pending", arg, ctx.now)
        code = confirm_code(ctx.settings, seat, "addr:" + arg)
        row = queue_mail(
            ctx.session,
            ctx.settings,
            kind="notice",
            game=ctx.game,
            seat=seat,
            state=ctx.state,
            cause=f"ev{ev.id}",
            now=ctx.now,
            advance_log=False,
            context={
                "notice": {
                    "subject": "Confirm your address",
                    "full": False,
                    "lines": [
                        f"{seat.email} asked to add this address to {ctx.side.title()}'s "
                        f"seat in game #{ctx.game.id}.",
                        f"To confirm, reply from this address with the line: address confirm {code}",
                        "If you did not ask for this, ignore this mail.",
                    ],
                }
            },
        )
        assert row is not None  # a seat that writes mail is no bot seat
        row.recipient = arg
        return [f"A confirmation code went to {arg}: reply from there with the line it gives."]
    if verb == "use":
        if arg not in aliases_of(seat):
            raise RejectMessage(
                f"'address use {arg}': add and confirm it first ('address add {arg}')"
            )
        old = seat.email
        seat.email, seat.aliases = arg, ",".join([a for a in aliases_of(seat) if a != arg] + [old])
        ctx.session.add(seat)
        _tell_opponent(
            ctx,
            "address",
            f"{ctx.side.title()} has a new address",
            [f"{ctx.side.title()}'s mail now goes to {arg}."],
        )
        return [f"Your mail now goes to {arg}; {old} may still send moves."]
    if verb == "remove":
        if arg not in aliases_of(seat):
            raise RejectMessage(
                f"'address remove {arg}': not one of your extra addresses "
                f"({', '.join(aliases_of(seat)) or 'none'})"
            )
        seat.aliases = ",".join(a for a in aliases_of(seat) if a != arg)
        ctx.session.add(seat)
        records.record_event(ctx.session, ctx.game, ctx.side, "address", f"removed {arg}", ctx.now)
        return [f"{arg} may no longer send for you."]
    raise RejectMessage(f"'address {verb}': {usage}")
