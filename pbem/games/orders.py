"""Standing orders, queued orders and forced decisions: what the server answers for a player.

A player's mail may carry, besides game commands:

- ``notify decisions|every|digest [HOUR]``: when the server mails them (pbem.games.notify);
  ``notify receipts off|on``: whether an applied mail that gets no report gets a short
  receipt (pbem.games.receipts);
- ``standing ...``: standing orders, applied by the server when the question arises
  (``trigger useful|never|ask|always|icon``, ``preempt never|ask``, ``election N N ...|ask``,
  ``done auto|ask``, ``swap decline|ask``, ``clear``);
- ``then``: the lines after it are queued and applied, in order, each when its question
  comes (`asks_for`: a line waits while the player is asked something else); the first that
  is not legal at its question cancels the rest;
- ``cancel``: clears the queue.

`read_mail` splits a mail's lines into these; `settle` runs after every applied mail and applies,
for each side that must decide, its queued order, else a standing order, else a forced command
(`engine.forced`), until nobody's decision can be taken for them. Every command applied this way
is a real move (recorded and replayed like any other) and leaves a note for its player.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from sqlmodel import Session

import engine
from engine import forced
from engine.data import counted, listed
from engine.question import step_name
from pbem.games.triggers import only_for_opponent
from pbem.reports.summary import notify_text
from pbem.server_words import words_of
from pbem.store.models import Seat, SeatOrders

__all__ = [
    "NOTIFY_MODES",
    "Auto",
    "Book",
    "MailOrders",
    "OrdersError",
    "Standing",
    "about",
    "book_row",
    "book_rows",
    "orders_extra",
    "read_mail",
    "settle",
]

NOTIFY_MODES = ("decisions", "every", "digest")
TRIGGER_POLICIES = ("useful", "ask", "never", "always", "icon")
DEFAULT_DIGEST_HOUR = 18
MAX_QUEUE = 40
MAX_AUTO = 400  # a safety net: settle never loops for ever
# the order words read as settings; 'then' alone on its line starts the queue instead
SETTING_WORDS = tuple(w for w in words_of("orders") if w != "then")
FORCED = True  # apply forced decisions (benchmarks switch it off to measure the old behaviour)
CP_STEPS = {"campaign": ("support", "check"), "advertise": ("media",), "position": ("issue",)}


class OrdersError(ValueError):
    """A notify/standing/then/cancel line that cannot be read; the message says what is legal."""


@dataclass
class Standing:
    """A player's standing orders (the defaults ask every question)."""

    trigger: str = "useful"  # useful | ask | never | always | icon (pbem.games.triggers)
    preempt: str = "ask"  # ask | never
    election: list[int] = field(default_factory=list)  # preferred Election Day order
    done: str = "ask"  # ask | auto: end a CP step when no useful point is left
    swap: str = "ask"  # ask | decline
    # not a standing order: the ``notify receipts on|off`` mail preference, kept in the same
    # JSON (`pbem.games.receipts`); never listed with the orders, never reset by 'clear'
    receipts: str = "on"  # on | off

    @classmethod
    def from_json(cls, text: str) -> Standing:
        data = json.loads(text or "{}")
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    def describe(self) -> list[str]:
        """One line per order, as the player would write it."""
        trig = {
            "useful": "ask me, but decline events that can only help my opponent",
            "ask": "ask me",
            "never": "never trigger",
            "always": "trigger whenever I can",
            "icon": "trigger only cards with my icon, decline the rest",
        }[self.trigger]
        elect = (
            (" ".join(f"#{n}" for n in self.election) + ", then ask") if self.election else "ask me"
        )
        return [
            f"trigger   {self.trigger:8} {trig}",
            f"preempt   {self.preempt:8} {'never preempt' if self.preempt == 'never' else 'ask me'}",
            f"election  {'list' if self.election else 'ask':8} {elect}",
            f"done      {self.done:8} "
            + (
                "end campaign/advertise/position when no point is left to place"
                if self.done == "auto"
                else "ask me"
            ),
            f"swap      {self.swap:8} {'decline issue swaps' if self.swap == 'decline' else 'ask me'}",
        ]

    def is_default(self) -> bool:
        return self == Standing(receipts=self.receipts)


@dataclass
class Book:
    """One seat's orders in memory: standing orders, the queue, notes for the next mail."""

    side: str
    standing: Standing = field(default_factory=Standing)
    queue: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def book_row(session: Session, seat: Seat) -> SeatOrders:
    """The seat's `SeatOrders` row (created with the defaults on first use)."""
    assert seat.id is not None
    row = session.get(SeatOrders, seat.id)
    if row is None:
        row = SeatOrders(seat_id=seat.id)
        session.add(row)
    return row


def book_rows(session: Session, seats: dict[str, Seat]) -> dict[str, SeatOrders]:
    """`book_row` of each seat by side."""
    return {side: book_row(session, seat) for side, seat in seats.items()}


def book_of(row: SeatOrders, side: str) -> Book:
    return Book(
        side,
        Standing.from_json(row.standing),
        list(json.loads(row.queue or "[]")),
        list(json.loads(row.notes or "[]")),
    )


def store_book(row: SeatOrders, book: Book) -> None:
    """Write *book* into *row*."""
    row.standing = book.standing.to_json()
    row.queue = json.dumps(book.queue)
    row.notes = json.dumps(book.notes)


# --- reading a mail -------------------------------------------------------------------------------


@dataclass
class MailOrders:
    """What a mail says besides its game lines; applied only if the mail applies (all or nothing)."""

    now: list[str] = field(default_factory=list)  # game lines to apply now
    queue: list[str] | None = None  # lines after 'then' (None: no 'then' line)
    cancel: bool = False
    notify: tuple[str, int | None] | None = None
    receipts: bool | None = None  # 'notify receipts on|off'
    standing: list[tuple[str, list[str]]] = field(default_factory=list)  # (order, values)
    answers: list[dict[str, Any]] = field(default_factory=list)  # {"line", "ok", "message"}

    @property
    def anything(self) -> bool:
        return bool(
            self.queue is not None
            or self.cancel
            or self.notify
            or self.standing
            or self.receipts is not None
        )


def _words(line: str) -> list[str]:
    return re.sub(r"[,:;]+", " ", line.strip().lower()).split()


def read_mail(lines: list[str]) -> MailOrders:
    """Split a mail's command lines (raises `OrdersError` naming the bad line)."""
    out = MailOrders()
    queued: list[str] | None = None
    for line in lines:
        words = _words(line)
        word = words[0] if words else ""
        if word == "then" and len(words) == 1:
            queued = [] if queued is None else queued
            continue
        if word in SETTING_WORDS:
            _read_setting(out, line, words)
        elif queued is not None:
            _check_queued(line, word)
            queued.append(line.strip())
        else:
            out.now.append(line)
    if queued is not None:
        if len(queued) > MAX_QUEUE:
            raise OrdersError(
                f"{len(queued)} lines after 'then': at most {MAX_QUEUE} may be queued"
            )
        out.queue = queued
        out.answers.append(
            {
                "line": "then",
                "ok": True,
                "message": (
                    f"{counted(len(queued), 'line')} queued for your next decisions"
                    if queued
                    else "nothing after 'then': your queue is now empty"
                ),
            }
        )
    return out


def _check_queued(line: str, word: str) -> None:
    verb = engine.SYNONYMS.get(word, word)
    if verb not in engine.VERBS:
        raise OrdersError(
            f"{line.strip()!r} after 'then': {word!r} is not a game command "
            f"(commands: {', '.join(sorted(engine.VERBS))})"
        )


def _read_setting(out: MailOrders, line: str, words: list[str]) -> None:
    word, args = words[0], words[1:]
    if word == "cancel":
        if args:
            raise OrdersError(
                f"{line.strip()!r}: 'cancel' takes nothing after it (it clears your queue)"
            )
        out.cancel = True
        out.answers.append(
            {"line": "cancel", "ok": True, "message": "your queued orders are cleared"}
        )
    elif word == "notify" and args[:1] == ["receipts"]:
        if args[1:] not in (["on"], ["off"]):
            raise OrdersError(
                f"{line.strip()!r}: expected 'notify receipts off' or 'notify receipts on'"
            )
        out.receipts = args[1] == "on"
        msg = (
            "an applied mail of yours that gets no report is answered with a short receipt"
            if out.receipts
            else "no receipts: an applied mail of yours that gets no report is not answered"
        )
        out.answers.append({"line": line.strip(), "ok": True, "message": msg})
    elif word == "notify":
        out.notify = _read_notify(line, args)
        mode, hour = out.notify
        msg = {
            "decisions": "you are mailed only when you must decide",
            "every": "you are mailed after every move",
            "digest": f"one mail a day at {hour if hour is not None else DEFAULT_DIGEST_HOUR:02d}:00 UTC",
        }[mode]
        out.answers.append({"line": line.strip(), "ok": True, "message": msg})
    else:
        order, values = _read_standing(line, args)
        out.standing.append((order, values))
        out.answers.append(
            {
                "line": line.strip(),
                "ok": True,
                "message": "standing order set"
                if order not in ("show", "clear")
                else (
                    "standing orders cleared"
                    if order == "clear"
                    else "your standing orders are below"
                ),
            }
        )


def _read_notify(line: str, args: list[str]) -> tuple[str, int | None]:
    legal = (
        "'notify decisions', 'notify every', 'notify digest' (with an hour 0-23 UTC if you like, "
        "e.g. 'notify digest 18'), 'notify receipts off' or 'notify receipts on'"
    )
    if not args or args[0] not in NOTIFY_MODES:
        raise OrdersError(f"{line.strip()!r}: expected {legal}")
    hour: int | None = None
    if args[0] == "digest" and len(args) > 1:
        m = re.fullmatch(r"(\d{1,2})(?:[:h.]00)?", args[1])
        if m is None or not 0 <= int(m.group(1)) <= 23 or len(args) > 2:
            raise OrdersError(
                f"{line.strip()!r}: the digest hour is a whole hour 0-23 (UTC), "
                "e.g. 'notify digest 18'"
            )
        hour = int(m.group(1))
    elif len(args) > 1:
        raise OrdersError(f"{line.strip()!r}: expected {legal}")
    return args[0], hour


_STANDING_VALUES = {
    "trigger": TRIGGER_POLICIES,
    "preempt": ("ask", "never"),
    "done": ("ask", "auto"),
    "swap": ("ask", "decline"),
}
_STANDING_HELP = (
    "standing trigger useful|ask|never|always|icon, standing preempt never|ask, "
    "standing election N N ...|ask, standing done auto|ask, standing swap decline|ask, "
    "standing clear, or 'standing' alone to see them"
)


def _read_standing(line: str, args: list[str]) -> tuple[str, list[str]]:
    if not args:
        return "show", []
    order, values = args[0], args[1:]
    if order == "clear" and not values:
        return "clear", []
    if order in _STANDING_VALUES:
        if len(values) != 1 or values[0] not in _STANDING_VALUES[order]:
            raise OrdersError(
                f"{line.strip()!r}: expected 'standing {order}' followed by "
                f"{listed(_STANDING_VALUES[order], 'or')}"
            )
        return order, values
    if order == "election":
        if values == ["ask"]:
            return order, []
        cards = [v.lstrip("#") for v in values]
        if not cards or not all(c.isdigit() and int(c) in engine.CARDS for c in cards):
            raise OrdersError(
                f"{line.strip()!r}: expected card numbers in the order to resolve "
                "them on Election Day (R13.3, R13.4), e.g. 'standing election 7 12', "
                "or 'standing election ask'"
            )
        return order, cards
    raise OrdersError(f"{line.strip()!r}: unknown standing order; expected {_STANDING_HELP}")


def apply_standing(standing: Standing, order: str, values: list[str]) -> Standing:
    """The standing orders after one ``standing`` line."""
    if order == "clear":
        return Standing(receipts=standing.receipts)
    if order == "show":
        return standing
    if order == "election":
        standing.election = [int(v) for v in values]
    else:
        setattr(standing, order, values[0])
    return standing


# --- applying orders for the players --------------------------------------------------------------


@dataclass(frozen=True)
class Auto:
    """A command the server applied for ``side``, and why (``queued``/``standing``/``forced``)."""

    side: str
    command: str  # as the player wrote it (a queued line) or as the server chose it
    why: str
    about: str = ""  # the question it answered: "trigger #19 Old South", "strategy" ...
    # the canonical commands it stood for, in order: what the move log stores, so a later alias
    # or parser change cannot break `pbem replay` (``ad 40`` -> ``advertise 40``; a one-line
    # action -> its card play and each point)
    applied: tuple[str, ...] = ()
    reason: str = ""  # why the server answered, where the note says it

    def note(self) -> str:
        where = f" ({self.about})" if self.about else ""
        return {
            "queued": f"from your queue: {self.command}{where}",
            "standing": f"by standing order: {self.command}{where}",
            "forced": f"{self.command}{where}: your only legal choice",
            "declined": f"declined for you: {self.about} — {self.reason}; 'standing trigger "
            "ask' brings this question back",
        }[self.why]


def about(g: engine.GameState, side: str) -> str:
    """The question ``side`` faces, in a few words: the step and the card it is about."""
    step = step_name(forced.deciding_step(g, side) or "")
    card = forced.step_card(g)
    return f"{step} #{card} {engine.card_info(card)['name']}" if card is not None else step


def _standing_command(g: engine.GameState, side: str, st: Standing) -> str | None:
    step = forced.deciding_step(g, side)
    legal = engine.legal_commands(g, side)
    if step == "trigger":
        card = forced.step_card(g)
        icon = engine.card_info(card)["icon"] if card is not None else ""
        want = {
            "never": "decline",
            "always": "trigger",
            "icon": "trigger" if icon in (side, "both") else "decline",
        }.get(st.trigger)
        return want if want in legal else None
    if step == "issue_swap" and st.swap == "decline" and "decline" in legal:
        return "decline"
    if step in ("election_card", "election_event") and st.election:
        for card in st.election:
            if f"resolve {card}" in legal:
                return f"resolve {card}"
        return None
    if step in CP_STEPS and st.done == "auto" and "done" in legal:
        useful = CP_STEPS[step]
        if not any(c.split()[0] in useful for c in legal):
            return "done"
    if st.preempt == "never":
        plain = [c for c in legal if not c.endswith(" preempt")]
        if len(plain) == 1 and len(legal) > 1 and not forced.reveals(g, side, plain[0]):
            return plain[0]
    return None


Next = tuple[str, str, engine.GameState, list[str], str]  # command, why, state, canonical, reason


def _declined(g: engine.GameState, side: str, st: Standing) -> str | None:
    """Why the trigger question before ``side`` is declined for them by default: the event can
    only favour the opponent (`pbem.games.triggers`), or None."""
    if st.trigger != "useful" or forced.deciding_step(g, side) != "trigger":
        return None
    card = forced.step_card(g)
    why = None if card is None else only_for_opponent(card, side)
    if why is None or "decline" not in engine.legal_commands(g, side):
        return None
    opp = "Nixon" if side == "kennedy" else "Kennedy"
    return f"its event can only favour {opp} ({why}; R6.7)"


def asks_for(g: engine.GameState, side: str, line: str) -> bool:
    """Whether the question ``side`` faces now is the one ``line`` answers: its command word
    is among those of the legal commands (a queued line waits for its own question)."""
    words = line.strip().lower().replace(":", " ").split()
    if not words:
        return True
    verb = engine.SYNONYMS.get(words[0], words[0])
    return verb in {c.split()[0] for c in engine.legal_commands(g, side)}


def _next(g: engine.GameState, book: Book) -> Next | None:
    """What the server applies for ``book.side`` now, or None."""
    side = book.side
    if book.queue and asks_for(g, side, book.queue[0]):
        line = book.queue[0]
        try:
            after, applied = engine.apply_logged(g, side, line)
        except engine.CommandError as exc:
            rest = len(book.queue) - 1
            # the engine's reason often names the line itself: say it once
            why = (
                f"your queue stopped: {exc.reason}"
                if exc.reason.startswith(repr(line))
                else f"your queue stopped at {line!r}, not legal now: {exc.reason}"
            )
            cancelled = (
                "the line after it was cancelled"
                if rest == 1
                else f"the {counted(rest, 'line')} after it were cancelled"
            )
            book.notes.append(why + (f"; {cancelled}" if rest else ""))
            book.queue = []
        else:
            book.queue.pop(0)
            return line, "queued", after, applied, ""
    reason = _declined(g, side, book.standing)
    if reason is not None:
        return ("decline", "declined", *engine.apply_logged(g, side, "decline"), reason)
    cmd = _standing_command(g, side, book.standing)
    why = "standing"
    if cmd is None and FORCED:
        cmd, why = forced.forced_command(g, side), "forced"
    if cmd is None:
        return None
    return (cmd, why, *engine.apply_logged(g, side, cmd), "")


def settle(g: engine.GameState, books: dict[str, Book]) -> list[Auto]:
    """Apply queued, standing and forced commands in place until every side with a book must
    be asked (a side without one, a computer player between its moves, is left alone)."""
    done: list[Auto] = []
    while len(done) < MAX_AUTO:
        for side in sorted(engine.active_sides(g) & books.keys()):
            found = _next(g, books[side])
            if found is not None:
                cmd, why, after, applied, reason = found
                auto = Auto(side, cmd, why, about(g, side), tuple(applied), reason)
                g.update(after)  # the same keys: the state moves on in place
                books[side].notes.append(auto.note())
                done.append(auto)
                break
        else:
            return done
    return done


def orders_extra(session: Session, seat: Seat) -> dict[str, Any]:
    """The ``orders`` block alone (notify mode, standing orders, queue) for any other mail."""
    if seat.id is None:
        return {}
    row = session.get(SeatOrders, seat.id)
    if row is None:
        return {}
    book = book_of(row, seat.side)
    return {
        "orders": {
            "notify": row.notify,
            "notify_text": notify_text(row.notify, row.digest_hour),
            "standing": book.standing.describe(),
            "standing_default": book.standing.is_default(),
            "queue": book.queue,
            "notes": [],
            "answers": [],
        }
    }
