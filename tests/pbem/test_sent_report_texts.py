"""A seat's sent reports are read from the database only when reading a reply needs them.

The extract stage reads the text of a seat's latest reports (`pbem.pipeline.lines.SentReports`)
to tell quoted history from the player's own lines; a reply with no quote and no line that
could be a report's first line never reads them. The answers are the same as with every text
at hand.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

import engine
from pbem.mail import parse_message
from pbem.pipeline.lines import FIRST_LINE_WORDS, SentReports, _report_keys, read_text
from pbem.reports.render import KINDS, render
from tests.pbem.replystyles import STYLES, Report, reply_mail, reports
from tests.pbem.test_render import ctx_for, finished, position


@cache
def _reports() -> tuple[Report, ...]:
    return tuple(reports())


def _first_line(text: str) -> str:
    keys = _report_keys(text)
    assert keys, text[:200]
    return keys[0]


@pytest.mark.parametrize("kind", KINDS)
def test_the_first_line_of_every_kind_of_mail_holds_a_first_line_word(kind: str) -> None:
    """What `SentReports` relies on to leave an unsent report unrendered: a line without one
    of these words is never a report's first line."""
    g = finished() if kind == "game_over" else position()
    for side in engine.SIDES:
        for extra in ({}, {"reply_to": ""}, {"error": "a reason", "opponent": ""}):
            text = render(kind, ctx_for(g, side, **extra), text_only=True).text
            first = _first_line(text)
            assert any(word in first for word in FIRST_LINE_WORDS), (kind, first)
    for report in _reports():  # every kind the server sends, at several stages of a game
        first = _first_line(report.text)
        assert any(word in first for word in FIRST_LINE_WORDS), (report.name, first)


def _lazy(texts: list[str], loads: list[int]) -> SentReports:
    def load() -> list[str]:
        loads.append(1)
        return texts

    return SentReports(load=load)


@pytest.mark.parametrize("style", STYLES[::3], ids=lambda s: s.name)
def test_reports_read_when_needed_read_a_reply_as_their_texts_do(style: Any) -> None:
    """Every third client style, every kind of report, every position, with and without
    commands: the same reading as with the texts given."""
    for report in _reports():
        others = [r.text for r in _reports()[:3] if r is not report]
        for where in style.positions():
            for commands in ([], ["support Ohio", "trigger"]):
                raw = reply_mail(style, report, commands, where)
                text = parse_message(raw, "game@example.test").text
                texts = [report.text, *others]
                eager = read_text(text, SentReports(texts))
                assert read_text(text, _lazy(texts, [])) == eager, (report.name, where)


@pytest.mark.parametrize(
    "body",
    [
        "support Ohio\n\n-- \nKennedy\n",
        "Hi,\n\nfirst kennedy\ntrigger\n\nThanks\nJack\n",
        "say good luck\nfirst kennedy\n",
    ],
)
def test_a_reply_without_quote_or_first_line_reads_no_report(body: str) -> None:
    texts = [r.text for r in _reports()]
    loads: list[int] = []
    assert read_text(body, _lazy(texts, loads)) == read_text(body, SentReports(texts))
    assert loads == []


def test_a_line_that_may_be_a_first_line_reads_them() -> None:
    report = next(r for r in _reports() if r.name == "report1_kennedy")
    first = report.text.splitlines()[0]
    header = next(line for line in report.text.splitlines() if "MAKING OF" in line)
    for line in (first, header, header.lower(), "  ".join(header.split())):
        loads: list[int] = []
        sent = _lazy([report.text], loads)
        assert sent.starts_history(line) == SentReports([report.text]).starts_history(line)
        assert loads == [1] or SentReports([]).starts_history(line), line
