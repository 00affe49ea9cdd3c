"""The crash soak's duplicate attribution (`soak.attribution`): every extra copy of a
Message-ID is tied to the killed round that sent it and left it unmarked, and to the round
that sent it again (no mail stack: the rounds, copies and claims are given)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from soak import attribution
from soak.attribution import Ledger, Round, Row, Watch, summary

ROWS = {
    "<a@x>": Row("report", 1, "nixon", "dick@x"),
    "<b@x>": Row("report", 1, "kennedy", "jack@x"),
}


def rounds(ledger: Ledger, *specs: tuple[str, bool, list[str], list[tuple[str, str]]]) -> None:
    for kind, killed, copies, claims in specs:
        i = len(ledger.rounds)
        rnd = Round(21, i, kind, killed, 0.3 if killed else None, 0.6 if killed else None)
        ledger.round_done(rnd, copies, claims)


def test_a_copy_seen_after_the_round_that_left_it_claimed_is_that_kill_exactly() -> None:
    ledger = Ledger()
    rounds(
        ledger,
        ("poll", False, [], []),
        ("serve", True, ["<a@x>"], [("<a@x>", "host|1|s1")]),  # sent, killed before the mark
        ("poll", True, ["<a@x>"], []),  # freed the dead claim, sent and marked it
    )
    (dup,) = ledger.attribute(ROWS)
    assert (dup.copy, dup.copies, dup.how) == (1, 2, "exact")
    assert dup.cause == ledger.rounds[1] and dup.cause.kind == "serve" and dup.cause.killed
    assert dup.resent == ledger.rounds[2]
    assert dup.row == ROWS["<a@x>"]
    text = dup.describe()
    assert "seat nixon" in text and "serve killed after 0.30 s = 0.50 of the span" in text


def test_two_rows_left_unmarked_by_one_kill_are_two_duplicates_of_that_kill() -> None:
    ledger = Ledger()
    rounds(
        ledger,
        ("poll", True, ["<a@x>", "<b@x>"], [("<a@x>", "t1"), ("<b@x>", "t1")]),
        ("poll", False, ["<a@x>", "<b@x>"], []),
    )
    dups = ledger.attribute(ROWS)
    assert [(d.message_id, d.cause, d.resent, d.how) for d in dups] == [
        ("<a@x>", ledger.rounds[0], ledger.rounds[1], "exact"),
        ("<b@x>", ledger.rounds[0], ledger.rounds[1], "exact"),
    ]


def test_a_claim_still_held_after_a_later_round_stays_the_earlier_rounds() -> None:
    """Round 1 claimed the row and died; round 2 died before freeing it (same claimant):
    the copy seen only after round 2 (a late delivery) is round 1's, not round 2's."""
    ledger = Ledger()
    rounds(
        ledger,
        ("poll", False, [], []),
        ("poll", True, [], [("<a@x>", "t1")]),
        ("serve", True, ["<a@x>"], [("<a@x>", "t1")]),
        ("poll", False, ["<a@x>"], []),
    )
    (dup,) = ledger.attribute(ROWS)
    assert dup.cause == ledger.rounds[1] and dup.how == "window" and dup.others == ()


def test_of_two_rounds_that_claimed_a_row_the_copy_goes_to_the_one_after_which_it_was_seen() -> (
    None
):
    ledger = Ledger()
    rounds(
        ledger,
        ("poll", True, [], [("<a@x>", "t1")]),  # claimed, killed before sending
        ("serve", True, ["<a@x>"], [("<a@x>", "t2")]),  # claimed again, sent, not marked
        ("poll", False, ["<a@x>"], []),
    )
    (dup,) = ledger.attribute(ROWS)
    assert dup.cause == ledger.rounds[1] and dup.how == "exact"
    # the same claims, the first copy seen only after round 2: both rounds could have sent it
    late = Ledger()
    rounds(
        late,
        ("poll", True, [], [("<a@x>", "t1")]),
        ("serve", True, [], [("<a@x>", "t2")]),
        ("poll", False, ["<a@x>", "<a@x>"], []),
    )
    (dup,) = late.attribute(ROWS)
    assert dup.cause == late.rounds[1] and dup.how == "window" and dup.others == (0,)


def test_three_copies_are_two_duplicates_each_with_its_own_kill() -> None:
    ledger = Ledger()
    rounds(
        ledger,
        ("poll", True, ["<a@x>"], [("<a@x>", "t1")]),
        ("serve", True, ["<a@x>"], [("<a@x>", "t2")]),
        ("poll", False, ["<a@x>"], []),
    )
    dups = ledger.attribute(ROWS)
    assert [(d.copy, d.cause, d.resent) for d in dups] == [
        (1, ledger.rounds[0], ledger.rounds[1]),
        (2, ledger.rounds[1], ledger.rounds[2]),
    ]


def test_a_copy_no_round_left_claimed_is_unattributed_and_single_copies_are_no_duplicates() -> None:
    ledger = Ledger()
    rounds(
        ledger,
        ("poll", True, ["<a@x>", "<b@x>"], [("<b@x>", "t1")]),  # b: claimed, sent once
        ("poll", False, ["<a@x>"], []),
    )
    ledger.late_copies([])
    (dup,) = ledger.attribute(ROWS)
    assert dup.message_id == "<a@x>" and dup.cause is None and dup.how == "unattributed"
    assert "unattributed 1" in summary([dup], Counter(poll=1))


def test_summary_gives_duplicates_per_1000_kills_of_each_kind() -> None:
    ledger = Ledger()
    rounds(
        ledger,
        ("poll", True, ["<a@x>"], [("<a@x>", "t1")]),
        ("serve", True, ["<b@x>", "<a@x>"], [("<b@x>", "t2")]),
        ("poll", False, ["<b@x>"], []),
    )
    text = summary(ledger.attribute(ROWS), Counter(poll=700, serve=300))
    assert "poll 1 in 700 kills (1.4 per 1,000)" in text
    assert "serve 1 in 300 kills (3.3 per 1,000)" in text
    assert "[exact 2]" in text


def test_the_queue_wait_ends_when_the_queue_is_empty_or_at_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for q in ("maildrop", "incoming", "active", "deferred"):
        (tmp_path / q).mkdir()
    (tmp_path / "deferred" / "A").mkdir()
    (tmp_path / "deferred" / "A" / "A1B2C3").write_text("")  # deferred: not waited for
    watch = Watch(None, [], tmp_path)
    watch.settle()
    assert watch.unsettled == 0
    (tmp_path / "active" / "D4E5F6").write_text("")
    monkeypatch.setattr(attribution, "SETTLE", 0.05)
    watch.settle()
    assert watch.unsettled == 1


def test_summary_counts_sigterm_stops_apart() -> None:
    ledger = Ledger()
    ledger.round_done(Round(21, 0, "poll", True, 0.3, 0.6, "SIGTERM"), [], [])
    ledger.round_done(Round(21, 1, "serve", True, 0.3, 0.6), ["<a@x>"], [("<a@x>", "t1")])
    ledger.round_done(Round(21, 2, "poll"), ["<a@x>"], [])
    (dup,) = ledger.attribute(ROWS)
    assert "serve killed after 0.30 s" in dup.describe()
    assert (
        Round(21, 0, "poll", True, 0.3, 0.6, "SIGTERM")
        .describe()
        .endswith("poll sent SIGTERM after 0.30 s = 0.50 of the span 0.60 s")
    )
    text = summary([dup], Counter({"poll SIGTERM": 40, "serve": 10}))
    assert "serve 1 in 10 kills (100.0 per 1,000)" in text
    assert "poll SIGTERM 0 in 40 stops (0.0 per 1,000)" in text
    assert "serve SIGTERM" not in text
    only_term = summary([], Counter({"poll SIGTERM": 40}))
    assert "poll 0 in" not in only_term and "poll SIGTERM 0 in 40 stops" in only_term
