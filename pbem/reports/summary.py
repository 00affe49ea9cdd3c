"""What a decision mail summarises: everything since the player's previous decision.

`build` returns the plain data the ``_summary`` and ``_orders`` template partials lay out:
the log since a mark, grouped by action (each card play with every step of it: how it was
played, each point placed, each draw and its result, triggers and preempts), what changed on
the public board since the mark, the notes the server left for the player (moves it applied
for them, a cancelled queue), and the player's notify mode, standing orders and queue.

The log comes from ``engine.view(state, side)`` only and the board from the observer's view
(R17.1: public), so a summary never holds more than the player's own report could.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

import engine
from pbem.reports.model import explained_for

__all__ = ["Group", "board_changes", "build", "group_log", "notify_text"]

ACTION_START = re.compile(
    r"^(Kennedy|Nixon) (plays |preempts |has nothing to play|discards .* to play the Vice President)"
)
STRATEGY = re.compile(r"^(Kennedy|Nixon) puts a card on the campaign-strategy stack")
PHASES = (
    (re.compile(r"^Turn \d+ begins"), "Start of turn {turn}: cards and initiative"),
    (re.compile(r"^Momentum decay"), "Momentum phase (R10)"),
    (re.compile(r"(?i)^(the )?debates?\b|debate initiative"), "The debates (R12)"),
    (re.compile(r"(?i)^election day"), "Election Day (R13)"),
)
SIGN = {1: "Kennedy", -1: "Nixon"}


class Group(TypedDict):
    """One action (or phase) of the summary: a title and its log lines."""

    turn: int
    title: str
    entries: list[dict[str, Any]]


def _title(text: str, turn: int, current: Group | None) -> str | None:
    """The title of the group ``text`` starts, or None if it continues the current one."""
    m = ACTION_START.match(text)
    if m:
        if (
            current
            and current["title"].startswith(m.group(1))
            and current["entries"]
            and current["entries"][-1]["text"].startswith(f"{m.group(1)} preempts")
        ):
            return None  # the preempt line opens the same action (R6.8)
        return f"{m.group(1)}'s action"
    if STRATEGY.match(text):
        title = "Campaign strategy (R11)"
        return None if current and current["title"] == title else title
    for pattern, title in PHASES:
        if pattern.search(text):
            return title.format(turn=turn)
    return None


def group_log(log: Sequence[Mapping[str, Any]], since: int, side: str | None = None) -> list[Group]:
    """The view's log entries from index ``since`` on, grouped by action; each line with its
    cause (`report_model.explained`) and a line said several times in a row once, with its
    count (`repeated`). ``private``: the reader's (``side``) own line; once the game is over
    the view also holds the other side's, marked ``(was private to …)`` and told in the third
    person. ``side`` None: an observer, whose own line none is."""
    groups: list[Group] = []
    for e in log:
        if e["i"] < since:
            continue
        current = groups[-1] if groups else None
        title = _title(e["text"], e["turn"], current)
        if current is None or title is not None or current["turn"] != e["turn"]:
            # the first lines of a summary usually carry on an action begun before it
            fallback = "continued" if not groups and since > 0 else f"Turn {e['turn']}"
            current = {"turn": e["turn"], "title": title or fallback, "entries": []}
            groups.append(current)
        to = e["to"]
        mine = to is not None and to == side
        line = explained_for(e, side)
        entry = {
            "i": e["i"],
            "text": line,
            "private": mine,
            "was_private": to.title() if to and not mine else "",
            "line": line,
            "times": 1,
            "why": "",  # a computer player's reason (`report_model.with_reasons`)
        }
        last = current["entries"][-1] if current["entries"] else None
        if last is not None and (last["line"], last["private"], last["was_private"]) == (
            entry["line"],
            entry["private"],
            entry["was_private"],
        ):
            last["times"] += 1  # "Nixon campaigns in California (R7)." five times: one line
            last["text"] = repeated(last["line"], last["times"])
            continue
        current["entries"].append(entry)
    return groups


def repeated(text: str, times: int) -> str:
    """A log line said ``times`` times in a row, as one line: ``... (R7) — 5 times.``"""
    if times == 1:
        return text
    return f"{text[:-1] if text.endswith('.') else text} — {times} times."


def _support(n: int) -> str:
    return "empty" if n == 0 else f"{SIGN[1 if n > 0 else -1]} {abs(n)}"


def _label(kind: str, key: str) -> str:
    if kind == "states":
        return engine.STATES[key].name if key in engine.STATES else key
    if kind == "issues":
        return engine.issue_name(key)
    return f"{'Media' if kind == 'media' else 'Endorsement'}, {key.capitalize()}"


def board_changes(before: dict[str, Any] | None, after: dict[str, Any]) -> list[str]:
    """``Georgia: empty -> Nixon 2`` for every public space that changed, tracks too."""
    if not before:
        return []
    out = []
    for kind in ("states", "media", "endorsements", "issues"):
        for key, new in after[kind].items():
            old = before.get(kind, {}).get(key, 0)
            if old != new:
                out.append(f"{_label(kind, key)}: {_support(old)} -> {_support(new)}")
    if before.get("issue_order") and before["issue_order"] != after["issue_order"]:
        order = ", ".join(engine.issue_name(i) for i in after["issue_order"])
        out.append(f"Issue track now: {order}")
    for side in engine.SIDES:
        old, new = before.get("momentum", {}).get(side), after["momentum"][side]
        if old is not None and old != new:
            out.append(f"{side.title()} momentum: {old} -> {new}")
        old_t, new_t = before.get("tokens", {}).get(side), after["tokens"][side]
        if old_t and old_t != new_t:
            out.append(f"{side.title()}'s candidate token: {old_t} -> {new_t}")
    return out


def notify_text(notify: str, digest_hour: int) -> str:
    return {
        "decisions": "only when you must decide",
        "every": "after every move",
        "digest": f"once a day at {digest_hour:02d}:00 UTC",
    }.get(notify, notify)


def build(
    state: engine.GameState,
    side: str,
    *,
    since: int,
    decision: bool,
    before_board: str,
    notify: str,
    digest_hour: int,
    standing: list[str],
    standing_default: bool,
    queue: list[str],
    notes: list[str],
    answers: Sequence[dict[str, Any]] = (),
    view: engine.View | None = None,
) -> dict[str, Any]:
    """The extra template data of one mail (see the module docstring); ``view``: the caller's
    ``engine.view(state, side)``, if it holds one (the mail's own)."""
    v = engine.view(state, side) if view is None else view
    before = json.loads(before_board) if before_board else None
    return {
        "log_title": "Since your last decision" if decision else "Since your last report",
        "summary": {
            "groups": group_log(v["log"], since, v.get("side")),
            "changes": board_changes(before, dict(engine.public_board(state))) if decision else [],
        },
        "orders": {
            "notify": notify,
            "notify_text": notify_text(notify, digest_hour),
            "standing": standing,
            "standing_default": standing_default,
            "queue": list(queue),
            "notes": list(notes),
            "answers": [dict(a) for a in answers],
        },
    }
