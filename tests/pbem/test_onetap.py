"""One-tap answers (`pbem.reports.onetap`): the report's ``mailto:`` links play what they say.

- each link is an RFC 6068 URL to the seat's reply address, subject ``Re: <subject>``, the
  command as the body; the links cover every legal command of the decision, grouped by verb;
- a whole game is played by tapping links only, through the pipeline (`pbem poll` on the
  in-memory mailbox): the mail a program builds from a link (plain text with a signature,
  Gmail's pair, HTML only, a reply quoting the report; threaded or not) plays exactly the
  link's command; at an action decision, a trigger question and Election Day *every* link is
  tapped, each on a copy of the game;
- a link tapped by someone else (a forwarded report) plays nothing and is not answered; a
  link of an older report is answered with the current report, not applied.
"""

from __future__ import annotations

import random
import re
import sqlite3
import string
from pathlib import Path

from sqlmodel import Session, col, select

import engine
from engine.determinize import determinize, sampler
from pbem.reports import onetap
from pbem.reports.render import render
from pbem.store.models import InboundMessage, Move
from tests.pbem import mailview
from tests.pbem.harness import EMAILS, Harness
from tests.pbem.taps import CLIENTS, Link, client_mail, links, parse_mailto

# RFC 6068: unreserved / pct-encoded / some-delims in the query (we also encode "+")
QCHAR = re.compile(r"^(?:[A-Za-z0-9\-._~!$'()*,;:@]|%[0-9A-F]{2})*$")
EVERY_LINK_AT = ("action", "trigger", "election_card")


def test_a_mailto_url_is_rfc_6068_and_reads_back_exactly() -> None:
    body = "campaign 17: NY 2, PA 1\nsay good luck & thanks + 100% = fun?"
    url = onetap.mailto("game+g12k3-abcdefghijklmnop@pbem.test", "Re: [1960 #12] Turn 3 — x", body)
    head, _, query = url.partition("?")
    assert head == "mailto:game+g12k3-abcdefghijklmnop@pbem.test"  # '+' is an address character
    fields = dict(part.split("=", 1) for part in query.split("&"))
    assert set(fields) == {"subject", "body"}
    assert all(QCHAR.match(v) for v in fields.values()), fields
    assert "%0D%0A" in fields["body"] and "%20" in fields["body"] and "%2B" in fields["body"]
    to, got = parse_mailto(url)
    assert to == "game+g12k3-abcdefghijklmnop@pbem.test"
    assert got == {"subject": "Re: [1960 #12] Turn 3 — x", "body": body.replace("\n", "\r\n")}


def test_the_links_cover_every_legal_command_grouped_by_verb_most_used_first() -> None:
    rnd = random.Random(4)
    g = engine.new_game(4)
    seen_steps: set[str] = set()
    while engine.active_sides(g):
        side = sorted(engine.active_sides(g))[0]
        step = g["stack"][-1]["step"]
        if step not in seen_steps:
            seen_steps.add(step)
            mail = render("report", mailview.context(g, side))
            got = _links(mail.html)
            legal = engine.legal_commands(g, side)
            assert {x.body for x in got} >= set(legal), step
            assert all(x.to == f"game+{side[0]}12abc@example.test" for x in got)
            assert all(x.subject == f"Re: {mail.subject}" for x in got)
            verbs = [onetap.VERB_ORDER.index(v) for v in _verbs(got) if v in onetap.VERB_ORDER]
            assert verbs == sorted(verbs), (step, _verbs(got))
            for x in got:  # every link applies as it stands (the splits were checked already)
                engine.apply(g, side, x.body)
        engine.apply_in_place(g, side, rnd.choice(engine.legal_commands(g, side)))
    assert {"action", "campaign", "trigger", "election_card", "strategy"} <= seen_steps


def test_an_action_offers_each_cards_split_and_the_text_part_has_no_links() -> None:
    g = _at_step(5, "action")
    side = sorted(engine.active_sides(g))[0]
    mail = render("report", mailview.context(g, side))
    bodies = [x.body for x in _links(mail.html)]
    splits = [b for b in bodies if re.match(r"^(campaign|position) \d+: ", b)]
    hand = engine.view(g, side)["hand"]
    assert len(splits) >= len(hand), bodies  # a campaign and a position split per card
    assert bodies.index(splits[0]) < bodies.index(f"campaign {hand[0]}")  # whole lines first
    assert "mailto:" not in mail.text


def test_the_shortcuts_apply_and_tell_nothing_hidden() -> None:
    """At every action and Election Day decision of a seeded game each whole line applies to
    the real state, and a state the seat cannot tell from it (other hidden cards, another
    generator: a determinisation) gives the same lines (R17)."""
    rnd = random.Random(8)
    g = engine.new_game(8)
    lines = 0
    while engine.active_sides(g):
        side = sorted(engine.active_sides(g))[0]
        got = onetap.shortcuts(g, side)
        if got:
            lines += len(got)
            for line in got:
                engine.apply(g, side, line)
            other = determinize(g, side, sampler(rnd.randrange(1 << 30)))
            assert onetap.shortcuts(other, side) == got
        engine.apply_in_place(g, side, rnd.choice(engine.legal_commands(g, side)))
    assert lines > 200


def test_a_whole_game_played_by_tapping_links_only(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=21)
    rnd = random.Random(21)
    tapped = checked_every_link = 0
    done_steps: set[str] = set()
    for _ in range(1500):
        state = h.state()
        if engine.result(state) is not None:
            break
        side = sorted(engine.active_sides(state))[0]
        report = h.last_mail(side)
        got = links(report)
        assert got, f"no one-tap answer in {report['Subject']}"
        step = state["stack"][-1]["step"]
        if step in EVERY_LINK_AT and step not in done_steps:
            done_steps.add(step)
            checked_every_link += _tap_each_on_a_copy(h, tmp_path, side, got, report)
        link = rnd.choice(got)
        _tap_and_check(h, side, link, CLIENTS[tapped % len(CLIENTS)], report, thread=tapped % 2)
        tapped += 1
    assert engine.result(h.state()) is not None, "the game did not end"
    assert done_steps == set(EVERY_LINK_AT)
    assert checked_every_link > 20
    with Session(h.db) as s:
        assert {r.outcome for r in s.exec(select(InboundMessage))} == {"applied"}
    print(f"\n{tapped} taps played the game; {checked_every_link} links tapped one by one")


def test_a_forwarded_link_plays_nothing_and_an_old_one_is_answered_not_applied(
    tmp_path: Path,
) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=21)
    side = sorted(engine.active_sides(h.state()))[0]
    first = h.last_mail(side)
    link = links(first)[0]
    sent, seq = len(h.sender.sent), h.state()["seq"]
    h.inbox.deliver(client_mail(link, "eve@elsewhere.test"))  # the report was forwarded to Eve
    h.poll()
    assert h.state()["seq"] == seq and len(h.sender.sent) == sent  # nothing played, no answer
    _tap_and_check(h, side, link, "iphone", first, thread=False)
    for _ in range(20):  # play on until the same seat has a new question
        mover = sorted(engine.active_sides(h.state()))[0]
        if mover == side:
            break
        report = h.last_mail(mover)
        _tap_and_check(h, mover, links(report)[0], "gmail", report, thread=True)
    assert sorted(engine.active_sides(h.state()))[0] == side
    seq = h.state()["seq"]
    h.inbox.deliver(client_mail(links(first)[-1], EMAILS[side]))  # a tap on the old report
    h.poll()
    assert h.state()["seq"] == seq
    assert "older report" in h.text_of(h.last_mail(side))


# --- helpers ---------------------------------------------------------------------------------


def _links(html: str) -> list[Link]:
    from email.message import EmailMessage

    msg = EmailMessage()
    msg.set_content(html, subtype="html")
    return links(msg)


def _verbs(got: list[Link]) -> list[str]:
    """The verbs in the order shown (card plays chosen by hand, shown after the splits, left out)."""
    split = {x.body.partition(":")[0] for x in got if ":" in x.body}
    out: list[str] = []
    for x in got:
        if x.body in split:
            continue
        verb = "preempt" if x.body.endswith(" preempt") else x.body.split()[0].rstrip(":")
        if not out or out[-1] != verb:
            out.append(verb)
    return out


def _at_step(seed: int, step: str) -> engine.GameState:
    rnd = random.Random(seed)
    g = engine.new_game(seed)
    while engine.active_sides(g):
        side = sorted(engine.active_sides(g))[0]
        if g["stack"][-1]["step"] == step and g["turn"] > 1:
            return g
        engine.apply_in_place(g, side, rnd.choice(engine.legal_commands(g, side)))
    raise AssertionError(f"no {step} decision in game {seed}")


def _tap_and_check(
    h: Harness, side: str, link: Link, client: str, report: object, *, thread: bool | int
) -> None:
    """Send the mail ``client`` builds from ``link``; it must play exactly the link's command."""
    before = h.state()
    _, want = engine.apply_logged(before, side, link.body)
    mid = str(report["Message-ID"]) if thread else None  # type: ignore[index]
    h.inbox.deliver(client_mail(link, EMAILS[side], client, report=report, in_reply_to=mid))  # type: ignore[arg-type]
    h.poll()
    with Session(h.db) as s:
        inbound = s.exec(select(InboundMessage).order_by(col(InboundMessage.id).desc())).first()
        assert inbound is not None and inbound.outcome == "applied", (client, link, inbound)
        played = [m.command for m in s.exec(select(Move).where(Move.inbound_id == inbound.id))]
    # the link's command first; then what the server did for the seat (forced moves, orders)
    assert played[: len(want)] == want, (client, link.body, played)


def _tap_each_on_a_copy(h: Harness, tmp: Path, side: str, got: list[Link], report: object) -> int:
    """Tap every link, each on a copy of the game as it is now; the number tapped."""
    pristine = tmp / "pristine.db"
    _copy_db(tmp / "pbem.db", pristine)
    folder = tmp / "".join(random.Random(len(got)).choices(string.ascii_lowercase, k=8))
    folder.mkdir()
    copy = Harness(
        folder, inbox=h.inbox
    )  # the same mailbox: its UIDs go on (the dedupe reads them)
    copy.game_id = h.game_id
    for i, link in enumerate(got):
        copy.db.dispose()
        _copy_db(pristine, folder / "pbem.db")
        _tap_and_check(copy, side, link, CLIENTS[i % len(CLIENTS)], report, thread=i % 2)
    return len(got)


def _copy_db(src: Path, dst: Path) -> None:
    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)
