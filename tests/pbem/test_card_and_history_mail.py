"""Server words by mail: ``card N`` / ``help N`` (one card), ``help`` (every card), ``history``
(the log so far, a file when long); the final log at the game's end; log lines with causes."""

from __future__ import annotations

import email
import email.policy
import random
import re
from email.message import EmailMessage
from pathlib import Path

import engine
from pbem.mail import FileAttachment, build_message
from pbem.pipeline.answers import meta_request
from pbem.reports import cardtext
from pbem.reports.model import explained, explained_for
from pbem.reports.render import HISTORY_INLINE, render
from tests.pbem import mailview
from tests.pbem.harness import Harness


def _attachments(msg: EmailMessage) -> dict[str, str]:
    return {str(p.get_filename()): p.get_content() for p in msg.iter_attachments()}


def test_meta_requests_are_read_from_lines() -> None:
    assert meta_request("card 17") == "card 17"
    assert meta_request("Help Nixon's Knee") == "card Nixon's Knee"
    assert meta_request("help") == "help"
    assert meta_request("HISTORY") == "history"
    assert meta_request("status") == "status"
    assert meta_request("campaign 17") == ""


def test_card_lookup_by_number_name_start_and_words() -> None:
    assert cardtext.find("2") == [2] and cardtext.find("#2") == [2]
    assert cardtext.find("nixon's knee") == [2] and cardtext.find("NIXONS KNEE") == [2]
    assert cardtext.find("gallup") == [3]
    assert len(cardtext.find("gathering momentum")) > 1  # ambiguous: several
    assert cardtext.find("zzz") == [] and cardtext.find("999") == []
    assert all(cardtext.event_text(n) for n in engine.CARDS)  # every card has its text


def test_card_and_help_n_by_mail_answer_with_one_card_each(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=7)
    before = len(h.mails_to("kennedy"))
    h.reply("kennedy", "card 2\nhelp gallup poll\ncard zzz")
    got = h.mails_to("kennedy")[before:]
    subjects = [str(m["Subject"]) for m in got]
    assert any(s.endswith("Card #2 Nixon's Knee") for s in subjects), subjects
    assert any(s.endswith("Card #3 Gallup Poll") for s in subjects), subjects
    assert any(s.endswith("No such card") for s in subjects), subjects
    knee = next(m for m in got if str(m["Subject"]).endswith("Nixon's Knee"))
    assert "Maryland" in h.text_of(knee)  # the event text
    assert engine.result(h.state()) is None and len(h.mails_to("nixon")) == 1  # nothing moved


def test_help_lists_every_card_with_its_text() -> None:
    mail = render("help", {"game_id": 3, "side": "nixon", "edition": "zman"})
    text = " ".join(mail.text.split())
    for n in engine.CARDS:
        c = engine.CARDS[n]
        assert (f"#{n} {c.name}" in text) == (not c.gmt_only), n
    assert " ".join(cardtext.event_text(2).split()) in text
    assert "card 17" in mail.text and "history" in mail.text


def test_history_is_inline_when_short_and_a_file_when_long() -> None:
    short = mailview.position(5, 10)
    mail = render("history", mailview.context(short, "kennedy"))
    assert not mail.attachments and "Turn 1" in mail.text
    long = mailview.position(5, 200)
    assert len(long["log"]) > HISTORY_INLINE and engine.result(long) is None
    mail = render("history", mailview.context(long, "kennedy"))
    (att,) = mail.attachments
    log = att.data.decode()
    assert "You draw:" in log  # the reader's own private lines …
    assert f'data-pbem-attachment="{att.cid}"' in mail.html
    nixon_draws = [e["text"] for e in long["log"] if e["to"] == "nixon"]
    assert nixon_draws and not any(t in log for t in nixon_draws)  # … never the opponent's


def test_history_by_mail_arrives_with_the_log_file(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=3)
    rnd = random.Random(3)
    while True:
        state = h.state()
        side = sorted(engine.active_sides(state))[0]
        if len(engine.view(state, side)["log"]) > HISTORY_INLINE:
            break
        h.reply(side, rnd.choice(engine.legal_commands(state, side)))
    h.reply(side, "history")  # from the seat whose move it is: its key is current
    msg = h.last_mail(side)
    assert "Game log to turn" in str(msg["Subject"])
    files = _attachments(msg)
    (name,) = files
    assert name.endswith("-log.txt") and "Turn 1" in files[name]


def test_the_game_over_mail_carries_the_whole_log_with_everything_revealed() -> None:
    g = mailview.position(5, 10_000)
    assert engine.result(g) is not None
    for side in ("kennedy", "nixon"):
        mail = render("game_over", mailview.context(g, side))
        (att,) = mail.attachments
        log = att.data.decode()
        for e in g["log"]:
            if e["to"]:  # both sides' private lines, marked; the other's in the third person
                line = explained_for(e, side)
                assert " ".join(line.split()[:6]) in " ".join(log.split())
        other = "Nixon" if side == "kennedy" else "Kennedy"
        assert f"(only {other} saw this)" in log and "(only you saw this)" in log
        assert f"(only {other} saw this) You " not in log


def test_attachments_make_a_mixed_message() -> None:
    raw = build_message(
        sender="g@example.test",
        to="p@example.test",
        subject="s",
        text="body",
        html="<p>body</p>",
        message_id="<m@example.test>",
        attachments=[FileAttachment("log.txt", "Turn 1\nline — é\n".encode())],
    )
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert msg.get_content_type() == "multipart/mixed"
    assert msg.get_body(("plain",)).get_content().strip() == "body"  # type: ignore[union-attr]
    (att,) = list(msg.iter_attachments())
    assert att.get_filename() == "log.txt" and att.get_content() == "Turn 1\nline — é\n"


def test_log_lines_say_why() -> None:
    g = mailview.position(6, 10_000)
    lines = [explained(e) for e in g["log"]]
    structural = ("Turn ", "End of turn")
    unexplained = [
        t for t in lines if not t.startswith(structural) and not re.search(r"#\d|R\d", t)
    ]
    assert len(unexplained) < len(lines) * 0.03, unexplained[:20]
    assert any(t.endswith(")") or t.endswith(").") for t in lines if "support in" in t)


def test_a_cause_beyond_the_lines_own_rule_is_shown_beside_it() -> None:
    """The 2nd issue's endorsement said only "(R10.5)": its cause now stands beside the rule;
    a cause that is only a rule, or the line's own, adds nothing."""
    award = {
        "text": "Nixon places an endorsement in the South (R10.5).",
        "why": "leads Economy, the 2nd issue, R10.3",
    }
    assert explained(award) == (
        "Nixon places an endorsement in the South (R10.5; leads Economy, the 2nd issue, R10.3)."
    )
    rest = {"text": "Nixon's 5 rest cube(s) go into the bag (R11.3).", "why": "R11.1"}
    assert explained(rest) == rest["text"]
    same = {"text": "Kennedy campaigns in Ohio (R7).", "why": "R7"}
    assert explained(same) == same["text"]
    card = {"text": "Nixon has no support in Michigan to lose (R6.6).", "why": "#20 Nixon Egged"}
    assert explained(card) == card["text"]  # the event's own line, just before, names it
    plain = {
        "text": "Nixon gains 1 momentum and now has 2.",
        "why": "leads Economy, the 2nd issue, R10.3",
    }
    assert (
        explained(plain)
        == "Nixon gains 1 momentum and now has 2 (leads Economy, the 2nd issue, R10.3)."
    )
