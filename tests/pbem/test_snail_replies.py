"""Real replies written with s-nail 14.9 (Debian's defaults: ``quote``, ``indentprefix="> "``,
attribution "NAME <ADDRESS> wrote:" and a blank line) to real reports of the server, as the
game mailbox received them through Postfix and Dovecot in the issue-10 play-through.

s-nail sends quoted-printable UTF-8 (``=E2=80=94`` in the attribution, ``>=20`` for a quoted
blank line). Each reply is read twice: as the pipeline does, knowing the report it quotes (the
sent-report guard), and without it; both must give exactly the intended commands.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.mail import parse_message
from pbem.mail.extract import reply_text
from pbem.pipeline.lines import ReadReply, SentReports, read_text

DATA = Path(__file__).parent / "data" / "s-nail"

# file: (commands, undo, talk, ignored lines that must be listed back)
CASES: dict[str, tuple[list[str], bool, list[str], list[str]]] = {
    "quote-only-invitation": ([], False, [], []),
    "quote-only-report": ([], False, [], []),
    "interleaved-example-command": (["first kennedy"], False, [], []),
    "interleaved-stale-decline": (["decline"], False, [], []),
    "interleaved-legal-line": (["strategy 38"], False, [], []),
    "top-greeting-overspend": (
        ["position 41: civil rights 2, economy 2"],
        False,
        [],
        ["Hi,", "Alice"],
    ),
    "top-say": (
        ["position 41: civil rights 2"],
        False,
        ["Good luck, Dick! Nice to play you.", "Looking forward to the debates.", "Alice"],
        [],
    ),
    "top-dashes-in-prose": (["event martin luther king"], False, [], ["Dick -- here goes.", "J."]),
    "top-german-greeting": (
        ["position 88: economy 1, defense 1"],
        False,
        [],
        ["Hallo Dick,"],
    ),  # "Gruß" closes: cut as a sign-off
    "bottom-trimmed-state-typo": (["campaign 41: Ohiio, Pennsylvana"], False, [], []),
    "bottom-full-quote": (["issue defense"], False, [], []),
    "bottom-prose-and-command": (
        ["campaign 22: Calfornia 2, Nevda 1"],
        False,
        [],
        ["Thanks for the game, Jack.", "Dick"],
    ),
    "bottom-undo-prose": ([], True, [], ["Sorry, I meant economy."]),
    "bottom-undo-and-move": (["position 68: defense 1, economy 1"], True, [], []),
}


def _text(name: str) -> str:
    return parse_message((DATA / f"{name}.eml").read_bytes(), "game@example.test").text


def _quoted_report(text: str) -> str:
    """The report the reply quotes, as the server sent it (the outbox knows it)."""
    return "\n".join(
        line[2:] if line.startswith("> ") else line[1:]
        for line in text.splitlines()
        if line.startswith(">")
    )


def test_every_fixture_has_a_case() -> None:
    assert sorted(p.stem for p in DATA.glob("*.eml")) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("guard", [True, False], ids=["sent-report guard", "quotes only"])
def test_s_nail_reply_reads_exactly_the_intended_commands(name: str, guard: bool) -> None:
    commands, undo, talk, ignored = CASES[name]
    text = _text(name)
    assert "=E2=80=94" not in text and "wrote:" in text  # decoded; the attribution is there
    sent = SentReports([_quoted_report(text)] if guard else [])
    found: ReadReply = read_text(text, sent)
    assert found.commands == commands
    assert found.undo == undo
    assert found.talk == talk
    assert found.unreadable == []
    for line in ignored:
        assert line in found.ignored


@pytest.mark.parametrize("name", ["quote-only-invitation", "quote-only-report"])
def test_a_quote_only_s_nail_reply_has_no_own_line(name: str) -> None:
    reply = reply_text(_text(name))
    assert reply.quoted and not any(reply.lines)
