"""R17 over the new mail kinds: summaries, digests, settings confirmations, server-applied moves.

A whole game through the harness with Kennedy on the daily digest (an injected clock, a day per
round) and standing orders, Nixon mailed after every move with queued orders: every mail to a
side is checked, as in test_no_leak, against the cards hidden from it when it was rendered.
"""

from __future__ import annotations

import html
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import engine
from engine import forced
from engine.data import other
from engine.phases import momentum
from pbem.games.digest import digest_pass
from pbem.outbox import send as outbox
from pbem.reports import cardtext
from tests.pbem.harness import Harness
from tests.pbem.test_no_leak import _mail_texts, hidden_names


@pytest.mark.timeout(900)
def test_no_summary_digest_or_note_names_the_opponents_hidden_cards(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=11)
    h.reply("kennedy", "notify digest 6\nstanding trigger icon\nstanding swap decline")
    h.reply("nixon", "notify every\nstanding election 7 32 33")
    rnd = random.Random(11)
    clock = datetime.now(UTC)  # after the notify line; the outbox is drained at the clock's time
    seen = {side: 0 for side in engine.SIDES}
    kinds: set[str] = set()
    checked = 0
    for _ in range(3000):
        state = h.state()
        for side in engine.SIDES:  # mails rendered from this position
            hidden = hidden_names(state, side)
            for text in _mail_texts(h, side, seen[side]):
                text = " ".join(html.unescape(text).split())
                for n in engine.CARDS:  # a public event text naming another card is no leak
                    text = text.replace(" ".join(cardtext.event_text(n).split()), "")
                leaked = [n for n in hidden if n in text]
                assert not leaked, f"mail to {side} names {leaked}: " + " | ".join(
                    text[max(0, text.find(n) - 300) : text.find(n) + 60] for n in leaked
                )
                checked += 1
                kinds.update(
                    k
                    for k in (
                        "SINCE YOUR LAST DECISION",
                        "DONE FOR YOU BY THE SERVER",
                        "YOUR SETTINGS",
                        "What changed on the board",
                    )
                    if k in text
                )
            seen[side] = len(h.mails_to(side))
        if engine.result(state) is not None:
            break
        clock += timedelta(days=1)
        digest_pass(h.db, h.settings, clock)
        outbox.drain_outbox(h.db, h.settings, h.sender, now=clock)
        for side in sorted(engine.active_sides(h.state())):
            legal = engine.legal_commands(h.state(), side)
            body = rnd.choice(legal)
            if side == "nixon" and rnd.random() < 0.2:
                body += "\nthen\n" + rnd.choice(legal)  # usually cancelled: the situation moved on
            h.reply(side, body)
    assert engine.result(h.state()) is not None
    assert checked > 100
    assert kinds == {
        "SINCE YOUR LAST DECISION",
        "DONE FOR YOU BY THE SERVER",
        "YOUR SETTINGS",
        "What changed on the board",
    }


def test_a_declared_advertising_order_is_never_rejected_after_the_draw(tmp_path: Path) -> None:
    """R8.1 + R17: `advertise N: east 5` declares the places before the draw; points beyond the
    successes are dropped, so the mail applies whatever the cubes did and no rejection tells the
    player how many checks succeeded (the old strict form failed inside the line after the draw,
    with the position after the draw in its message)."""
    h = Harness(tmp_path)
    h.new_game(seed=2)  # Kennedy decides first
    assert h.reply("kennedy", "first kennedy").outcomes == {"applied": 1}
    card = next(c for c in h.legal("kennedy") if c.startswith("advertise "))
    before = h.state()
    stats = h.reply("kennedy", f"{card}: east 5")
    assert stats.outcomes == {"applied": 1}
    after = h.state()
    placed = after["media"]["east"] - before["media"]["east"]
    checks = [e["text"] for e in after["log"][len(before["log"]) :] if "support check" in e["text"]]
    successes = int(checks[0].rsplit("— ", 1)[1].split()[0])
    assert placed == successes
    assert "REJECTED" not in h.text_of(h.last_mail("kennedy"))


@pytest.mark.timeout(600)
def test_answering_the_momentum_phase_ahead_by_mail(tmp_path: Path) -> None:
    """The 2nd-issue leader's mail offers the rest of their Momentum phase and next turn's
    initiative in one line (R10.3-R11.1, R5.2); the line is read as a command and applied, and
    the initiative answer it keeps is in no mail to the opponent before the deal (R17)."""
    h = Harness(tmp_path)
    h.new_game(seed=3)
    for side in engine.SIDES:  # every trigger question asked: the game this test was written on
        h.reply(side, "standing trigger ask")
    rnd = random.Random(3)
    answered = used = 0
    for _ in range(1500):
        state = h.state()
        if engine.result(state) is not None or answered >= 2:
            break
        side = sorted(engine.active_sides(state))[0]
        a = momentum.ahead(state, side)
        if forced.deciding_step(state, side) != "award_choice" or not (a.first and a.need):
            h.reply(side, rnd.choice(h.legal(side)))
            continue
        prompt = " ".join(h.text_of(h.last_mail(side)).split())
        assert "The same line may answer the rest of your Momentum phase" in prompt
        cards = " ".join(map(str, a.strategy[: a.need]))
        line = f"endorsement: midwest, {', '.join(a.swaps[:1] or ['no swap'])}, strategy {cards}, first {side}"
        opp, seen, turn = other(side), len(h.mails_to(other(side))), state["turn"]
        assert h.reply(side, line).outcomes == {"applied": 1}
        now = h.state()
        kept = now["turn"] > turn or any(f.get("ahead", {}).get(side) for f in now["stack"])
        while h.state()["turn"] == turn:  # the rest of the turn (what was dropped is asked again)
            for s in sorted(engine.active_sides(h.state())):
                h.reply(s, rnd.choice(h.legal(s)))
        for msg in h.mails_to(opp)[seen:-1]:  # every mail before the one after the deal
            assert f"first {side}" not in h.text_of(msg) and "answered ahead" not in h.text_of(msg)
        log = " ".join(e["text"] for e in h.state()["log"] if e["turn"] == turn + 1)
        won = f"{side.title()} wins" in log
        assert ("answered ahead" in log) == (kept and won)
        if kept and won:
            assert f"{side.title()} chooses {side.title()} to go first" in log
        answered += kept
        used += kept and won
    assert answered == 2 and used >= 1, (answered, used)
