"""End to end over real SMTP and IMAP with a compressed clock (seconds): a silent player gets the
reminders, the game ends by the chosen policy, both players get the result mail.

Runs against the embedded servers and (marked ``mailstack``) the real Dovecot + Postfix stack.
The worker loop is the one `pbem serve` runs: tick, poll, drain — every 0.3 s here. The
clock is 30 s with reminders at 20 % and 50 % used.
"""

from __future__ import annotations

import email
import email.policy
import time
from pathlib import Path

import pytest
from sqlmodel import Session

from pbem.clocks.control import parse_control
from pbem.games import setup as game_setup
from pbem.games.timekeeping.tick import tick
from pbem.outbox import send as outbox
from pbem.store.db import make_engine, migrate
from pbem.store.models import Game
from pbem.worker import intake
from tests.pbem.mailtools import MailServer, player_mail


def _subjects(server: MailServer, address: str, count: int) -> list[str]:
    found = server.wait_for(address, count, timeout=20)
    return [
        str(email.message_from_bytes(f.raw, policy=email.policy.default)["Subject"]) for f in found
    ]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("policy", ["forfeit", "claim"])
def test_a_silent_player_is_reminded_and_loses_by_the_chosen_policy(
    mail_server: MailServer, tmp_path: Path, policy: str
) -> None:
    game_address = mail_server.fresh_address("game")
    settings = mail_server.game_settings(
        f"sqlite:///{tmp_path}/clock.db", "e2e-clock", game_address
    )
    db = make_engine(settings.database_url)
    migrate(db)
    addr = {side: mail_server.fresh_address(side) for side in ("kennedy", "nixon")}
    # Rungs 9 s apart and 15 s before zero: a pass slowed by a loaded machine still meets each
    # rung while time is left (a rung first seen after zero is rightly never sent).
    control = parse_control("30s", expiry=policy, grace="6s", reminders="20%,50%")
    game_id = game_setup.new_game(
        db, settings, kennedy=addr["kennedy"], nixon=addr["nixon"], seed=7, clock=control
    )
    sender = outbox.make_sender(settings)

    def worker_pass() -> None:  # as `pbem serve` does it (the poll only when mail is expected)
        tick(db, settings)
        if policy == "claim":
            with intake.open_mailbox(settings) as inbox:
                inbox.ensure_folders()
                intake.poll_once(db, settings, inbox)
        outbox.drain_outbox(db, settings, sender)

    worker_pass()  # the welcome mails; Nixon (who won the initiative) stays silent
    deadline = time.monotonic() + 90
    claimed = False
    while time.monotonic() < deadline:
        worker_pass()
        with Session(db) as s:
            game = s.get(Game, game_id)
            assert game is not None
            over = game.status == "over"
        if over:
            break
        if policy == "claim" and not claimed:
            mails = [
                email.message_from_bytes(f.raw, policy=email.policy.default)
                for f in mail_server.wait_for(addr["kennedy"], 1, timeout=0.1)
            ]
            offers = [m for m in mails if "you may claim the win" in str(m["Subject"])]
            if offers:
                offer = offers[-1]
                mail_server.send(
                    player_mail(
                        addr["kennedy"],
                        str(offer["Reply-To"]),
                        "claim",
                        in_reply_to=str(offer["Message-ID"]),
                    ),
                    addr["kennedy"],
                    [str(offer["Reply-To"])],
                )
                claimed = True
        time.sleep(0.3)
    assert over, "the game did not end on time"
    # Nixon: welcome, 2 reminders, time is up, (claim: out of time, the opponent may claim,) result
    nixon = _subjects(mail_server, addr["nixon"], 6 if policy == "claim" else 5)
    kennedy = _subjects(mail_server, addr["kennedy"], 3)  # welcome, Nixon out of time, result
    assert sum("Reminder" in s for s in nixon) == 2, nixon
    assert sum("Your time is up" in s for s in nixon) == 1, nixon
    assert any("Nixon is out of time" in s for s in kennedy), kennedy
    if policy == "claim":
        assert sum("your opponent may claim the win" in s for s in nixon) == 1, nixon
    for subjects in (kennedy, nixon):
        assert sum("game over: Kennedy wins (on time)" in s for s in subjects) == 1, subjects
