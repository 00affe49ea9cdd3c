"""Render player-facing mail (subject, plain text, HTML) from an engine view.

`render(kind, ctx)` is the only entry point. ``kind`` is one of `KINDS`;
``ctx`` holds:

- ``game_id`` (int), ``side`` ("kennedy"/"nixon"),
- ``view``: ``engine.view(state, side)`` — the only game information used
  (optional for "help" and "key_problem"),
- ``since`` (log index of the first entry not yet reported),
- ``results``: ``[{"line", "ok", "message"}]`` for the lines of the player's
  mail, ``error`` (str or None), ``opponent`` (str), ``reply_to`` (address),
  ``edition`` and ``options`` (default: the view's),
- ``reasons``: ``{log index: reason}`` of a computer opponent's moves, shown beside the log
  lines they wrote (`pbem.games.bots.reasons_of`),
- ``picture`` (default True): draw the map picture (`pbem.reports.boardmap`) for mails that show the
  board; the HTML then refers to it as ``cid:`` and `Rendered.images` carries it.

Templates live in the top-level ``templates/`` folder (``text/*.txt.j2``,
``html/*.html.j2``); an installed package carries them as ``pbem/reports/templates``.
HTML templates are autoescaped, text templates are not; undefined names fail
loudly (StrictUndefined). Plain text is laid out for 72 columns.
"""

from __future__ import annotations

import hashlib
import re
import textwrap
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from pbem.reports import boardmap, onetap
from pbem.reports import model as report_model

KINDS = (
    "welcome",
    "report",
    "rejected",
    "help",
    "game_over",
    "key_problem",
    "status",
    "card",
    "history",
    "notice",
    "held",
    "receipt",
)
NO_VIEW_KINDS = ("help", "key_problem", "card")  # kinds that render without a view
# what each kind's templates show (tests/pbem/test_render_kinds.py reads the templates):
BOARD_KINDS = ("welcome", "report", "rejected", "game_over", "status", "notice")  # the board
ANSWER_KINDS = (  # the decision with its one-tap answers (`pbem.reports.onetap`)
    "welcome",
    "report",
    "rejected",
    "status",
    "notice",
    "held",
    "help",
    "key_problem",
)
HISTORY_INLINE = 150  # a longer history goes in an attached file, the mail shows the latest turn
WIDTH = 72
SIDE_COLOURS = {"kennedy": ("#1d4ed8", "#dbeafe"), "nixon": ("#b91c1c", "#fee2e2")}


@dataclass(frozen=True)
class Rendered:
    """One rendered mail: subject line, text/plain body, text/html body, inline pictures.

    ``images`` are what the HTML shows as ``<img src="cid:...">`` (the map picture); the mail
    layer sends them inside a ``multipart/related`` with the HTML.
    """

    subject: str
    text: str
    html: str
    images: tuple[boardmap.Picture, ...] = ()
    attachments: tuple[Attachment, ...] = ()


@dataclass(frozen=True)
class Attachment:
    """A file sent with a mail (the game log); the HTML names it by `cid`."""

    filename: str
    data: bytes
    content_type: str = "text/plain; charset=utf-8"

    @property
    def cid(self) -> str:
        return f"file-{hashlib.sha256(self.data).hexdigest()[:24]}@1960.pbem"


def render(kind: str, ctx: dict[str, Any]) -> Rendered:
    """Render mail ``kind`` (one of `KINDS`) for ``ctx`` (see the module docstring)."""
    if kind not in KINDS:
        raise ValueError(f"unknown mail kind {kind!r}: expected one of {', '.join(KINDS)}")
    if kind not in NO_VIEW_KINDS and ctx.get("view") is None:
        raise ValueError(f"a {kind!r} mail needs ctx['view'] (engine.view for the recipient)")
    model = report_model.build(kind, ctx)
    model["reveal"] = ctx.get(
        "reveal"
    )  # the fair-play reveal of a final mail (pbem.games.fairplay)
    env = environment()
    images: tuple[boardmap.Picture, ...] = ()
    if kind in BOARD_KINDS and model.get("board") is not None:
        if ctx.get("picture", True):
            # public keys of the view only (R17.1), as two halves
            images = boardmap.report_pictures(ctx["view"])
            model["board"]["map"] = [
                {"cid": p.cid, "alt": p.alt, "width": p.width, "height": p.height} for p in images
            ]
        else:
            model["board"]["map"] = None
        model["board_text"], model["board_html"] = board_parts(model["board"])
    attachments = _attachments(kind, model, env)
    model["attachments"] = [
        {"cid": a.cid, "filename": a.filename, "size": len(a.data)} for a in attachments
    ]
    text = env.get_template(f"text/{kind}.txt.j2").render(model)
    title = subject(kind, model)
    if kind in ANSWER_KINDS:  # the HTML's one-tap answers (mailto:)
        model["answers"] = onetap.answers(model, title)
    html = env.get_template(f"html/{kind}.html.j2").render(model)
    images = tuple(p for p in images if f"cid:{p.cid}" in html)  # only what the HTML shows
    return Rendered(
        subject=title,
        text=tidy_text(text),
        html=html,
        images=images,
        attachments=attachments,
    )


def _attachments(
    kind: str, model: dict[str, Any], env: jinja2.Environment
) -> tuple[Attachment, ...]:
    """The whole log as a text file: with a long ``history``, and at the game's end (when the
    view shows every line, nothing being secret any more)."""
    if kind == "history" and model.get("history_entries", 0) > HISTORY_INLINE:
        log = model["history"]
    elif kind == "game_over" and model.get("view"):
        log = model["full_log"]
    else:
        return ()
    text = tidy_text(env.get_template("text/log_file.txt.j2").render({**model, "file_log": log}))
    name = f"1960-game-{model['game_id']}-{'final-log' if kind == 'game_over' else 'log'}.txt"
    return (Attachment(filename=name, data=text.encode("utf-8")),)


def board_parts(board: dict[str, Any]) -> tuple[str, Markup]:
    """The board's text and HTML (``_board`` templates)."""
    env = environment()
    return (
        env.get_template("text/_board.txt.j2").render(board=board),
        Markup(env.get_template("html/_board.html.j2").render(board=board)),
    )


def states_html(states: list[dict[str, Any]]) -> Markup:
    """One region's states in the HTML board (``html/_states.html.j2``)."""
    return Markup(environment().get_template("html/_states.html.j2").render(states=states))


def subject(kind: str, m: dict[str, Any]) -> str:
    """``[1960 #12] Turn 3 — your move`` and its variants."""
    tag = f"[1960 #{m['game_id']}]" if m.get("game_id") is not None else "[1960]"
    if kind == "help":
        return f"{tag} Command reference and cards"
    if kind == "card":
        card = m.get("card")
        return f"{tag} Card #{card['number']} {card['name']}" if card else f"{tag} No such card"
    if kind == "history":
        return f"{tag} Game log to turn {m['turn']}"
    if kind == "key_problem":
        return f"{tag} Reply not accepted — reply key problem"
    if kind == "notice":
        return f"{tag} {m['notice']['subject']}"
    turn = f"Turn {m['turn']}"
    if kind == "rejected":
        return f"{tag} {turn} — error in your orders"
    if kind == "held":
        return f"{tag} {turn} — your orders are held for a check"
    if kind == "receipt":
        return f"{tag} {turn} — received, " + (
            "you are on the move" if m["my_move"] else f"waiting for {m['waiting_for']}"
        )
    if kind == "game_over" or m["over"]:
        tally, ending = m.get("tally"), m.get("ending")
        if ending:
            return f"{tag} {turn} — game over: {ending['winner']} wins ({ending['why']})"
        return f"{tag} {turn} — game over" + (f": {tally['winner']} wins" if tally else "")
    state = "your move" if m["my_move"] else f"waiting for {m['waiting_for']}"
    if kind == "welcome":
        return f"{tag} {turn} — new game, you are {m['Side']}: {state}"
    return f"{tag} {turn} — {state}"


def tidy_text(text: str) -> str:
    """Strip trailing blanks, keep at most one blank line in a row, end with a newline."""
    lines = [line.rstrip() for line in text.splitlines()]
    out = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")
    return out + "\n"


def template_dir() -> Path:
    """The templates folder: inside the installed package, else the source checkout's."""
    here = Path(__file__).resolve().parent
    for candidate in (
        here / "templates",
        here.parents[1] / "templates",
        here.parents[2] / "templates",
    ):
        if (candidate / "text").is_dir() and (candidate / "html").is_dir():
            return candidate
    raise FileNotFoundError(f"no templates/ folder beside {here} or its parent")


@cache
def environment() -> jinja2.Environment:
    """The shared Jinja2 environment (autoescape for ``.html.j2`` only)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(template_dir())),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(
            enabled_extensions=("html.j2",), default_for_string=False
        ),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,  # templates ship with the code: no stat() of each one at every render
    )
    env.filters.update(
        wrap=wrap,
        ljust=ljust,
        rjust=rjust,
        heading=heading,
        cell=cell,
        states_html=states_html,
        fg=lambda side: SIDE_COLOURS.get(side or "", ("#374151", ""))[0],
        bg=lambda side: SIDE_COLOURS.get(side or "", ("", "#ffffff"))[1],
    )
    env.globals.update(WIDTH=WIDTH)
    return env


def wrap(text: Any, indent: int = 0, hang: int | None = None, width: int = WIDTH) -> str:
    """Fill ``text`` to ``width`` columns; continuation lines indented by ``hang``.

    What `textwrap.fill` gives, which is ``text`` as it is (trailing spaces dropped) when it
    fits on one line and holds no whitespace but plain spaces: most lines of a report, written
    without `textwrap`'s splitting (a fifth of the text report's rendering)."""
    s = str(text)
    if indent + len(s) <= width and s.isprintable():
        return " " * indent + s.rstrip(" ")
    hang = indent if hang is None else hang
    return (
        textwrap.fill(
            s,
            width=width,
            initial_indent=" " * indent,
            subsequent_indent=" " * hang,
            break_long_words=False,
            break_on_hyphens=False,
        )
        or " " * indent
    )


def ljust(value: Any, n: int) -> str:
    return str(value).ljust(n)


def rjust(value: Any, n: int) -> str:
    return str(value).rjust(n)


def heading(title: str, width: int = WIDTH) -> str:
    """``-- TITLE -----…`` across the page."""
    head = f"-- {title.upper()} "
    return head + "-" * max(3, width - len(head))


def cell(c: dict[str, Any] | None) -> str:
    """One state in the text board: ``NY 45 K3``."""
    if not c:
        return ""
    return f"{c['abbr']} {c['ev']:>2} {c['sup']}"
