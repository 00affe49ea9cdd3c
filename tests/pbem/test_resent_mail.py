"""Re-sent mail (issue 29): the same lines under the same reply key are applied once.

The fault harness found ``support TX``, ``support NJ`` and ``media midwest`` placed twice: the
player's client sent the same body again under a new Message-ID, and an older reply key is
accepted while its question is still being asked (a campaign's points are placed one mail at a
time). Each case runs here through the whole pipeline (mailbox, poll, outbox).
"""

from __future__ import annotations

import random
from collections import Counter
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlmodel import Session, col, select

import engine
from engine.question import question
from pbem.store.models import KeyAnswer, Move
from tests.pbem.harness import Harness


@pytest.fixture
def h(tmp_path: Path) -> Harness:
    harness = Harness(tmp_path)
    harness.new_game(seed=2)  # Kennedy decides first
    return harness


def _moves(h: Harness) -> list[tuple[str, str]]:
    with Session(h.db) as s:
        rows = s.exec(select(Move).where(Move.game_id == h.game_id).order_by(col(Move.seq)))
        return [(m.side, m.command) for m in rows]


def _resend(h: Harness, raw: bytes) -> bytes:
    """The same mail as a client sends it again: same body and addresses, a new Message-ID."""
    head, sep, body = raw.partition(b"\n\n")
    lines = [
        b"Message-ID: <resent.%d@players.test>" % random.randrange(10**9)
        if ln.lower().startswith(b"message-id:")
        else ln
        for ln in head.split(b"\n")
    ]
    return b"\n".join(lines) + sep + body


def _play(h: Harness, side: str, body: str, to_mail: EmailMessage | None = None) -> bytes:
    raw = h.reply_bytes(side, body, to_mail=to_mail)
    h.inbox.deliver(raw)
    assert h.poll().outcomes == {"applied": 1}, h.inbound()[-1].detail
    return raw


def _campaign(h: Harness) -> EmailMessage:
    """Kennedy plays card 27 for its campaign points: the report asking for the first point."""
    _play(h, "kennedy", "first kennedy")
    _play(h, "kennedy", "campaign 27")
    return h.last_mail("kennedy")


def test_support_tx_sent_again_under_a_new_message_id_is_applied_once(h: Harness) -> None:
    asked = _campaign(h)
    raw = _play(h, "kennedy", "support TX", to_mail=asked)
    before, moves, mails = h.state(), _moves(h), len(h.mails_to("kennedy"))
    assert question(before, "kennedy") == question(h.state(), "kennedy")  # still asked
    h.inbox.deliver(_resend(h, raw))
    assert h.poll().outcomes == {"duplicate": 1}
    assert h.state() == before and _moves(h) == moves
    told = h.mails_to("kennedy")[mails:]
    assert len(told) == 1, "the sender is told once"
    assert "support TX" in h.text_of(told[0]) and "not applied again" in h.text_of(told[0])
    assert told[0]["Reply-To"] != asked["Reply-To"]  # the fresh key: to play it once more
    # a third copy is recorded too, and not answered again
    h.inbox.deliver(_resend(h, raw))
    assert h.poll().outcomes == {"duplicate": 1}
    assert len(h.mails_to("kennedy")) == mails + 1 and _moves(h) == moves
    assert [r.outcome for r in h.inbound()[-2:]] == ["duplicate", "duplicate"]


def test_support_nj_sent_again_is_a_duplicate_and_a_new_mail_to_that_report_still_plays(
    h: Harness,
) -> None:
    asked = _campaign(h)
    raw = _play(h, "kennedy", "support NJ", to_mail=asked)
    before = h.state()
    h.inbox.deliver(_resend(h, raw))
    assert h.poll().outcomes == {"duplicate": 1}
    assert h.state() == before
    # a genuinely new mail answering the same older report: applied, as documented
    _play(h, "kennedy", "support TX", to_mail=asked)
    assert [c for _, c in _moves(h)][-2:] == ["support NJ", "support TX"]


def test_the_same_lines_answering_a_newer_report_are_applied_again(h: Harness) -> None:
    asked = _campaign(h)
    _play(h, "kennedy", "support TX", to_mail=asked)
    _play(h, "kennedy", "support TX")  # the newest report: a second point in Texas
    assert [c for _, c in _moves(h)].count("support TX") == 2


def test_media_midwest_sent_again_is_applied_once(h: Harness) -> None:
    _play(h, "kennedy", "first kennedy")
    _play(h, "kennedy", "advertise 27")
    asked = h.last_mail("kennedy")
    assert "media midwest" in [c.lower() for c in h.legal("kennedy")]
    raw = _play(h, "kennedy", "media midwest", to_mail=asked)
    before = h.state()
    copy = _resend(h, raw)
    h.inbox.deliver(copy)
    assert h.poll().outcomes == {"duplicate": 1}
    assert h.state() == before
    assert [c.lower() for _, c in _moves(h)].count("media midwest") == 1


def test_a_copy_delivered_before_the_original_is_processed_is_applied_once(h: Harness) -> None:
    """Both copies in the INBOX at one poll (the client sent twice within seconds)."""
    asked = _campaign(h)
    raw = h.reply_bytes("kennedy", "support TX", to_mail=asked)
    h.inbox.deliver(raw)
    h.inbox.deliver(_resend(h, raw))
    assert h.poll().outcomes == {"applied": 1, "duplicate": 1}
    assert [c for _, c in _moves(h)].count("support TX") == 1
    with Session(h.db) as s:
        (repeated,) = s.exec(select(KeyAnswer).where(col(KeyAnswer.repeats) > 0)).all()
        assert repeated.repeats == 1 and repeated.side == "kennedy"


def test_thirty_mails_with_ten_resent_bodies_are_each_applied_once(h: Harness) -> None:
    """The harness's duplicate scenario, the same shapes: 20 mails placing support, media and
    issue points where they can, 10 of them sent again under a new Message-ID (5 at once, 5
    after the next mail); all 30 handled once: the game is exactly the game of the 20."""
    rnd = random.Random(29)
    sent: list[tuple[str, str]] = []
    late: list[bytes] = []
    outcomes: Counter[str] = Counter()
    for n in range(20):
        side = sorted(engine.active_sides(h.state()))[0]
        legal = h.legal(side)
        placing = [c for c in legal if c.split()[0] in ("support", "media", "issue")]
        command = rnd.choice(placing or legal)
        raw = h.reply_bytes(side, command)
        h.inbox.deliver(raw)
        if n % 4 == 0:
            h.inbox.deliver(_resend(h, raw))  # sent twice within seconds
        for copy in late:
            h.inbox.deliver(copy)  # a copy of the previous mail arrives after this one
        late = [_resend(h, raw)] if n % 4 == 2 else []
        outcomes.update(h.poll().outcomes)
        sent.append((side, command))
    assert not late
    assert outcomes == {"applied": 20, "duplicate": 10}
    assert sum(1 for r in h.inbound() if r.outcome == "duplicate") == 10
    expected = engine.new_game(2)
    for side, command in sent:
        expected = engine.apply(expected, side, command)
    assert h.state() == expected
    assert len(_moves(h)) == 20
