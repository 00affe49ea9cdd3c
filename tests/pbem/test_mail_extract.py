"""Reading replies: command lines from real client replies, never from quoted history
(`pbem.mail.extract` finds the writer's own lines, `pbem.pipeline.lines` the commands)."""

from __future__ import annotations

import email
import email.policy
import time
from pathlib import Path

import pytest

from pbem.mail import parse_message
from pbem.mail.extract import reply_text
from pbem.mail.htmltext import html_to_text
from pbem.pipeline.lines import MAX_LINE_LEN, read_reply, read_text
from tests.pbem.mailtools import CORPUS, DATA

CMD = "campaign 17: NY 2, PA 1"
PLAIN = CORPUS / "email_reply_parser"
TALON = CORPUS / "talon"
needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(),
    reason=f"mail corpus not present at {CORPUS} (README, Development: where it comes from)",
)


def _files(folder: Path, pattern: str) -> list[str]:
    return sorted(p.name for p in folder.glob(pattern)) if folder.is_dir() else []


# -- our own fixtures (work without the corpus) ------------------------------------------------
@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("reply_gmail_quoted.eml", [CMD]),
        ("reply_outlook_html_only.eml", ["event 22", "pass"]),
        ("reply_interleaved.eml", [CMD, "debate 23 kennedy"]),
        ("reply_latin1_flowed.eml", ["issue civil rights", "campaign 17: NY 2"]),
    ],
)
def test_fixture_replies(name: str, expected: list[str]) -> None:
    parsed = parse_message((DATA / name).read_bytes(), "game@example.test")
    assert read_text(parsed.text).commands == expected


def test_greetings_are_reported_as_ignored() -> None:
    result = read_text(f"Hi Bob,\n\n{CMD}\nevent 22\n\nCheers\n")
    assert result.commands == [CMD, "event 22"]
    assert result.ignored == ["Hi Bob,", "Cheers"]


def test_quoted_example_commands_are_never_read() -> None:
    text = f"Hi\n\nOn Sun, 29 Nov 2026 at 9:00, game wrote:\n> {CMD}\n> event 22\n> pass\n"
    assert read_text(text).commands == []


def test_unquoted_history_after_outlook_header_is_cut() -> None:
    text = (
        "pass\n\n________________________________\nFrom: 1960 game <game@example.test>\n"
        "Sent: Sunday, November 29, 2026 9:00\nTo: Kim\nSubject: Turn 3\n\n"
        f"Examples:\n{CMD}\nevent 22\n"
    )
    assert read_text(text).commands == ["pass"]


@pytest.mark.parametrize(
    "separator",
    ["-----Original Message-----", "-- ", "--", "Sent from my iPhone", "Get Outlook for Android"],
)
def test_separators_and_footers_cut_the_rest(separator: str) -> None:
    text = f"event 22\n{separator}\nevent 5\npass\n"
    assert read_text(text).commands == ["event 22"]


def test_foreign_attribution_followed_by_unquoted_history_is_cut() -> None:
    text = f"pass\n\nLe dim. 29 nov. 2026 à 09:00, game a écrit :\n{CMD}\n"
    assert read_text(text).commands == ["pass"]


def test_bottom_posting_after_quote_is_read() -> None:
    text = f"On Sun, Nov 29, 2026, game wrote:\n> Your move.\n> {CMD}\n\nevent 22\n"
    assert read_text(text).commands == ["event 22"]


@pytest.mark.parametrize(
    "text",
    [
        "Hi,\n\ntake 42\n",  # a paragraph of its own
        "On Sun, Nov 29, 2026, game wrote:\n> Your move.\n\n\ntake 42\n",  # s-nail's bottom post
    ],
)
def test_take_is_a_command_never_the_danish_sign_off_tak(text: str) -> None:
    """Found by playing: s-nail's bottom-posted 'take 99' was answered "your mail holds only
    the quoted report": mail-parser-reply matches Danish "Tak" (thanks) as a prefix and cut
    the line as a signature. A line that reads as a command is never cut so."""
    assert read_text(text).commands == ["take 42"]
    assert reply_text(text).cut  # the library alone still cuts it: the keep is what saves it


def test_a_real_sign_off_after_the_commands_is_still_no_command() -> None:
    assert read_text("take 42\n\nTak\nLars\n").commands == ["take 42"]


def test_tab_quoted_history_as_posix_mailx_writes_it_is_not_read() -> None:
    # s-nail with no rc file, BSD/macOS mail: the quote prefix is a tab, the reply at the bottom
    quoted = f"\tYour move.\n\t\n\tFor example, reply with:\n\t    {CMD}\n"
    text = f"1960 \u2014 game #1 <game@example.test> wrote:\n\n{quoted}first kennedy\n"
    assert read_text(text).commands == ["first kennedy"]
    interleaved = f"game wrote:\n\tThe first part.\n\nevent 22\n\n{quoted}\npass\n"
    assert read_text(interleaved).commands == ["event 22", "pass"]


def test_own_tab_indented_lines_without_an_attribution_are_read() -> None:
    assert read_text("\tevent 22\n\tpass\n").commands == ["event 22", "pass"]


def test_bullets_whitespace_and_typography_are_normalised() -> None:
    text = "- event\u00a022\n* pass\n1. support   OH\n\u2022 issue civil\u2013rights\n"
    assert read_text(text).commands == ["event 22", "pass", "support OH", "issue civil-rights"]


def test_hyphen_lists_are_not_mistaken_for_signatures() -> None:
    assert read_text("- event 22\n- pass\n").commands == ["event 22", "pass"]


def test_caps_on_lines_and_line_length() -> None:
    text = "\n".join(f"support S{i}" for i in range(60)) + "\nsupport " + "X" * 400
    result = read_reply(reply_text(text), max_lines=5)
    assert result.commands == [f"support S{i}" for i in range(5)]
    assert result.truncated == 55
    assert [len(line) for line in result.ignored if line.endswith("…")] == [MAX_LINE_LEN + 1]


def test_help_and_status_are_commands() -> None:
    assert read_text("Help\nstatus\n").commands == ["Help", "status"]


def test_huge_input_is_fast() -> None:
    text = "pass\n" + ("> quoted line with some text in it\n" * 50_000) + ("x" * 100_000)
    started = time.monotonic()
    assert read_text(text).commands == ["pass"]
    assert time.monotonic() - started < 2


# -- real mail-client replies (../shared/mail-corpus, read in place) ---------------------------
@needs_corpus
@pytest.mark.parametrize("name", _files(PLAIN, "*.txt"))
def test_corpus_plain_replies_with_command_on_top(name: str) -> None:
    text = (PLAIN / name).read_text(encoding="utf-8", errors="replace")
    started = time.monotonic()
    result = read_text(f"{CMD}\n\n{text}")
    assert result.commands == [CMD]
    assert time.monotonic() - started < 2  # pathological.txt, email_long_quote.txt


@needs_corpus
@pytest.mark.parametrize("name", ["email_1_2.txt", "email_bullets.txt", "greedy_on.txt"])
def test_corpus_command_at_the_end_of_the_reply_text(name: str) -> None:
    """Bottom-posting and long replies: the command after the first paragraph is found."""
    text = (PLAIN / name).read_text(encoding="utf-8", errors="replace")
    first_para, _, rest = text.partition("\n\n")
    result = read_text(f"{first_para}\n\n{CMD}\n\n{rest}")
    assert result.commands == [CMD]


@needs_corpus
@pytest.mark.parametrize("name", _files(TALON / "standard_replies", "*.eml"))
def test_corpus_client_replies(name: str) -> None:
    """Android, Apple Mail, Gmail, iPhone, Outlook: the reply text 'Hello' becomes a command,
    and the quoted original gets a command too, which must not be read."""
    msg = email.message_from_bytes(
        (TALON / "standard_replies" / name).read_bytes(), policy=email.policy.default
    )
    replaced = 0
    for part in msg.walk():
        if part.get_content_type() in ("text/plain", "text/html"):
            content = part.get_content()
            assert "Hello" in content
            content = content.replace("Hello", CMD, 1)
            content = content.replace("\n> Hi", "\n> event 22\n> Hi")
            part.set_content(content, subtype=part.get_content_subtype())
            replaced += 1
    assert replaced
    parsed = parse_message(msg.as_bytes(), "game@example.test")
    assert read_text(parsed.text).commands == [CMD]


@needs_corpus
@pytest.mark.parametrize("name", _files(TALON / "html_replies", "*.html"))
def test_corpus_html_replies(name: str) -> None:
    """Gmail and Outlook 2007/2010 HTML: reply text replaced by a command, quote gets one too."""
    html = (TALON / "html_replies" / name).read_text(encoding="utf-8", errors="replace")
    assert "Hi. I am fine." in html and "Hello! How are you?" in html
    html = html.replace("Hi. I am fine.", CMD).replace("Hello! How are you?", "event 22")
    assert read_text(html_to_text(html)).commands == [CMD]
