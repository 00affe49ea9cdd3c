"""Reports rendered by the sender (``render_input``) are the very mails rendered when queued.

`pbem.outbox.queue.queue_mail` keeps what to render (`render_input`: the render context as JSON)
and the sender renders it right before composing (`pbem.outbox.compose.rendered`), on the
sending process in `pbem poll`. A seeded game played both ways sends the same bytes.
"""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from markupsafe import Markup
from sqlmodel import Session, select

import engine
from pbem.clocks.control import parse_control
from pbem.games import setup as game_setup
from pbem.outbox import compose as outbox_compose
from pbem.outbox import queue as replies
from pbem.outbox.compose import raw_message, rendered, text_of
from pbem.pipeline import rows
from pbem.store.models import OutboxMessage
from tests.pbem import harness
from tests.pbem.harness import EMAILS, Harness
from tests.pbem.mailtools import Capture

DATE = re.compile(rb"^Date: .*\r\n", re.M)


def play(folder: Path, monkeypatch: pytest.MonkeyPatch, *, defer: bool) -> list[bytes]:
    """Every mail of a seeded game (random legal moves, meta commands, a bad line)."""
    monkeypatch.setattr(replies, "DEFER_RENDER", defer)
    salts = itertools.count()
    monkeypatch.setattr(  # the seats' key salts (random): the same Reply-To and Message-IDs
        game_setup, "secrets", SimpleNamespace(token_hex=lambda n: f"{next(salts):0{2 * n}x}")
    )
    monkeypatch.setattr(harness, "_ids", itertools.count(1))  # the players' Message-IDs
    h = Harness(folder)
    h.new_game(seed=11, clock=parse_control("none"))  # no time left shown (the wall clock)
    rnd = random.Random(5)
    extra = {3: "help", 6: "status", 9: "card 12", 12: "history", 15: "fly to the moon"}
    for i in range(40):
        state = h.state()
        if engine.result(state) is not None:
            break
        side = rnd.choice(sorted(engine.active_sides(state)))
        body = extra.get(i) or rnd.choice(engine.legal_commands(state, side))
        h.reply(side, body)
    with Session(h.db) as s:
        kinds = {r.kind for r in s.exec(select(OutboxMessage))}
        deferred = [r for r in s.exec(select(OutboxMessage)) if r.render_input]
    assert {"welcome", "report", "help", "status", "card", "history", "rejected"} <= kinds
    assert bool(deferred) == defer and all(r.text and not r.html for r in deferred)
    monkeypatch.setattr(outbox_compose, "_TEXTS", {})
    for r in deferred:  # the text alone (no HTML, no picture), as the pipeline reads it unsent
        unsent = SimpleNamespace(text="", render_input=r.render_input, message_id=r.message_id)
        assert text_of(unsent) == r.text
    return [DATE.sub(b"", m.raw) for m in h.sender.sent]


def test_a_game_sends_the_same_bytes_rendered_by_the_sender(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = play(tmp_path / "queued", monkeypatch, defer=False)
    after = play(tmp_path / "deferred", monkeypatch, defer=True)
    assert len(before) > 40
    for i, (a, b) in enumerate(zip(before, after, strict=True)):
        assert a == b, f"mail {i} differs"


def test_a_deferred_row_reads_as_the_rendered_mail_before_and_after_it_is_sent(
    tmp_path: Path,
) -> None:
    h = Harness(tmp_path)
    from pbem import service

    gid = service.new_game(h.db, h.settings, kennedy=EMAILS["kennedy"], nixon=EMAILS["nixon"])
    with Session(h.db) as s:
        pending = list(s.exec(select(OutboxMessage).order_by(OutboxMessage.id)))
        texts = rows.report_texts(s, gid, "kennedy")
    assert all(r.render_input and not (r.subject or r.text or r.html) for r in pending)
    assert all(r.message_id in outbox_compose._TEXTS for r in pending if r.side == "kennedy")
    mails = [rendered(r) for r in pending]
    assert all(m.subject.startswith(f"[1960 #{gid}]") and "cid:board-" in m.html for m in mails)
    assert texts == [m.text for r, m in zip(pending, mails, strict=True) if r.side == "kennedy"]
    raws = [raw_message(h.settings, r) for r in pending]
    h.send()
    with Session(h.db) as s:
        sent = list(s.exec(select(OutboxMessage).order_by(OutboxMessage.id)))
        assert rows.report_texts(s, gid, "kennedy") == texts
    assert [(r.subject, r.text) for r in sent] == [(m.subject, m.text) for m in mails]
    assert [DATE.sub(b"", r) for r in raws] == [DATE.sub(b"", m.raw) for m in h.sender.sent]
    assert [DATE.sub(b"", raw_message(h.settings, r)) for r in sent] == [
        DATE.sub(b"", r) for r in raws
    ]  # sent, it still composes the same (rendered again, the picture drawn)


@pytest.mark.parametrize(
    "ctx",
    [
        {"view": {"hand": (1, 2)}},
        {"view": {1: "a"}},
        {"note": Markup("<b>x</b>")},
        {"when": __import__("datetime").date(2026, 12, 1)},
    ],
)
def test_a_context_json_would_change_is_rendered_when_queued(ctx: dict[str, Any]) -> None:
    assert replies.render_input("report", ctx) == ""


def test_a_plain_context_is_kept_as_json() -> None:
    ctx = {"view": {"hand": [1, 2], "x": None, "f": 1.5, "ok": True}, "side": "nixon"}
    import json

    assert json.loads(replies.render_input("report", ctx)) == {"kind": "report", "ctx": ctx}


def test_pbem_polls_sending_process_renders_the_reports_and_stores_their_text(
    tmp_path: Path, smtp_capture: tuple[Capture, int]
) -> None:
    from pbem import service
    from pbem.mail import SmtpSender
    from pbem.outbox_process import OutboxProcess

    capture, port = smtp_capture
    h = Harness(tmp_path)
    service.new_game(h.db, h.settings, kennedy=EMAILS["kennedy"], nixon=EMAILS["nixon"], seed=3)
    with Session(h.db) as s:
        pending = list(s.exec(select(OutboxMessage).order_by(OutboxMessage.id)))
    assert pending and all(r.render_input and not r.text for r in pending)
    expected = {r.message_id: DATE.sub(b"", raw_message(h.settings, r)) for r in pending}
    with OutboxProcess(h.db, h.settings, SmtpSender("127.0.0.1", port)) as pump:
        pump.nudge()  # the child claims, renders, sends and marks them
    assert pump.stats.sent == len(pending) == len(capture.messages)
    for _frm, _to, content in capture.messages:
        raw = DATE.sub(b"", content.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
        mid = raw.split(b"Message-ID: ", 1)[1].split(b"\r\n", 1)[0].decode()
        assert raw == expected[mid] and b"Content-ID: <board-" in raw
    sent = {r.message_id: r for r in h.outbox()}
    for r in pending:
        assert sent[r.message_id].status == "sent"
        assert (sent[r.message_id].subject, sent[r.message_id].text) == (
            rendered(r).subject,
            rendered(r).text,
        )
