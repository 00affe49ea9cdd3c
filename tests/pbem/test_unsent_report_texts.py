"""Reports queued but not sent yet are rendered by the applying process only when a reply needs them.

The extract stage reads the text of a seat's latest reports (`pbem.pipeline.lines.SentReports`)
to tell quoted history from the player's own lines. A report the sending process has not sent
yet has no stored text (`render_input` only), so reading it means rendering it; in `pbem poll`
with the sender behind (benchmark 2: every reply answers a report still queued) that was ~25 %
of the applying process's CPU. Now an unsent report is rendered only when an answer depends on
its text; the answers are the same as with every text at hand.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, select

import engine
from pbem import service
from pbem.mail import parse_message
from pbem.pipeline.lines import FIRST_LINE_WORDS, SentReports, _report_keys, read_text
from pbem.reports import render as render_mod
from pbem.reports.render import KINDS, render
from pbem.store.models import OutboxMessage
from tests.pbem.harness import EMAILS, Harness, player_mail
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


def _lazy(texts: list[str], rendered: list[str]) -> SentReports:
    def later(text: str) -> Callable[[], str]:
        def made() -> str:
            rendered.append(text)
            return text

        return made

    return SentReports((), [later(t) for t in texts])


def _loader(texts: list[str], unrendered: list[Callable[[], str]]) -> Any:
    return lambda: (texts, unrendered)


@pytest.mark.parametrize("style", STYLES[::3], ids=lambda s: s.name)
def test_unrendered_reports_read_a_reply_as_their_texts_do(style: Any) -> None:
    """Every third client style, every kind of report, every position, with and without
    commands: the same reading as with the texts given, rendered or not."""
    for report in _reports():
        others = [r.text for r in _reports()[:3] if r is not report]
        for where in style.positions():
            for commands in ([], ["support Ohio", "trigger"]):
                raw = reply_mail(style, report, commands, where)
                text = parse_message(raw, "game@example.test").text
                texts = [report.text, *others]
                eager = read_text(text, SentReports(texts))
                assert read_text(text, _lazy(texts, [])) == eager, (report.name, where)
                half = SentReports(texts[1:], [partial(str, report.text)])  # some sent, some not
                assert read_text(text, half) == eager, (report.name, where)
                later = SentReports(load=_loader(texts[1:], [partial(str, report.text)]))
                assert read_text(text, later) == eager, (report.name, where)


@pytest.mark.parametrize(
    "body",
    [
        "support Ohio\n\n-- \nKennedy\n",
        "Hi,\n\nfirst kennedy\ntrigger\n\nThanks\nJack\n",
        "say good luck\nfirst kennedy\n",
    ],
)
def test_a_reply_without_quote_or_first_line_renders_no_report(body: str) -> None:
    texts = [r.text for r in _reports()]
    rendered: list[str] = []
    assert read_text(body, _lazy(texts, rendered)) == read_text(body, SentReports(texts))
    assert rendered == []
    loads: list[int] = []
    later = SentReports(load=lambda: (loads.append(1), (texts, []))[1])
    assert read_text(body, later) == read_text(body, SentReports(texts))
    assert loads == []


def test_a_line_that_may_be_a_first_line_renders_them() -> None:
    report = next(r for r in _reports() if r.name == "report1_kennedy")
    first = report.text.splitlines()[0]
    header = next(line for line in report.text.splitlines() if "MAKING OF" in line)
    for line in (first, header, header.lower(), "  ".join(header.split())):
        rendered: list[str] = []
        sent = _lazy([report.text], rendered)
        assert sent.starts_history(line) == SentReports([report.text]).starts_history(line)
        assert rendered == [report.text] or SentReports([]).starts_history(line), line


def _unsent_poll(
    h: Harness, side: str, body: str, answers: Any, monkeypatch: pytest.MonkeyPatch
) -> list[str]:
    """Deliver ``side``'s mail answering ``answers`` (an outbox row or a mail) and poll without
    sending; the kinds the applying process rendered while doing so."""
    calls: list[str] = []
    real = render_mod.render

    def counted(kind: str, ctx: dict[str, Any], **kw: Any) -> Any:
        calls.append(kind)
        return real(kind, ctx, **kw)

    monkeypatch.setattr(render_mod, "render", counted)
    if isinstance(answers, OutboxMessage):
        to, mid = answers.reply_to, answers.message_id
    else:
        to, mid = str(answers["Reply-To"]), str(answers["Message-ID"])
    h.inbox.deliver(player_mail(EMAILS[side], to, body, in_reply_to=mid))
    stats = service.poll_once(h.db, h.settings, h.inbox)
    monkeypatch.setattr(render_mod, "render", real)
    assert stats.outcomes == {"applied": 1}, [i.detail for i in h.inbound()]
    return calls


def test_a_move_answering_unsent_reports_renders_none_of_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fails before: each of the seat's queued reports was rendered (text only) by the
    applying process to read a reply that quotes none of them."""
    h = Harness(tmp_path)
    h.new_game(seed=2)  # the welcome mails are sent; Kennedy has the initiative's choice
    welcome = h.mails_to("kennedy")[0]
    assert _unsent_poll(h, "kennedy", "first kennedy\n\n-- \nJack\n", welcome, monkeypatch) == []
    side = sorted(engine.active_sides(h.state()))[0]
    with Session(h.db) as s:
        unsent = [
            r
            for r in s.exec(select(OutboxMessage).where(OutboxMessage.side == side))
            if r.status == "pending" and r.render_input
        ]
    assert unsent  # the first move's report to this seat waits for the sender
    body = f"{h.legal(side)[0]}\n\n-- \n{side}\n"
    reads = h.selects_from("outboxmessage")
    assert _unsent_poll(h, side, body, unsent[-1], monkeypatch) == []
    assert reads == []  # nor are the seat's reports read: the reply needs none of them
    h.send()  # the mails queued are sent as ever
    assert len(h.mails_to(side)) >= 2
