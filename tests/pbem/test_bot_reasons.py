"""A computer opponent says why it plays (issue 31): each of its moves keeps its reason, and the
human's reports and the observers' mails show it beside the move, in words that never name a
card its reader cannot see (R17)."""

from __future__ import annotations

import html as htmllib
import random
import re
from email.message import EmailMessage
from pathlib import Path

import pytest

import engine
from bots.decision import HIDDEN, hide_cards
from pbem.games.bots import public_cards
from tests.pbem.fairplay_helpers import whole_text
from tests.pbem.harness import Harness, player_mail
from tests.pbem.test_bot_seat import bot_game, moves

WATCHER = "watcher@observers.test"
WHY = re.compile(r"— why: (.*?)(?=\n(?! {6})|\Z)", re.S)  # a reason, over its wrapped lines


def test_hide_cards_words_a_reason_without_the_hidden_ones() -> None:
    reason = (
        "best of 45 options by the rules of thumb, worth about +47.4 electoral votes, "
        "against +29.9 for 'campaign 39' (#39 Lyndon Johnson); then campaign 42, support CA x4 "
        "(the rules of thumb alone would have played 'campaign 51 preempt' (#51 Missile Gap))"
    )
    assert hide_cards(reason, {39, 42, 51}) == reason
    hidden = hide_cards(reason, {42})
    assert "39" not in hidden and "Johnson" not in hidden and "51" not in hidden
    assert "Missile" not in hidden and "campaign 42" in hidden
    assert "for 'campaign' with a hidden card; then" in hidden
    assert hide_cards("#12 and #7.", set()) == f"{HIDDEN} and a second hidden card."


def test_hide_cards_tells_different_hidden_cards_apart() -> None:
    """Two options with different hidden cards must not read as one (as they did:
    "'strategy' with a hidden card ... would have played 'strategy' with a hidden card")."""
    reason = (
        "won 50 % of 5302 simulated games, against 50 % of 5298 for 'strategy 25' (#25 1960 "
        "Civil Rights Act), the next most promising of 2 options tried in 10600 games (the rules "
        "of thumb alone would have played 'strategy 87' (#87 Stevenson Loyalists)); then event 25"
    )
    assert hide_cards(reason, {25, 87}) == reason
    assert hide_cards(reason, set()) == (
        "won 50 % of 5302 simulated games, against 50 % of 5298 for 'strategy' with a hidden "
        "card, the next most promising of 2 options tried in 10600 games (the rules of thumb "
        "alone would have played 'strategy' with a second hidden card); then event with the "
        "first hidden card"
    )
    assert hide_cards(reason, {87}).endswith("then event with the same hidden card")
    assert hide_cards("#12, #7, #3 and #12", set()) == (
        f"{HIDDEN}, a second hidden card, a third hidden card and the first hidden card"
    )


def hidden_from(state: engine.GameState, reader: str | None) -> set[int]:
    """The cards ``reader`` (None: an observer) cannot see: every card not public, but those
    of their own hand, stack and debate hand and those revealed to them."""
    if reader is None:
        return set(engine.CARDS) - public_cards(state)
    v = engine.view(state, reader)
    own = set(v["hand"]) | set(v["stack"]) | set((v["debate"] or {}).get("hand", []))
    for r in v["revealed"]:
        own.update(r.get("cards", []))
    return set(engine.CARDS) - public_cards(state) - own


def leaks(text: str, hidden: set[int]) -> list[str]:
    """The hidden cards ``text`` names: by number and name, or in a command."""
    found = [f"#{n}" for n in hidden if re.search(rf"#{n}\b", text)]
    found += [engine.CARDS[n].name for n in hidden if engine.CARDS[n].name in text]
    commands = re.finditer(r"\b(event|campaign|advertise|position|strategy|vp|debate) (\d+)", text)
    return found + [m[0] for m in commands if int(m[2]) in hidden]


def reasons_in(msg: EmailMessage) -> list[str]:
    return [" ".join(w.split()) for w in WHY.findall(whole_text(msg))]


def html_of(msg: EmailMessage) -> str:
    part = msg.get_body(("html",))
    assert part is not None
    return htmllib.unescape(str(part.get_content()))


def observe(h: Harness) -> None:
    """An observer, asked for by the human and confirmed by mail."""
    h.reply("kennedy", "observe " + WATCHER)
    h.mails_to("kennedy")
    ask = to_watcher(h)[0]
    code = re.search(r"confirm ([A-Z2-7]{6})", " ".join(whole_text(ask).split()))
    assert code is not None
    h.inbox.deliver(
        player_mail(
            WATCHER,
            str(ask["Reply-To"]),
            f"confirm {code.group(1)}",
            in_reply_to=str(ask["Message-ID"]),
        )
    )
    h.poll()


def to_watcher(h: Harness) -> list[EmailMessage]:
    h.mails_to("kennedy")
    return [m for rcpts, m in h._parsed if WATCHER in rcpts]


@pytest.mark.parametrize(
    ("spec", "words", "human_moves"),
    [("bot:heuristic", "by the rules of thumb", 70), ("bot:search:20i", "simulated games", 30)],
)
def test_the_reports_show_the_bots_reasons_and_never_a_card_the_reader_cannot_see(
    tmp_path: Path, spec: str, words: str, human_moves: int
) -> None:
    h = bot_game(tmp_path, bot=spec, seed=11)
    observe(h)
    rnd = random.Random(11)
    seen_human, seen_watcher = len(h.mails_to("kennedy")), len(to_watcher(h))
    reasons: list[str] = []
    for _ in range(human_moves):
        state = h.state()
        if engine.result(state) is not None:
            break
        h.reply("kennedy", rnd.choice(engine.legal_commands(state, "kennedy")))
        state = h.state()
        for reader, mails, seen in (
            ("kennedy", h.mails_to("kennedy"), seen_human),
            (None, to_watcher(h), seen_watcher),
        ):
            hidden = hidden_from(state, reader)
            for msg in mails[seen:]:
                whys = reasons_in(msg)
                reasons += whys
                text = whole_text(msg)
                html = html_of(msg)
                html_whys = re.findall(r"— why: (.*?)</span>", html)
                assert len(html_whys) == len(whys)
                assert not leaks(" ".join(whys + html_whys), hidden), (reader, whys)
                for n in hidden:  # the strict form anywhere in the mail
                    name = f"#{n} {engine.CARDS[n].name}"
                    assert name not in text and name not in html, (reader, n)
        seen_human, seen_watcher = len(h.mails_to("kennedy")), len(to_watcher(h))
    # the bot's own decisions (the forced ones the server plays with a mail are nobody's)
    bot = [m for m in moves(h) if m.side == "nixon" and m.inbound_id is None]
    assert bot and all(m.reason for m in bot)
    assert sum(m.log_index is not None for m in bot) > len(bot) // 2
    assert len(reasons) > 10  # the reports showed them
    assert any(words in r for r in reasons)
    assert any(HIDDEN in r for r in reasons)  # and a hand card was worded away
    assert any("— why:" in html_of(m) for m in h.mails_to("kennedy"))
    assert any(reasons_in(m) for m in to_watcher(h))  # the observers read them too
