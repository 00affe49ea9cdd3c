"""Observers: consent by code, public view only, List-Unsubscribe, unsubscribing by mail, refusals;
fixed-seed exports."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlmodel import Session, select

import engine
from pbem.cli import cli
from pbem.games.fairplay.export import build_export
from pbem.games.fairplay.observers import ObserverError, add_observer
from pbem.games.fairplay.verify import verify_export
from pbem.store.db import transaction
from pbem.store.models import Game, Observer, utcnow
from tests.pbem.fairplay_helpers import attachment, confirm_observer, play_out, whole_text
from tests.pbem.harness import EMAILS, Harness, player_mail

WATCHER = "watcher@observers.test"


@pytest.fixture
def h(tmp_path: Path) -> Harness:
    h = Harness(tmp_path)
    h.new_game(seed=11)
    return h


def to_watcher(h: Harness) -> list:  # type: ignore[type-arg]
    h.mails_to("kennedy")
    return [msg for rcpts, msg in h._parsed if WATCHER in rcpts]


def observe(h: Harness, address: str = WATCHER) -> None:
    env = {
        "PBEM_DATABASE_URL": h.settings.database_url,
        "PBEM_ADDRESS": h.settings.address,
        "PBEM_SECRET": h.settings.secret,
    }
    out = CliRunner().invoke(cli, ["observe", str(h.game_id), address], env=env)
    assert out.exit_code == 0, out.output
    h.send()
    confirm_observer(h, address)


def move(h: Harness, rnd: random.Random) -> None:
    state = h.state()
    side = sorted(engine.active_sides(state))[0]
    h.reply(side, rnd.choice(engine.legal_commands(state, side)))


def test_an_observer_gets_the_public_board_after_every_move_and_can_unsubscribe(h: Harness) -> None:
    observe(h)
    ask, first = to_watcher(h)
    assert "observe" in str(ask["Subject"]) and "confirm" in whole_text(ask)
    assert "unsubscribe" in whole_text(first) and "Welcome" in whole_text(first)
    hand = {engine.CARDS[c].name for s in engine.SIDES for c in h.state()["hands"][s]}
    assert not [n for n in hand if n in whole_text(first)]
    unsub = str(first["List-Unsubscribe"]).strip()
    assert unsub.startswith("<mailto:game+o") and "?subject=unsubscribe>" in unsub
    rnd = random.Random(1)
    for _ in range(3):
        move(h, rnd)
    assert len(to_watcher(h)) == 5
    address = unsub.removeprefix("<mailto:").split("?")[0]
    h.inbox.deliver(player_mail(WATCHER, address, "thanks, looks great"))  # not a request
    h.poll()
    assert len(to_watcher(h)) == 5 and h.inbound()[-1].outcome == "ignored"
    h.inbox.deliver(player_mail(WATCHER, address, "", subject="unsubscribe"))  # the mailto link
    h.poll()
    assert "Unsubscribed" in str(to_watcher(h)[-1]["Subject"])
    move(h, rnd)
    assert len(to_watcher(h)) == 6  # nothing more after the confirmation
    with Session(h.db) as s:
        assert s.exec(select(Observer)).one().active is False


def test_a_forged_unsubscribe_address_does_nothing(h: Harness) -> None:
    observe(h)
    h.inbox.deliver(player_mail("x@y.test", "game+o1-aaaaaaaaaaaaaaaa@pbem.test", "unsubscribe"))
    h.poll()
    with Session(h.db) as s:
        assert s.exec(select(Observer)).one().active is True


def test_a_player_can_invite_an_observer_by_mail(h: Harness) -> None:
    h.reply("nixon", "observe " + WATCHER)
    assert "Observer asked" in str(h.last_mail("nixon")["Subject"])
    assert "observe" in str(to_watcher(h)[0]["Subject"]) and "Nixon's player" in whole_text(
        to_watcher(h)[0]
    )
    confirm_observer(h, WATCHER)
    for side in ("kennedy", "nixon"):
        assert WATCHER in str(h.last_mail(side)["Subject"]), side
    h.reply("nixon", "observe " + EMAILS["kennedy"])
    assert "not added" in str(h.last_mail("nixon")["Subject"])
    assert "plays in game" in h.text_of(h.last_mail("nixon"))


def test_refusals(h: Harness) -> None:
    with transaction(h.db) as s:
        game = s.get(Game, h.game_id)
        assert game is not None
        for bad in ("not-an-address", EMAILS["nixon"]):
            with pytest.raises(ObserverError):
                add_observer(s, h.settings, game, bad, added_by="operator", now=utcnow())
        add_observer(s, h.settings, game, WATCHER, added_by="operator", now=utcnow())
        with pytest.raises(ObserverError, match="already asked"):
            add_observer(s, h.settings, game, WATCHER, added_by="operator", now=utcnow())


@pytest.mark.timeout(600)
def test_a_fixed_seed_game_exports_and_replays_without_a_commitment(h: Harness) -> None:
    play_out(h, random.Random(4))
    with Session(h.db) as s:
        game = s.get(Game, h.game_id)
        assert game is not None and game.status == "over"
        data = build_export(s, h.settings, game)
    assert data["commitment"] is None and data["engine_seed"] == "11"
    verdict = verify_export(data)
    assert verdict.ok and "fixed seed" in verdict.message
    final = h.last_mail("kennedy")
    assert "game over" in str(final["Subject"])
    assert attachment(final) is None  # nothing to reveal, no export attached
