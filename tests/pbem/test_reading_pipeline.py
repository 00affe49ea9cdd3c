"""Mistakes caught before they cost a move (issue 10), through the real pipeline (harness).

A misspelt command line rejects the whole mail with "did you mean"; an overspent one-line
action says what it needs; a misspelt state gets a suggestion; synonyms work by mail.
"""

from __future__ import annotations

import re
from email.message import Message
from pathlib import Path

import pytest

import engine
from pbem.pipeline.lines import read_text
from tests.pbem.harness import Harness


@pytest.fixture
def h(tmp_path: Path) -> Harness:
    harness = Harness(tmp_path)
    harness.new_game(seed=2)  # Kennedy won the initiative; hand 27 50 39 48 68 45
    harness.reply("kennedy", "first kennedy")
    assert "event 27" in harness.legal("kennedy")
    return harness


def _rejected(h: Harness, body: str) -> str:
    before = h.state()
    stats = h.reply("kennedy", body)
    assert stats.outcomes == {"rejected": 1}
    assert h.state() == before  # nothing applied (R17, all or nothing)
    mail = h.last_mail("kennedy")
    assert "error in your orders" in mail["Subject"]
    return " ".join(h.text_of(mail).split())


def test_a_misspelt_line_rejects_the_whole_mail_with_a_suggestion(h: Harness) -> None:
    text = _rejected(h, "position 27\nsuport WI\n")
    assert "suport WI" in text and "did you mean 'support WI'" in text


def test_a_misspelt_verb_in_the_one_line_form_gets_the_corrected_line(h: Harness) -> None:
    text = _rejected(h, "campain 50: NY, PA")
    assert "did you mean 'campaign 50: NY, PA'" in text


def test_overspending_in_the_one_line_form_says_what_it_needs(h: Harness) -> None:
    text = _rejected(h, "position 27: civil rights 2, economy 2")
    assert "need 6 CP, the card gives 3" in text
    assert "nothing to decide" not in text


def test_overspending_on_issues_says_how_the_points_are_priced(h: Harness) -> None:
    """Found by playing: 'civil rights 2, economy 1' needs 4 CP, not 3 — the reply says why."""
    text = _rejected(h, "position 27: civil rights 2, economy 1")
    assert "need 4 CP, the card gives 3" in text
    assert "first point in an issue costs 1 CP and each further point 2" in text


def test_a_misspelt_state_gets_did_you_mean(h: Harness) -> None:
    text = _rejected(h, "campaign 50: Ohiio 1")
    assert "did you mean 'campaign 50: OH 1'" in text


def _rejection_section(h: Harness) -> str:
    """The rejection's own part: from its heading to the decision (the "Legal now" list)."""
    text = h.text_of(h.last_mail("kennedy"))
    part = text.split("YOUR ORDERS WERE NOT APPLIED", 1)[1].split("-- YOUR MOVE", 1)[0]
    return " ".join(part.split())


@pytest.mark.parametrize(
    "body", ["campaign 50: Ohiio 1", "position 27: civil rights 2, economy 2", "frist kennedy"]
)
def test_a_rejected_line_is_explained_once_with_the_suggestion_up_front(
    h: Harness, body: str
) -> None:
    """Found by playing: the failing line came back three times, its reason twice, and the
    "did you mean" after a dump of 25 legal commands that the mail lists again, grouped."""
    _rejected(h, body)
    part = _rejection_section(h)
    assert part.count(body) == 1, part
    assert "Why:" not in part
    assert "legal now:" not in part.lower()
    assert "nothing in your mail was applied" in part.lower()
    assert part.lower().count("nothing in your mail was applied") == 1


def test_a_rejection_not_tied_to_a_line_still_says_why(h: Harness) -> None:
    _rejected(h, "Hi, just saying hello")
    assert "Why: no command found" in _rejection_section(h)


def test_a_bare_card_number_is_a_command_attempt_not_prose(h: Harness) -> None:
    text = _rejected(h, "Hi!\n27\n")
    assert "did you mean 'event 27'" in text


def test_prose_is_ignored_and_listed_back(h: Harness) -> None:
    stats = h.reply(
        "kennedy", "Hi Dick,\n\nposition 27: civil rights 1, economy 1\n\nEven so, good luck!\nKim"
    )
    assert stats.outcomes == {"applied": 1}
    text = h.text_of(h.last_mail("kennedy"))
    assert "Hi Dick," in text and "Even so, good luck!" in text


@pytest.mark.parametrize("word", sorted(engine.SYNONYMS))
def test_every_engine_synonym_is_read_as_a_command(word: str) -> None:
    assert read_text(f"{word} 22\n").commands == [f"{word} 22"]


def test_the_synonym_play_applies_by_mail(h: Harness) -> None:
    stats = h.reply("kennedy", "play 68")
    assert stats.outcomes == {"applied": 1}
    assert 68 not in h.state()["hands"]["kennedy"]


@pytest.mark.parametrize(
    ("text", "commands"),
    [
        ("then campaign 13: MA 3", ["then", "campaign 13: MA 3"]),
        ("Then, event 22\nthen play 40", ["then", "event 22", "then", "play 40"]),
        ("then we will see how it goes", []),
        ("then standing trigger never", []),  # a setting is not queued: 'then' alone first
    ],
)
def test_then_before_a_game_command_on_its_line_reads_as_two_lines(
    text: str, commands: list[str]
) -> None:
    assert read_text(text).commands == commands


@pytest.mark.parametrize(
    "line", ["suport WI", "campain 4: NY, PA", "evnt 22", "OH 2", "Ohio", "#22", "Gaffe"]
)
def test_command_attempts(line: str) -> None:
    found = read_text(line)
    assert found.commands == [] and [u.line for u in found.unreadable] == [line]


@pytest.mark.parametrize(
    "line",
    [
        "Hi Bob,",
        "Even so, good luck",
        "Thanks for the game!",
        "oh well",
        "First, a question: are you there?",
        "No worries, see you tomorrow",
        "States are hard to win",
    ],
)
def test_prose(line: str) -> None:
    found = read_text(line)
    assert found.commands == [] and found.unreadable == [] and found.ignored == [line]


def test_a_reply_to_an_older_report_applies_while_its_question_is_still_asked(h: Harness) -> None:
    h.reply("kennedy", "position 27")
    older = h.last_mail("kennedy")  # "Positioning with 3 CP left"
    assert h.reply("kennedy", "issue economy").outcomes == {"applied": 1}
    assert h.last_mail("kennedy")["Reply-To"] != older["Reply-To"]  # a new key generation
    assert h.reply("kennedy", "issue defense", to_mail=older).outcomes == {"applied": 1}
    assert h.state()["stack"][-1]["cp"] == 1  # both points bought: 2 of the card's 3 CP


def test_a_reply_to_an_older_report_whose_question_is_gone_is_rejected(h: Harness) -> None:
    welcome = h.mails_to("kennedy")[0]  # asked 'first kennedy / first nixon'
    before = h.state()
    assert h.reply("kennedy", "position 27", to_mail=welcome).outcomes == {"rejected": 1}
    assert h.state() == before
    assert "no longer the one being asked" in " ".join(h.text_of(h.last_mail("kennedy")).split())


@pytest.mark.parametrize("body", ["status", "help", "card 27", "say Still thinking, Dick."])
def test_server_words_and_table_talk_answer_from_any_older_report(h: Harness, body: str) -> None:
    """Found by playing: 'status' (asking where the game stands) from an older report was
    rejected as out of date; it changes nothing, so it is answered like any other time."""
    welcome = h.mails_to("kennedy")[0]
    before = h.state()
    stats = h.reply("kennedy", body, to_mail=welcome)
    assert stats.outcomes == {"answered": 1}
    assert h.state() == before
    assert "error in your orders" not in h.last_mail("kennedy")["Subject"]


def test_a_stale_game_command_beside_status_is_still_rejected(h: Harness) -> None:
    welcome = h.mails_to("kennedy")[0]
    assert h.reply("kennedy", "status\nposition 27", to_mail=welcome).outcomes == {"rejected": 1}


def test_a_reply_that_only_quotes_the_report_says_so_and_how_to_answer(h: Harness) -> None:
    """Found by playing (s-nail's reply with nothing typed): "no command found" did not say
    that the mail held nothing but our report, nor where to write."""
    report = h.text_of(h.last_mail("kennedy"))
    quoted = "\n".join("> " + line for line in report.splitlines())
    text = _rejected(h, f"1960 - game #1 <game@pbem.test> wrote:\n\n{quoted}\n")
    assert "only the quoted report" in text
    assert "above the quoted text" in text and "for example 'event 27'" in text


def test_an_applied_line_is_listed_once_without_a_bare_ok_under_it(h: Harness) -> None:
    """Found by playing: every applied line came back as "OK  decline" and then "ok"."""
    assert h.reply("kennedy", "position 27: economy 1, defense 1").outcomes == {"applied": 1}
    text = h.text_of(h.last_mail("kennedy"))
    block = text.split("RESULTS OF YOUR ORDERS", 1)[1].split("\n-- ", 1)[0]
    assert "position 27: economy 1, defense 1" in block
    assert [line.strip() for line in block.splitlines() if line.strip().lower() == "ok"] == []


@pytest.mark.parametrize(
    ("body", "meant"),
    [
        ("evnt 27", "event 27"),
        ("positon 27", "position 27"),
        ("campain 50", "campaign 50"),
        ("stratgy 27", "strategy 27"),
    ],
)
def test_did_you_mean_offers_only_what_can_be_sent_now(h: Harness, body: str, meant: str) -> None:
    """Found by playing: 'stratgy 38' got "did you mean 'strategy 38' or 'state 38' or
    'status 38'" — the last two are no commands at all."""
    _rejected(h, body)
    part = _rejection_section(h)
    hints = part.split("did you mean", 1)[1].split("?", 1)[0]
    offered = [x.strip(" '") for x in hints.split(" or ")]
    assert offered[0] == meant
    for x in offered:
        engine.parse(x, [])  # each one a command (if not one legal now: no CommandSyntaxError)


def test_a_bare_state_is_answered_with_a_command_that_fits_the_step(h: Harness) -> None:
    """At the card-play step a bare 'Ohio 2' means campaigning there with a card in hand, not
    'support Ohio 2' (a later step) nor the placeholder 'campaign N: Ohio 2'."""
    _rejected(h, "Ohio 2")
    part = _rejection_section(h)
    assert "did you mean 'campaign 27: Ohio 2'" in part
    assert "support Ohio 2" not in part and "campaign N" not in part


def test_a_state_that_needs_checks_is_offered_its_checks_not_other_states(h: Harness) -> None:
    """Found by playing: 'support NY' where NY needs support checks (R7.4) got "did you mean
    'support TN' or 'support NJ' or 'support NH'" — other states, spelt alike. The hint keeps
    the state the player named: its 'check' commands."""
    _rejected(h, "campaign 50\nsupport CA")
    part = _rejection_section(h)
    assert "CA needs support checks (R7.4, R16.3)" in part
    hints = part.split("did you mean", 1)[1].split("?", 1)[0]
    offered = [x.strip(" '") for x in hints.split(" or ")]
    assert offered[0] == "check CA 1", offered
    assert all(" CA" in x for x in offered), offered  # 'travel CA' may follow


def test_overspending_a_campaign_says_how_much_of_it_is_travel(h: Harness) -> None:
    """Found by playing: 'the points written need 7 CP, the card gives 4' for 4 points left
    the player to guess the other 3 (travel from the token's state, R7.3)."""
    text = _rejected(h, "campaign 50: CA 2, TX 2")
    m = re.search(r"need (\d+) CP \((\d+) for support, (\d+) for travel, R7\.3\)", text)
    assert m, text
    assert int(m.group(1)) == int(m.group(2)) + int(m.group(3)) and m.group(2) == "4"


def test_a_card_play_sent_at_a_trigger_question_is_told_to_answer_it_first(h: Harness) -> None:
    """Found by playing: 'event 52' sent while the opponent's card waited for a trigger answer
    got only "'event' is not a choice at this point; the choices are 'trigger' or 'decline'"."""
    assert h.reply("kennedy", "campaign 45: MA 1, MA 1, MA 1").outcomes == {"applied": 1}
    assert h.legal("nixon") == ["trigger", "decline"]  # #45 shows Nixon's icon (R6.7)
    card = h.state()["hands"]["nixon"][0]
    before = h.state()
    stats = h.reply("nixon", f"event {card}")
    assert stats.outcomes == {"rejected": 1} and h.state() == before
    text = " ".join(h.text_of(h.last_mail("nixon")).split())
    assert f"answer this question first: 'decline', then 'event {card}' on the next line" in text


def _bottom_post(h: Harness, side: str, mail: Message, own: str) -> str:
    """A reply as s-nail writes it with ``quote=allbodies``: the attribution, every part of the
    mail quoted (the text, then the HTML source), then the writer's lines at the bottom."""
    parts = [
        p.get_content() for p in mail.walk() if p.get_content_type() in ("text/plain", "text/html")
    ]
    quoted = "\n".join("> " + line for part in parts for line in part.splitlines())
    return f"1960 — game #1 <game@example.test> wrote:\n\n{quoted}\n\n\n{own}\n"


def test_a_command_under_the_quoted_help_mail_is_read(h: Harness) -> None:
    """Found by playing: 'campaign 50' written under the quoted help mail (all the cards,
    about 90,000 characters with its HTML) was cut with the body's first 64 KiB and answered
    "your mail holds only the quoted report"."""
    h.reply("kennedy", "help")
    help_mail = h.last_mail("kennedy")
    body = _bottom_post(h, "kennedy", help_mail, "position 27: civil rights 1, economy 1")
    assert len(body) > 70_000
    assert h.reply("kennedy", body, to_mail=help_mail).outcomes == {"applied": 1}


def test_undo_under_the_quote_of_a_mail_that_lists_it_is_read(h: Harness) -> None:
    """Found by playing: the help mail has 'undo' on a line of its own, so a bottom-posted
    'undo' was taken for the report's own prose come back unquoted, and ignored."""
    assert h.reply("kennedy", "position 27: civil rights 1, economy 1").outcomes == {"applied": 1}
    h.reply("kennedy", "help")
    report = h.mails_to("kennedy")[-2]
    assert "help" not in str(report["Subject"]).lower()
    stats = h.reply("kennedy", _bottom_post(h, "kennedy", report, "undo"), to_mail=report)
    assert stats.outcomes == {"applied": 1}
    assert "your last mail was taken back" in " ".join(h.text_of(h.last_mail("kennedy")).split())
