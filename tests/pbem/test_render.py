"""Player mail rendering (`pbem.reports.render`): every kind, both sides, real engine positions.

Positions come from `engine.new_game` and random legal commands through
`engine.apply`. The leak test renders every report of a few random games for
both sides and checks that no card private to the other side (hand, strategy
stack, debate hand; R17.3) is named, unless the recipient's own view made it
public (played, discarded, revealed by an event).
"""

from __future__ import annotations

import json
import random
import re
import textwrap
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import markupsafe
import pytest
from hypothesis import given, settings, strategies

import engine
from pbem.reports import cardtext
from pbem.reports import render as render_mod
from pbem.reports.model import as_written, decision_cards, examples, group_legal
from pbem.reports.render import KINDS, Rendered, render
from tests.pbem.data.golden.regenerate import stable_html

GOLDEN = Path(__file__).parent / "data" / "golden"
MAX_COLUMNS = 78
SIDES = ("kennedy", "nixon")


def ctx_for(g: dict[str, Any], side: str, **extra: Any) -> dict[str, Any]:
    ctx: dict[str, Any] = {
        "game_id": 12,
        "side": side,
        "view": engine.view(g, side),
        "since": 0,
        "results": [],
        "error": None,
        "opponent": "nixon@example.test" if side == "kennedy" else "kennedy@example.test",
        "reply_to": f"game+{side[0]}12abc@example.test",
        "edition": g["edition"],
        "options": list(g["options"]),
    }
    ctx.update(extra)
    return ctx


def random_move(g: dict[str, Any], rnd: random.Random) -> tuple[str, str]:
    side = rnd.choice(sorted(engine.active_sides(g)))
    return side, rnd.choice(engine.legal_commands(g, side))


def playout(seed: int, moves: int | None = None, edition: str = "zman") -> Iterator[dict[str, Any]]:
    """Yield the state after setup and after every random legal command."""
    rnd = random.Random(seed)
    g = engine.new_game(seed, edition=edition)
    yield g
    n = 0
    while engine.active_sides(g) and (moves is None or n < moves):
        side, cmd = random_move(g, rnd)
        g = engine.apply(g, side, cmd)
        n += 1
        yield g


def position(seed: int = 5, moves: int = 25) -> dict[str, Any]:
    *_, last = playout(seed, moves)
    return last


def finished(seed: int = 3) -> dict[str, Any]:
    *_, last = playout(seed)
    assert engine.result(last) is not None
    return last


def private_cards(g: dict[str, Any], side: str) -> set[int]:
    """Cards only ``side`` may know about (R17.2): hand, stack, debate hand."""
    cards = set(g["hands"][side]) | set(g["stacks"][side])
    if g["debate"] is not None:
        cards |= set(g["debate"]["hands"][side])
    return cards


def public_to(view: dict[str, Any]) -> set[int]:
    """Cards the recipient's view itself makes known (played, discarded, revealed, logged)."""
    known = set(view["discard"]) | set(view["removed"]) | {e["card"] for e in view["effects"]}
    for cards in view["persistent"].values():
        known |= set(cards)
    for r in view.get("revealed", []):
        known |= set(r["cards"]) | {r["card"]}
    if view["debate"]:
        for sides in view["debate"]["board"].values():
            for cards in sides.values():
                known |= set(cards)
    log = " ".join(e["text"] for e in view["log"])
    known |= {int(n) for n in re.findall(r"#(\d+)\b", log)}
    return known


def names_card(text: str, n: int) -> bool:
    """Whether ``text`` names card ``n`` (plain or HTML-escaped, as a whole phrase)."""
    name = engine.CARDS[n].name
    return any(
        re.search(r"(?<![\w'])" + re.escape(form) + r"(?![\w'])", text)
        for form in {name, str(markupsafe.escape(name))}
    )


def any_card_name(cards: set[int]) -> re.Pattern[str]:
    """One pattern matching any of the cards' names, plain or HTML-escaped."""
    forms = {
        f
        for n in cards
        for f in (engine.CARDS[n].name, str(markupsafe.escape(engine.CARDS[n].name)))
    }
    return re.compile(r"(?<![\w'])(" + "|".join(map(re.escape, sorted(forms))) + r")(?![\w'])")


def check_width(mail: Rendered) -> None:
    wide = [line for line in mail.text.splitlines() if len(line) > MAX_COLUMNS]
    assert not wide, f"lines wider than {MAX_COLUMNS} columns: {wide[:3]}"


# -- every kind renders -----------------------------------------------------------------


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_renders_for_both_sides(kind: str, side: str) -> None:
    g = finished() if kind == "game_over" else position()
    mail = render(
        kind, ctx_for(g, side, error="a reason" if kind in ("rejected", "key_problem") else None)
    )
    assert mail.subject.startswith("[1960 #12] ")
    assert mail.text.endswith("\n") and "\n\n\n" not in mail.text
    assert mail.html.startswith("<!DOCTYPE html>") and mail.html.rstrip().endswith("</html>")
    assert "game #12" in mail.text
    check_width(mail)


@pytest.mark.parametrize("kind", ["help", "key_problem"])
def test_help_and_key_problem_need_no_view(kind: str) -> None:
    mail = render(
        kind,
        {
            "game_id": 4,
            "side": "nixon",
            "reply_to": "game+k@example.test",
            "error": "this key belongs to turn 2",
            "opponent": "",
        },
    )
    assert mail.subject.startswith("[1960 #4] ")
    assert "You play Nixon against Kennedy." in mail.text
    assert "game+k@example.test" in mail.text and "game+k@example.test" in mail.html
    assert ("this key belongs to turn 2" in mail.text) == (kind == "key_problem")


def test_unknown_kind_and_missing_view_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown mail kind"):
        render("postcard", ctx_for(position(), "kennedy"))
    with pytest.raises(ValueError, match="needs ctx\\['view'\\]"):
        render("report", {"game_id": 1, "side": "kennedy"})


def test_templates_exist_for_every_kind() -> None:
    root = render_mod.template_dir()
    for kind in KINDS:
        assert (root / "text" / f"{kind}.txt.j2").is_file()
        assert (root / "html" / f"{kind}.html.j2").is_file()
    # the installed package carries them as pbem/reports/templates (symlink in the checkout)
    packaged = Path(render_mod.__file__).parent / "templates"
    assert packaged.resolve() == (Path(render_mod.__file__).parents[2] / "templates").resolve()


class TagBalance(HTMLParser):
    """Collects mismatched open/close tags (void elements excepted)."""

    VOID = frozenset({"meta", "br", "hr", "img", "input", "link"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


@pytest.mark.parametrize("kind", KINDS)
def test_html_tags_are_balanced(kind: str) -> None:
    g = finished() if kind == "game_over" else position()
    results = [
        {"line": "done", "ok": True, "message": "fine"},
        {"line": "x", "ok": False, "message": "no"},
    ]
    checker = TagBalance()
    checker.feed(render(kind, ctx_for(g, "nixon", results=results, error="why")).html)
    assert checker.errors == [] and checker.stack == []


# -- content ----------------------------------------------------------------------------


@pytest.mark.parametrize("side", SIDES)
def test_report_shows_own_hand_board_and_decision(side: str) -> None:
    g = position()
    view = engine.view(g, side)
    mail = render("report", ctx_for(g, side))
    assert view["hand"], "the test position should give both sides cards"
    for n in view["hand"]:
        assert names_card(mail.text, n) and names_card(mail.html, n)
    for st in ("NY", "CA", "TX", "AK", "HI"):
        assert re.search(rf"\b{st}\s+\d+ ", mail.text)
    assert "Issues, 1st to 3rd: 1. " in mail.text
    assert (
        f"Momentum:   Kennedy {view['momentum']['kennedy']}, Nixon {view['momentum']['nixon']}"
        in mail.text
    )
    assert view["decision"].split()[0] in mail.text
    if side in view["active"]:
        assert "IT IS YOUR MOVE." in mail.text
        for e in examples(view["legal"]):
            assert f"\n    {e}\n" in mail.text
    else:
        assert "Waiting for" in mail.text


def test_report_lists_results_and_news_since_last_report() -> None:
    g = position()
    view = engine.view(g, "kennedy")
    since = view["log"][-4]["i"]
    results = [
        {"line": "campaign 9", "ok": True, "message": "Kennedy plays a card."},
        {"line": "support NY", "ok": True, "message": ""},
    ]
    text = render("report", ctx_for(g, "kennedy", since=since, results=results)).text
    assert "-- RESULTS OF YOUR ORDERS" in text and "OK     campaign 9" in text
    news = text[text.index("-- SINCE YOUR LAST REPORT") : text.index("-- YOUR ")]
    flat = " ".join(news.split())
    new = [e["text"] for e in view["log"] if e["i"] >= since]
    old = {e["text"] for e in view["log"] if e["i"] < since} - set(new)
    assert new and all(" ".join(t.split()) in flat for t in new)
    assert old and not any(" ".join(t.split()) in flat for t in old)


def test_rejected_shows_failing_line_reason_and_hides_prefix_results() -> None:
    g = position()
    results = [
        {"line": "campaign 9", "ok": True, "message": "SECRET draw: Kennedy, Nixon, Kennedy"},
        {"line": "support ZZ", "ok": False, "message": "'ZZ' is not a state"},
    ]
    mail = render(
        "rejected", ctx_for(g, "kennedy", results=results, error="line 2: 'ZZ' is not a state")
    )
    assert mail.subject == f"[1960 #12] Turn {g['turn']} — error in your orders"
    assert "REJECTED support ZZ" in mail.text and "'ZZ' is not a state" in mail.text
    assert "campaign 9   (not applied)" in mail.text
    # a rejected mail must reveal nothing its applied prefix would have (issue 5, step 4)
    assert "SECRET" not in mail.text and "SECRET" not in mail.html


def test_game_over_shows_final_tally() -> None:
    g = finished()
    res = engine.result(g)
    assert res is not None
    for side in SIDES:
        mail = render("game_over", ctx_for(g, side))
        assert mail.subject.startswith(f"[1960 #12] Turn {g['turn']} — game over")
        assert f"The winner: {str(res['winner']).title()}." in mail.text
        for s in SIDES:
            row = re.search(rf"{s.title()}\s+(\d+)\s+(\d+)\s+(\d+)", mail.text)
            assert row is not None
            assert int(row.group(1)) == res["electoral_votes"][s]
            assert int(row.group(2)) == res["states_won"][s]


def test_help_lists_every_registered_verb() -> None:
    mail = render("help", ctx_for(position(), "nixon"))
    for v in engine.VERBS.values():
        assert re.search(rf"^{re.escape(v.name)}\b", mail.text, re.M), v.name
        assert " ".join(v.help.split()[:4]) in " ".join(mail.text.split())
        assert v.example in mail.text
        assert str(markupsafe.escape(v.help)) in mail.html
        assert str(markupsafe.escape(v.example)) in mail.html
    assert mail.subject == "[1960 #12] Command reference and cards"


def test_html_is_escaped_and_text_is_not() -> None:
    evil = "<script>alert('x')</script>"
    mail = render(
        "rejected",
        ctx_for(
            position(),
            "kennedy",
            opponent=evil,
            error=evil,
            results=[{"line": evil, "ok": False, "message": evil}],
        ),
    )
    assert "<script>" not in mail.html
    assert "&lt;script&gt;" in mail.html
    assert evil in mail.text


# -- subjects ---------------------------------------------------------------------------


def test_subjects_say_whose_move_it_is() -> None:
    g = position()
    active = engine.active_sides(g)
    assert len(active) == 1
    mover = next(iter(active))
    waiter = "nixon" if mover == "kennedy" else "kennedy"
    turn = g["turn"]
    assert render("report", ctx_for(g, mover)).subject == f"[1960 #12] Turn {turn} — your move"
    assert render("report", ctx_for(g, waiter)).subject == (
        f"[1960 #12] Turn {turn} — waiting for {mover.title()}"
    )
    assert render("status", ctx_for(g, mover)).subject == f"[1960 #12] Turn {turn} — your move"
    welcome = engine.new_game(1)
    first = next(iter(engine.active_sides(welcome)))
    assert render("welcome", ctx_for(welcome, first)).subject == (
        f"[1960 #12] Turn 1 — new game, you are {first.title()}: your move"
    )
    assert render("key_problem", ctx_for(g, mover)).subject.startswith(
        "[1960 #12] Reply not accepted"
    )
    done = finished()
    winner = str(engine.result(done)["winner"]).title()  # type: ignore[index]
    assert render("report", ctx_for(done, "kennedy")).subject == (
        f"[1960 #12] Turn {done['turn']} — game over: {winner} wins"
    )


# -- legal command display --------------------------------------------------------------


def test_group_legal_is_compact() -> None:
    support = [f"support {s}" for s in engine.STATES if s != "MA"]
    groups = {
        g["verb"]: g["args"]
        for g in group_legal(
            [
                *support,
                "check MA 1",
                "check MA 2",
                "debate 10 kennedy",
                "debate 10 nixon",
                "debate 73",
                "campaign 14",
                "campaign 14 preempt",
                "campaign 29",
                "done",
            ],
            own_cards={10, 14, 29, 73},
        )
    }
    assert groups["support"] == "any state except MA"
    assert groups["check"] == "MA 1-2"
    assert groups["debate"] == "10 kennedy/nixon, 73"
    assert groups["campaign"].startswith("14, 29") and "preempt with: 14" in groups["campaign"]
    assert groups["done"] == ""


def test_cards_outside_the_hand_are_named_in_legal_commands() -> None:
    (group,) = group_legal(["take 42", "take 7"], own_cards=set())
    assert group["args"] == f"42 ({engine.CARDS[42].name}), 7 ({engine.CARDS[7].name})"


def test_issues_in_legal_commands_read_as_the_rules_name_them() -> None:
    groups = group_legal(
        ["issue defense", "issue economy", "issue civil_rights", "swap civil_rights defense"],
        own_cards=set(),
    )
    assert [g["args"] for g in groups] == ["defense, economy, civil rights", "civil rights defense"]
    assert examples(["swap civil_rights defense", "decline"]) == [
        "swap civil rights defense",
        "decline",
    ]
    legal = ["swap civil_rights defense", "decline"]
    assert engine.parse("swap civil rights defense", legal) == ["swap civil_rights defense"]


def test_examples_come_from_the_legal_list() -> None:
    for g in playout(8, 80):
        side = sorted(engine.active_sides(g))[0] if engine.active_sides(g) else "kennedy"
        legal = engine.legal_commands(g, side)
        ex = examples(legal)
        assert set(ex) <= {as_written(c) for c in legal}
        assert all(engine.parse(e, legal) for e in ex)  # as written, each reads as a legal one
        assert len(ex) == min(3, len({c.split()[0] for c in legal}))


# -- hidden information ------------------------------------------------------------------


@pytest.fixture
def no_card_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Card event texts are fixed rules text (they name other cards, e.g. #1 names #73), the
    same in every position: the leak checks look at everything else."""
    monkeypatch.setattr(cardtext, "event_text", lambda n: "")


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_no_report_names_the_opponents_private_cards(seed: int, no_card_texts: None) -> None:
    since = dict.fromkeys(SIDES, 0)
    checked = 0
    for i, g in enumerate(playout(seed, edition="gmt" if seed == 22 else "zman")):
        for side in SIDES:
            opp = "nixon" if side == "kennedy" else "kennedy"
            ctx = ctx_for(g, side, since=since[side], picture=False)  # pictures: test_boardmap
            kind = "welcome" if i == 0 else ("game_over" if engine.result(g) else "report")
            mail = render(kind, ctx)
            secret = private_cards(g, opp) - public_to(ctx["view"])
            if secret:
                leak = any_card_name(secret)
                assert not leak.search(mail.text), (side, leak.findall(mail.text))
                assert not leak.search(mail.html), (side, leak.findall(mail.html))
            check_width(mail)
            since[side] = len(g["log"])
            checked += 1
    assert checked > 100


def test_the_leak_check_catches_a_report_built_from_the_wrong_view() -> None:
    g = position()
    ctx = ctx_for(g, "kennedy", view=engine.view(g, "nixon"))  # the bug the check guards against
    secret = private_cards(g, "nixon") - public_to(engine.view(g, "kennedy"))
    assert any_card_name(secret).search(render("report", ctx).text)


# -- golden files -------------------------------------------------------------------------


def golden_ctx(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.ctx.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("name", ["report_kennedy", "report_nixon", "game_over_kennedy"])
def test_golden_rendering(name: str) -> None:
    """Stable output for stored views (after a deliberate change: tests/pbem/data/golden/regenerate.py --keep-ctx)."""
    kind = name.rsplit("_", 1)[0]
    mail = render(kind, golden_ctx(name))
    assert mail.subject == (GOLDEN / f"{name}.subject").read_text(encoding="utf-8").strip()
    assert mail.text == (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
    assert stable_html(mail.html) == (GOLDEN / f"{name}.html").read_text(encoding="utf-8")


def test_lines_not_read_as_commands_are_listed_in_reports_and_rejections() -> None:
    """A mail's non-command lines are shown back, so a typo is never silently dropped."""
    g = engine.new_game(3)
    side = sorted(engine.active_sides(g))[0]
    ctx = {
        "game_id": 4,
        "side": side,
        "view": engine.view(g, side),
        "since": 0,
        "results": [{"line": "first nixon", "ok": True, "message": "ok"}],
        "error": None,
        "opponent": "x@example.test",
        "reply_to": "game+k@example.test",
        "ignored": ["frobnicate the vote", "<b>bold</b>"],
    }
    for kind in ("report", "rejected"):
        out = render(kind, {**ctx, "error": "no command found" if kind == "rejected" else None})
        assert "frobnicate the vote" in out.text
        assert "ignored" in out.text.lower()
        assert "&lt;b&gt;bold&lt;/b&gt;" in out.html and "<b>bold</b>" not in out.html


_WRAP_TEXT = strategies.lists(
    strategies.sampled_from(
        ["a", "b", "word", "—", "×", "-", " ", "  ", "\t", "\n", "\u00a0", "\x0b"]
    ),
    max_size=60,
).map("".join)


@settings(max_examples=600, deadline=None)
@given(
    text=_WRAP_TEXT,
    indent=strategies.integers(0, 6),
    hang=strategies.none() | strategies.integers(0, 8),
    width=strategies.integers(10, 80),
)
def test_wrap_is_textwraps_fill_for_every_text(
    text: str, indent: int, hang: int | None, width: int
) -> None:
    """The one-line shortcut of `render.wrap` gives what `textwrap.fill` gives, whitespace of
    every kind, a text that just fits and one a column too long included."""
    h = indent if hang is None else hang
    filled = textwrap.fill(
        text,
        width=width,
        initial_indent=" " * indent,
        subsequent_indent=" " * h,
        break_long_words=False,
        break_on_hyphens=False,
    )
    assert render_mod.wrap(text, indent, hang, width) == (filled or " " * indent)


def test_a_choice_from_the_discard_pile_quotes_every_card_in_it() -> None:
    """Found by playing: #66 Adlai Stevenson's 'take N' from a discard pile of 12 quoted only
    the first five cards' texts; the player chose among the other seven blind."""
    pile = [4, 5, 8, 21, 30, 32, 33, 42, 43, 61, 62, 84]
    view = {
        "decision": "#66 Adlai Stevenson: 'take N' to add a card from the discard pile to your hand",
        "legal": [f"take {n}" for n in pile] + ["done"],
    }
    assert [row["number"] for row in decision_cards(view, own={26})] == [66, *pile]
