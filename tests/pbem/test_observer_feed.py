"""Observers: consent by a confirmation code, both players told, and every public event
whoever causes it (a player's mail, the autopilot, a claim, a resignation, a seat change),
through the pipeline and the worker pass."""

from __future__ import annotations

import re
from email.message import EmailMessage
from pathlib import Path

from pbem.games.seats import change_seat
from pbem.worker.worker_pass import worker_pass
from tests.pbem.clockharness import ClockGame, other
from tests.pbem.fairplay_helpers import whole_text
from tests.pbem.harness import Harness, player_mail

WATCHER = "watcher@observers.test"


def to_watcher(h: Harness) -> list[EmailMessage]:
    h.mails_to("kennedy")
    return [msg for rcpts, msg in h._parsed if WATCHER in rcpts]


def text(msg: EmailMessage) -> str:
    return " ".join(whole_text(msg).split())


def walk(g: ClockGame, hours: float) -> None:
    """The worker pass every half hour (clocks, then the observers of what changed)."""
    for _ in range(int(hours * 2)):
        g.advance(minutes=30)
        worker_pass(g.h.db, g.h.settings, now=g.at, sender=g.h.sender)


def confirm(g: ClockGame, body: str | None = None) -> None:
    ask = to_watcher(g.h)[0]
    code = re.search(r"confirm ([A-Z2-7]{6})", text(ask))
    assert code is not None, text(ask)
    g.deliver(
        player_mail(
            WATCHER,
            str(ask["Reply-To"]),
            body or f"Yes please!\n\nconfirm {code.group(1)}",
            in_reply_to=str(ask["Message-ID"]),
        )
    )


def test_an_observer_must_consent_and_then_sees_the_autopilot_and_the_resignation(
    tmp_path: Path,
) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h+2h", expiry="autopilot", grace="1h")
    late = g.to_move()
    asker = other(late)
    g.reply(asker, "observe " + WATCHER)
    (ask,) = to_watcher(g.h)  # a request with a code, not the board
    assert "Do you want to observe" in str(ask["Subject"])
    assert "Electoral votes" not in text(ask) and "Since" not in text(ask)
    assert "asked" in str(g.h.last_mail(asker)["Subject"]).lower()
    walk(g, 1)
    confirm(g, "sounds fun")  # no code: nothing starts
    assert len(to_watcher(g.h)) == 1

    confirm(g)
    welcome = to_watcher(g.h)[-1]
    assert "You observe this game" in str(welcome["Subject"])
    body = text(welcome)
    assert body.index("Welcome") < body.index("What happened")  # the welcome comes first
    for side in ("kennedy", "nixon"):  # both players are told who observes
        assert any(WATCHER in str(m["Subject"]) for m in g.h.mails_to(side)), side

    seen = len(to_watcher(g.h))
    walk(g, 11.5)  # the late side's clock and grace run out: the autopilot moves for them
    news = [text(m) for m in to_watcher(g.h)[seen:]]
    assert any("computer player moved for them" in t for t in news), news

    g.reply(late, "resign")
    code = re.search(r"resign ([A-Z2-7]{6})", g.text(late)).group(1)  # type: ignore[union-attr]
    seen = len(to_watcher(g.h))
    g.reply(late, f"resign {code}")
    (final,) = to_watcher(g.h)[seen:]
    assert "game over" in str(final["Subject"]) and f"{asker.title()} wins" in str(final["Subject"])
    assert f"{late.title()} resigned" in text(final)


def test_an_observer_sees_the_claim_offer_the_claim_and_a_seat_change(tmp_path: Path) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h", expiry="claim", grace="1h")
    late = g.to_move()
    g.reply(other(late), "observe " + WATCHER)
    confirm(g)
    seen = len(to_watcher(g.h))
    change_seat(g.h.db, g.h.settings, g.h.game_id, other(late), "new@players.test", now=g.at)
    walk(g, 0.5)
    assert any("seat has a new player" in text(m) for m in to_watcher(g.h)[seen:])
    walk(g, 11.5)
    assert any("may claim the win" in text(m) for m in to_watcher(g.h)[seen:])
    seen = len(to_watcher(g.h))
    g.h.mails_to("kennedy")
    newest = [msg for rcpts, msg in g.h._parsed if "new@players.test" in rcpts][-1]
    g.mail_from("new@players.test", newest, "claim")
    (final,) = to_watcher(g.h)[seen:]
    assert "game over" in str(final["Subject"])
    assert f"{late.title()} ran out of time" in text(final)
