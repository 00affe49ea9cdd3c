"""Replies in real clients' formats, 13 languages, around real rendered reports (issue 10).

Two properties, over every style of `tests.pbem.replystyles` (attribution lines, header blocks,
separators, HTML quote containers; top, bottom and interleaved posting; plain, flowed and
flowed with DelSp):

* a reply that is nothing but a report quoted — any kind of mail the server sends — yields
  zero commands and nothing unreadable;
* a reply with commands (and a greeting in the client's language) yields exactly them.
"""

from __future__ import annotations

from functools import cache

import pytest

from pbem.mail import parse_message
from pbem.pipeline.lines import ReadReply, SentReports, read_text
from tests.pbem.replystyles import LANGUAGES, STYLES, Report, Style, reply_mail, reports

COMMANDS = ["campaign 17: NY 2, PA 1", "support Ohio", "trigger"]
GREETING = {
    "en": "Hi Bob,",
    "de": "Hallo Bob,",
    "fr": "Salut Bob,",
    "es": "Hola Bob,",
    "it": "Ciao Bob,",
    "nl": "Hoi Bob,",
    "da": "Hej Bob,",
    "no": "Hei Bob,",
    "sv": "Hej Bob,",
    "pl": "Cześć Bob,",
    "ru": "Привет, Боб!",
    "zh": "鲍勃你好，",
    "ja": "ボブさん、こんにちは。",
}
FLOWED = ("", "no", "yes")


@cache
def _reports() -> tuple[Report, ...]:
    return tuple(reports())


def _read(
    style: Style,
    report: Report,
    commands: list[str],
    position: str,
    flowed: str = "",
    *,
    sent: bool = True,
) -> ReadReply:
    raw = reply_mail(style, report, commands, position, flowed=flowed)
    text = parse_message(raw, "game@example.test").text
    return read_text(text, SentReports([report.text] if sent else []))


def _variants(style: Style) -> list[tuple[str, str]]:
    flows = FLOWED if style.html is None else ("",)
    return [(p, f) for p in style.positions() for f in flows]


def test_the_styles_cover_the_issue_languages_and_kinds() -> None:
    assert set(LANGUAGES) >= {
        "en",
        "de",
        "fr",
        "es",
        "it",
        "nl",
        "da",
        "no",
        "sv",
        "pl",
        "ru",
        "zh",
        "ja",
    }
    assert {s.quoting for s in STYLES} == {"quote", "history", "html"}


@pytest.mark.parametrize("style", STYLES, ids=lambda s: s.name)
def test_a_quoted_report_alone_is_never_a_command(style: Style) -> None:
    """Property: every report kind × every position (flowed variants in turn) → zero commands.

    Read without the sent-report guard (only quote detection and the marker), the stricter case.
    """
    for j, report in enumerate(_reports()):
        for k, position in enumerate(style.positions()):
            flowed = "" if style.html is not None else FLOWED[(j + k) % len(FLOWED)]
            found = _read(style, report, [], position, flowed, sent=False)
            where = f"{report.name} {position} flowed={flowed!r}"
            assert found.commands == [], where
            assert found.unreadable == [], where
            assert not found.undo and found.talk == [], where


@pytest.mark.parametrize("style", STYLES, ids=lambda s: s.name)
def test_the_commands_of_a_reply_are_read_exactly(style: Style) -> None:
    report = next(r for r in _reports() if r.name == "report1_kennedy")
    greeting = GREETING[style.language]
    for position, flowed in _variants(style):
        own = [greeting, "", *COMMANDS] if position == "top" else COMMANDS
        found = _read(style, report, own, position, flowed)
        assert found.commands == COMMANDS, f"{position} flowed={flowed!r}"
        assert found.unreadable == []


def test_flowed_soft_break_before_a_command_does_not_swallow_it() -> None:
    """RFC 3676 §4.5: a quoted line ending in a soft break never joins an unquoted line."""
    raw = (
        b"From: kim@players.test\r\nTo: game@example.test\r\nSubject: Re\r\n"
        b"Message-ID: <f1@players.test>\r\n"
        b"Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\r\n\r\n"
        b"On Sun, Nov 29, 2026 at 9:00 AM game <g@example.test> wrote:\r\n"
        b"> For example, reply with: \r\n"
        b"event 22\r\n"
        b"campaign 17: NY 2,  \r\n"
        b"PA 1\r\n"
    )
    text = parse_message(raw, "game@example.test").text
    assert read_text(text).commands == ["event 22", "campaign 17: NY 2, PA 1"]


def test_an_example_command_typed_below_or_between_the_quote_is_a_command() -> None:
    """The report's own example (``first kennedy``) typed by the player bottom-posting or
    interleaving is the player's line: it stands alone among quoted lines (found by playing)."""
    report = next(r for r in _reports() if r.name == "report1_kennedy")
    example = "media west"
    assert any(line.strip() == example for line in report.text.splitlines())
    sent = SentReports([report.text])
    quoted = ["> " + line for line in report.text.splitlines()]
    top = "\n".join([example, "", "On Sun, Nov 29, 2026, game wrote:", *quoted])
    assert read_text(top, sent).commands == [example]
    bottom = "\n".join(["On Sun, Nov 29, 2026, game wrote:", *quoted, "", example])
    assert read_text(bottom, sent).commands == [example]
    middle = len(quoted) // 2
    inter = "\n".join(
        ["On Sun, Nov 29, 2026, game wrote:", *quoted[:middle], "", example, "", *quoted[middle:]]
    )
    assert read_text(inter, sent).commands == [example]


def test_report_lines_leaked_unquoted_below_the_quote_are_not_commands() -> None:
    """History a client pasted without ``>`` (and without a known attribution) below a quote:
    its example commands come with the report's prose, so they are the report's words."""
    report = next(r for r in _reports() if r.name == "report1_kennedy")
    sent = SentReports([report.text])
    body = [
        line for line in report.text.splitlines()[2:] if line.strip() and not line.startswith("--")
    ]  # no separator to cut at
    assert "media west" in [line.strip() for line in body]
    text = "\n".join(["event 22", "", "> an earlier quote", "", *body])
    found = read_text(text, sent)
    assert found.commands == ["event 22"] and found.unreadable == []


def test_an_unquoted_report_is_cut_at_its_marker_even_after_an_unknown_attribution() -> None:
    report = next(r for r in _reports() if r.name == "report1_kennedy")
    text = f"event 22\n\nSomething my client wrote here\n{report.text}"
    assert read_text(text).commands == ["event 22"]
