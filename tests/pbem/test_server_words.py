"""The server's words live in the server (`pbem.server_words`): the engine knows only the game's
verbs, and every list of server words in `pbem` derives from the one table."""

from __future__ import annotations

import pytest

import engine
from pbem.games import orders
from pbem.pipeline.answers import ANSWERED, ASK_CARD, meta_request
from pbem.pipeline.lines import classify_word, read_text, sendable
from pbem.pipeline.seat_words import SEAT_WORDS
from pbem.reports.render import render
from pbem.server_words import SERVER_WORDS, words_of
from tests.pbem.test_render import ctx_for, position

# what players may write to the server, in the order help mails list it
PLAYER_VISIBLE = (
    "help",
    "status",
    "accept",
    "observe",
    "undo",
    "say",
    "card",
    "history",
    "notify",
    "standing",
    "then",
    "cancel",
    "vacation",
    "resign",
    "address",
    "claim",
    "timezone",
)


def test_the_server_answers_the_same_words_in_the_same_order() -> None:
    assert tuple(SERVER_WORDS) == PLAYER_VISIBLE


def test_the_engine_knows_no_server_word() -> None:
    game_words = set(engine.VERBS) | set(engine.SYNONYMS)
    assert not game_words & set(SERVER_WORDS)
    assert not engine.command_words() & set(SERVER_WORDS)
    assert not hasattr(engine, "META_WORDS")


@pytest.mark.parametrize(
    "word", ["vacation 5d", "status", "notify every", "claim", "observe a@b.c"]
)
def test_the_engine_does_not_parse_a_server_word(word: str) -> None:
    with pytest.raises(engine.CommandError):
        engine.parse(word, [])


def test_every_list_of_server_words_derives_from_the_table() -> None:
    assert SEAT_WORDS == words_of("seat") == ("vacation", "resign", "address", "claim", "timezone")
    assert ANSWERED == words_of("answered") == ("help", "status", "card", "history")
    assert ASK_CARD == ("help", "card")
    assert set(orders.SETTING_WORDS) | {"then"} == set(words_of("orders"))
    assert orders.SETTING_WORDS == ("notify", "standing", "cancel")
    assert words_of("fair-play") == ("accept", "observe")
    assert words_of("mail") == ("undo", "say")
    kinds = ("answered", "fair-play", "mail", "orders", "seat")
    assert sorted(w for k in kinds for w in words_of(k)) == sorted(SERVER_WORDS)


@pytest.mark.parametrize("word", list(SERVER_WORDS))
def test_the_line_classifier_reads_every_server_word(word: str) -> None:
    assert classify_word(word) == "command"
    assert classify_word(word.title() + ":") == "command"
    assert sendable(SERVER_WORDS[word].example)


def test_a_misspelt_server_word_is_a_typo_with_a_suggestion() -> None:
    found = read_text("vacaton 5d\n")
    assert not found.commands
    assert [u.suggestions[0] for u in found.unreadable] == ["vacation 5d"]


def test_server_word_lines_are_commands_and_answered_words_are_requests() -> None:
    found = read_text("timezone Europe/Berlin\nstanding trigger never\nhelp 17\nhistory\n")
    assert found.commands == [
        "timezone Europe/Berlin",
        "standing trigger never",
        "help 17",
        "history",
    ]
    assert [meta_request(line) for line in found.commands] == ["", "", "card 17", "history"]


def test_the_help_mail_lists_every_server_word_in_the_tables_order() -> None:
    mail = render("help", ctx_for(position(), "nixon"))
    server_part = mail.text.split("SERVER WORDS (THEY NEVER CHANGE THE GAME)", 1)[1]
    at = [server_part.index("\n" + w) for w in SERVER_WORDS]
    assert at == sorted(at)
    for w in SERVER_WORDS.values():
        assert " ".join(w.help.split()[:4]) in " ".join(server_part.split())
    intro = " ".join(mail.text.split())
    assert "Server words such as 'help', 'status', 'card 17' and 'history' are listed" in intro
    assert (
        "Server words such as <code>help</code>, <code>status</code>, <code>card 17</code> and "
        "<code>history</code> are listed" in mail.html
    )
