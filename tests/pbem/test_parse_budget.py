"""The CPU budget for reading a mail before its sender is known (issue 14, 4; `pbem.mail.budget`).

A stranger's 200 KB of unclosed ``<a<a<a`` keeps the stdlib HTML parser busy for about a
minute; with the budget the mail is quarantined with the reason and the next mail (a legal
move) is applied in the same poll. No timing is asserted: the budget is CPU seconds, the
figure is printed by ``benchmarks/bench_parse_budget.py``.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from sqlmodel import Session, select

import engine
from pbem.config import load_settings
from pbem.mail.budget import OverBudget, cpu_budget
from pbem.mail.htmltext import html_to_text
from pbem.store.models import Quarantine
from tests.pbem.harness import Harness
from tests.pbem.mailtools import player_mail


def slow_html_mail(size: int = 200_000) -> bytes:
    """A stranger's HTML mail the stdlib parser needs about a minute for (at 200 KB)."""
    head = (
        "From: Stranger <s@elsewhere.test>\r\nTo: game@pbem.test\r\nSubject: hi\r\n"
        "Message-ID: <slow@elsewhere.test>\r\nMIME-Version: 1.0\r\n"
        "Content-Type: text/html; charset=utf-8\r\n\r\n"
    )
    return head.encode() + b"<a" * (size // 2)


def test_a_mail_over_the_cpu_budget_is_quarantined_with_the_reason_and_the_worker_goes_on(
    tmp_path: Path,
) -> None:
    h = Harness(tmp_path)
    h.settings = h.settings.with_(parse_cpu_seconds=0.3)
    h.new_game(seed=2)
    h.inbox.deliver(slow_html_mail())
    side = sorted(engine.active_sides(h.state()))[0]
    h.inbox.deliver(h.reply_bytes(side, h.legal(side)[0]))
    stats = h.poll()
    assert stats.outcomes == {"quarantined": 1, "applied": 1}
    assert len(h.inbox.folder_uids("Quarantine")) == len(h.inbox.folder_uids("Processed")) == 1
    with Session(h.db) as s:
        (row,) = s.exec(select(Quarantine)).all()
    assert row.stage == "parse" and "OverBudget" in row.error and "0.3 s of CPU" in row.error


def test_a_normal_mail_is_read_well_within_the_default_budget(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    assert h.settings.parse_cpu_seconds == 5.0
    h.new_game(seed=2)
    html = "<div>" + "<p>first kennedy</p><blockquote>old report</blockquote>" * 200 + "</div>"
    raw = player_mail("jack@players.test", str(h.last_mail("kennedy")["Reply-To"]), "x")
    raw = (
        raw.replace(b"text/plain", b"text/html").split(b"\r\n\r\n")[0] + b"\r\n\r\n" + html.encode()
    )
    h.inbox.deliver(raw)
    assert "quarantined" not in h.poll().outcomes


def test_outside_the_main_thread_the_converter_checks_the_budget_itself() -> None:
    html = "<div><p>x</p></div>" * 19_000  # 19,000 elements: under the element cap
    caught: list[BaseException] = []

    def convert() -> None:
        try:
            with cpu_budget(0.001):
                html_to_text(html)
        except OverBudget as exc:
            caught.append(exc)

    worker = threading.Thread(target=convert)
    worker.start()
    worker.join(60)
    assert caught and "0.001 s of CPU" in str(caught[0])


def test_the_budget_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_PARSE_CPU_SECONDS", "2.5")
    assert load_settings(None).parse_cpu_seconds == 2.5
    monkeypatch.setenv("PBEM_PARSE_CPU_SECONDS", "soon")
    with pytest.raises(ValueError, match="PBEM_PARSE_CPU_SECONDS"):
        load_settings(None)
