"""The exact outcome of each kind of inbound mail (issue 5 "Tests"), via the in-memory harness."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from pbem.store.models import Move
from pbem.worker import intake
from tests.pbem.harness import EMAILS, Harness, player_mail


@pytest.fixture
def h(tmp_path: Path) -> Harness:
    harness = Harness(tmp_path)
    harness.new_game(seed=2)  # Kennedy decides first
    return harness


def _moves(h: Harness) -> list[Move]:
    from sqlmodel import Session, select

    with Session(h.db) as s:
        return list(s.exec(select(Move).where(Move.game_id == h.game_id)))


def test_welcome_mail_carries_a_reply_key_threading_and_auto_submitted(h: Harness) -> None:
    for side in engine.SIDES:
        (mail,) = h.mails_to(side)
        assert mail["Reply-To"].startswith("game+g1" + side[0])
        assert mail["Auto-Submitted"] == "auto-generated"
        assert mail["Subject"].startswith(f"[1960 #{h.game_id}]")
        assert h.seat(side).thread_root == mail["Message-ID"]


def test_a_legal_command_is_applied_and_the_deciding_side_gets_a_report(h: Harness) -> None:
    cmd = "first kennedy"
    stats = h.reply("kennedy", cmd)
    assert stats.outcomes == {"applied": 1}
    assert [(m.side, m.command, m.seq) for m in _moves(h)] == [("kennedy", cmd, 1)]
    assert h.state() == engine.apply(engine.new_game(2), "kennedy", cmd)
    # notify decisions (default): Kennedy plays first and is mailed; Nixon has nothing to decide
    assert len(h.mails_to("kennedy")) == 2 and len(h.mails_to("nixon")) == 1
    report = h.last_mail("kennedy")
    assert cmd in h.text_of(report)  # the results section echoes the line
    assert report["In-Reply-To"] and "player." in report["In-Reply-To"]
    assert h.inbox.folder_uids("Processed") == [1]


def test_duplicate_delivery_is_applied_once(h: Harness) -> None:
    raw = h.reply_bytes("kennedy", h.legal("kennedy")[0])
    h.inbox.deliver(raw)
    h.inbox.deliver(raw)  # the MTA delivered it twice (same Message-ID, new UID)
    stats = h.poll()
    assert stats.outcomes == {"applied": 1, "duplicate": 1}
    assert len(_moves(h)) == 1
    assert len(h.mails_to("kennedy")) == 2  # welcome + one report, no second answer
    assert len(h.inbox.folder_uids("Processed")) == 2 and not h.inbox.folder_uids("INBOX")


def test_redelivery_after_a_crash_before_the_move_is_a_noop(h: Harness) -> None:
    raw = h.reply_bytes("kennedy", h.legal("kennedy")[0])
    from pbem.pipeline.runner import process_message

    assert (
        process_message(h.db, h.settings, raw, mailbox="INBOX", uidvalidity=1, uid=1).outcome
        == "applied"
    )
    # the worker died before UID MOVE: the same UID comes back on the next poll
    assert (
        process_message(h.db, h.settings, raw, mailbox="INBOX", uidvalidity=1, uid=1).outcome
        == "duplicate"
    )
    assert len(_moves(h)) == 1


def _play_until_kennedy_decision_changes(h: Harness) -> None:
    gen = h.seat("kennedy").key_gen
    while h.seat("kennedy").key_gen == gen:
        side = sorted(engine.active_sides(h.state()))[0]
        assert h.reply(side, h.legal(side)[0]).outcomes == {"applied": 1}


def test_a_stale_reply_is_explained_and_not_applied(h: Harness) -> None:
    welcome = h.mails_to("kennedy")[0]
    _play_until_kennedy_decision_changes(h)
    before, n_moves = h.state(), len(_moves(h))
    # the welcome's question, with other lines than the mail that answered it ('first kennedy':
    # the same lines again would be a re-sent copy, test_resent_mail.py)
    stats = h.reply("kennedy", "first nixon", to_mail=welcome)
    assert stats.outcomes == {"rejected": 1}
    assert h.state() == before and len(_moves(h)) == n_moves
    answer = h.last_mail("kennedy")
    assert answer["Reply-To"] != welcome["Reply-To"]  # the explanation carries the fresh key
    assert "older report" in h.inbound()[-1].detail


def test_a_forged_from_gets_no_reply_at_all(h: Harness) -> None:
    sent = len(h.sender.sent)
    stats = h.reply("kennedy", h.legal("kennedy")[0], frm="mallory@evil.test")
    assert stats.outcomes == {"ignored": 1}
    assert len(h.sender.sent) == sent and len(h.outbox()) == sent
    assert not _moves(h)
    assert "forgery" in h.inbound()[-1].detail


def test_an_unknown_sender_without_key_gets_no_reply(h: Harness) -> None:
    sent = len(h.sender.sent)
    h.inbox.deliver(player_mail("stranger@else.test", "game@pbem.test", "help"))
    assert h.poll().outcomes == {"ignored": 1}
    assert len(h.sender.sent) == sent


def test_a_player_without_key_is_told_at_the_registered_address(h: Harness) -> None:
    h.inbox.deliver(player_mail(EMAILS["nixon"], "game@pbem.test", "help"))
    assert h.poll().outcomes == {"rejected": 1}
    answer = h.last_mail("nixon")
    assert answer["To"] == EMAILS["nixon"]
    assert h.outbox()[-1].kind == "key_problem"


def test_a_reply_to_the_bare_address_is_matched_by_its_references(h: Harness) -> None:
    welcome = h.last_mail("kennedy")
    raw = player_mail(
        EMAILS["kennedy"],
        "game@pbem.test",
        h.legal("kennedy")[0],
        in_reply_to=welcome["Message-ID"],
    )
    h.inbox.deliver(raw)
    assert h.poll().outcomes == {"applied": 1}


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto-Submitted": "auto-replied"},
        {"Precedence": "bulk"},
        {"X-Autoreply": "yes"},
    ],
)
def test_auto_replies_are_recorded_and_ignored(h: Harness, headers: dict[str, str]) -> None:
    sent = len(h.sender.sent)
    stats = h.reply("kennedy", "I am on vacation until Monday.", headers=headers)
    assert stats.outcomes == {"ignored": 1}
    assert len(h.sender.sent) == sent and not _moves(h)
    row = h.inbound()[-1]
    assert row.outcome == "ignored" and "automatic" in row.detail


def test_an_html_only_reply_is_read(h: Harness) -> None:
    cmd = h.legal("kennedy")[0]
    html = f"<html><body><p>{cmd}</p><div class='gmail_quote'>old stuff</div></body></html>"
    assert h.reply("kennedy", "", html=html).outcomes == {"applied": 1}
    assert [m.command for m in _moves(h)] == [cmd]


def test_quoted_history_is_not_read_as_commands(h: Harness) -> None:
    legal = h.legal("kennedy")
    body = (
        f"{legal[0]}\n\nThanks!\n\nOn Mon, 3 Oct 1960, game@pbem.test wrote:\n"
        f"> {legal[1]}\n> {legal[-1]}\n"
    )
    assert h.reply("kennedy", body).outcomes == {"applied": 1}
    assert [m.command for m in _moves(h)] == [legal[0]]


def test_a_garbled_line_rejects_the_whole_mail_and_reveals_nothing(h: Harness) -> None:
    assert h.reply("kennedy", "first kennedy").outcomes == {"applied": 1}
    state = h.state()
    first = next(c for c in h.legal("kennedy") if c.startswith("campaign"))
    after_first = engine.apply(state, "kennedy", first)
    revealed = [
        e["text"]
        for e in after_first["log"][len(state["log"]) :]
        if e["to"] in (None, "kennedy") and e["text"] not in {x["text"] for x in state["log"]}
    ]
    stats = h.reply("kennedy", f"{first}\ncampaign frobnicate\n")
    assert stats.outcomes == {"rejected": 1}
    assert h.state() == state and len(_moves(h)) == 1
    text = h.text_of(h.last_mail("kennedy"))
    flat = " ".join(text.split())
    assert "REJECTED campaign frobnicate" in flat and "fine on its own, but not applied" in flat
    assert engine.decision(state, "kennedy") in text or h.legal("kennedy")[0] in text
    for line in revealed:  # R17: failing on purpose must not show what the prefix did
        assert line not in text
    assert h.seat("kennedy").last_log == len(state["log"])
    assert revealed  # the prefix did log something the reply must not show


def test_not_your_turn_is_rejected_with_an_answer(h: Harness) -> None:
    assert engine.active_sides(h.state()) == {"kennedy"}
    stats = h.reply("nixon", "pass")
    assert stats.outcomes == {"rejected": 1}
    assert h.outbox()[-1].kind == "rejected" and h.outbox()[-1].recipient == EMAILS["nixon"]


def test_help_and_status_answer_without_a_move(h: Harness) -> None:
    assert h.reply("kennedy", "help\nstatus").outcomes == {"answered": 1}
    assert [r.kind for r in h.outbox()[-2:]] == ["help", "status"]
    assert not _moves(h)


def test_a_mail_without_commands_is_answered(h: Harness) -> None:
    assert h.reply("kennedy", "What a nice game!").outcomes == {"rejected": 1}
    assert "no command" in h.inbound()[-1].detail


def test_a_crash_is_quarantined_and_the_worker_carries_on(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pbem.pipeline.stages.apply as apply_stage

    real = engine.apply_in_place
    calls = {"n": 0}

    def explode(g: dict, side: str, text: str) -> list[str]:
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("rules bug")
        return real(g, side, text)

    monkeypatch.setattr(apply_stage.engine, "apply_in_place", explode)
    cmd = h.legal("kennedy")[0]
    h.inbox.deliver(h.reply_bytes("kennedy", cmd))
    h.inbox.deliver(h.reply_bytes("kennedy", cmd))
    stats = h.poll()
    assert stats.outcomes == {"quarantined": 1, "applied": 1}
    assert h.inbox.folder_uids("Quarantine") == [1] and h.inbox.folder_uids("Processed") == [1]
    from sqlmodel import Session, select

    from pbem.store.models import Quarantine

    with Session(h.db) as s:
        (q,) = s.exec(select(Quarantine)).all()
    assert q.stage == "apply" and "rules bug" in q.error and q.raw
    assert q.message_id.startswith("<player.") and q.uid == 1
    assert len(_moves(h)) == 1


def test_mail_after_the_game_ended_gets_the_final_report(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sqlmodel import Session

    from pbem.store.models import Game

    with Session(h.db) as s:
        game = s.get(Game, h.game_id)
        assert game is not None
        game.status = "over"
        s.add(game)
        s.commit()
    assert h.reply("kennedy", "help").outcomes == {"rejected": 1}
    assert h.outbox()[-1].kind == "game_over"


def test_error_replies_to_one_sender_are_rate_limited(h: Harness) -> None:
    from pbem.pipeline.runner import MAX_ERROR_REPLIES_PER_HOUR

    for _ in range(MAX_ERROR_REPLIES_PER_HOUR + 2):
        h.inbox.deliver(player_mail(EMAILS["nixon"], "game@pbem.test", "help"))
    assert h.poll().outcomes == {"rejected": MAX_ERROR_REPLIES_PER_HOUR + 2}
    assert len(h.mails_to("nixon")) == 1 + MAX_ERROR_REPLIES_PER_HOUR  # welcome + the limit
    assert "limit reached" in h.inbound()[-1].detail


def test_the_last_answered_error_says_that_more_errors_go_unanswered(h: Harness) -> None:
    """Found by playing: after five mistakes in an hour the sixth reply got no answer at all;
    the fifth answer now says so (the limit guards against mail loops)."""
    from pbem.pipeline.runner import MAX_ERROR_REPLIES_PER_HOUR

    for n in range(MAX_ERROR_REPLIES_PER_HOUR):
        assert h.reply("kennedy", f"frist kennedy {n}").outcomes == {"rejected": 1}
        text = " ".join(h.text_of(h.last_mail("kennedy")).split())
        last = n == MAX_ERROR_REPLIES_PER_HOUR - 1
        assert ("will not be answered" in text) == last, n
    assert "until" in text and "orders that can be applied are still applied" in text.lower()


def test_an_error_after_a_random_draw_withholds_the_details(h: Harness) -> None:
    assert h.reply("kennedy", "first kennedy").outcomes == {"applied": 1}
    state = h.state()
    after = engine.apply(engine.apply(state, "kennedy", "campaign 27"), "kennedy", "check CA 1")
    assert after["rng"] != state["rng"]  # the support check drew cubes (R7.4)
    stats = h.reply("kennedy", "campaign 27\ncheck CA 1\ncampaign frobnicate\n")
    assert stats.outcomes == {"rejected": 1}
    assert h.state() == state
    text = h.text_of(h.last_mail("kennedy"))
    assert "details withheld" in text
    drawn = [e["text"] for e in after["log"][len(state["log"]) :] if e["to"] in (None, "kennedy")]
    assert drawn and not any(line in text for line in drawn)


def test_a_flooded_inbox_is_processed_in_batches(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:

    monkeypatch.setattr(intake, "FETCH_BATCH", 3)
    for i in range(7):
        h.inbox.deliver(player_mail(f"stranger{i}@else.test", "game@pbem.test", "help"))
    assert h.poll().outcomes == {"ignored": 7}
    assert not h.inbox.folder_uids("INBOX")
