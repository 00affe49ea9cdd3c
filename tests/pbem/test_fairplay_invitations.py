"""Invitations (pbem.games.fairplay.games): accept with entropy, decline, expiry, double accept, forgeries."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlmodel import Session, select

import engine
from pbem import errors
from pbem.cli import cli
from pbem.games import views as game_views
from pbem.games.fairplay.verify import commitment, engine_seed
from pbem.outbox import send as outbox
from pbem.store.models import Invitation, OutboxMessage, utcnow
from pbem.worker.worker_pass import worker_pass
from tests.pbem.fairplay_helpers import commitment_row, game_row, invite
from tests.pbem.harness import EMAILS, Harness


@pytest.fixture
def h(tmp_path: Path) -> Harness:
    return Harness(tmp_path)


def statuses(h: Harness) -> dict[str, str]:
    with Session(h.db) as s:
        return {
            i.side: i.status
            for i in s.exec(select(Invitation).where(Invitation.game_id == h.game_id))
        }


def test_new_game_invites_both_players_with_the_commitment(h: Harness) -> None:
    invite(h)
    game, c = game_row(h), commitment_row(h)
    assert game.status == "invited" and game.snapshot == ""
    assert c.commitment == commitment(h.game_id, "zman", [], c.server_seed)
    for side in engine.SIDES:
        (mail,) = h.mails_to(side)
        text = h.text_of(mail)
        assert "Invitation" in str(mail["Subject"]) and c.commitment in text.replace("\n    ", "")
        assert "accept" in text and "decline" in text
        assert c.server_seed not in text
    with pytest.raises(errors.ServiceError, match="has not started"):
        game_views.show(h.db, h.settings, h.game_id)
    (row,) = game_views.games(h.db)
    assert row.status == "invited" and "accept: kennedy, nixon" in row.waiting_for


def test_both_accept_then_the_game_starts_with_their_entropy(h: Harness) -> None:
    invite(h)
    h.reply("kennedy", "accept  Blue   suede shoes")
    assert game_row(h).status == "invited" and statuses(h) == {
        "kennedy": "accepted",
        "nixon": "pending",
    }
    ack = h.last_mail("kennedy")
    assert "Accepted" in str(ack["Subject"]) and "Blue suede shoes" in h.text_of(ack)
    assert len(h.mails_to("nixon")) == 1  # nothing for the other player yet
    h.reply("nixon", "accept")
    game, c = game_row(h), commitment_row(h)
    assert game.status == "active"
    nixon_mid = h.inbound()[-1].message_id
    assert c.entropy_kennedy == "Blue suede shoes" and c.entropy_nixon == f"message-id:{nixon_mid}"
    seed = engine_seed(
        c.server_seed, h.game_id, {"kennedy": c.entropy_kennedy, "nixon": c.entropy_nixon}
    )
    assert c.engine_seed == str(seed)
    assert h.state() == engine.new_game(seed)
    for side in engine.SIDES:
        welcome = h.last_mail(side)
        assert "new game, you are" in str(welcome["Subject"])
    assert game_views.replay(h.db, h.game_id).ok


def test_accept_from_a_wrong_address_changes_nothing_and_gets_no_answer(h: Harness) -> None:
    invite(h)
    sent = len(h.sender.sent)
    h.reply("kennedy", "accept", frm="mallory@evil.test")
    assert statuses(h) == {"kennedy": "pending", "nixon": "pending"}
    assert len(h.sender.sent) == sent
    assert h.inbound()[-1].outcome == "ignored" and "forgery" in h.inbound()[-1].detail


def test_double_accept_keeps_the_first_entropy(h: Harness) -> None:
    invite(h)
    invitation = h.last_mail("kennedy")
    h.reply("kennedy", "accept first words", to_mail=invitation)
    h.reply("kennedy", "accept second words", to_mail=invitation)
    assert commitment_row(h).entropy_kennedy == "first words"
    assert "already accepted" in str(h.last_mail("kennedy")["Subject"])
    h.reply("nixon", "accept n")
    h.reply("kennedy", "accept third words", to_mail=invitation)  # after the start
    assert commitment_row(h).entropy_kennedy == "first words"
    assert "already started" in str(h.last_mail("kennedy")["Subject"])
    assert h.inbound()[-1].outcome == "answered"


def test_decline_cancels_and_tells_the_other_player(h: Harness) -> None:
    invite(h)
    h.reply("kennedy", "accept yes")
    h.reply("nixon", "decline")
    assert game_row(h).status == "declined"
    assert statuses(h) == {"kennedy": "accepted", "nixon": "declined"}
    assert "declined" in str(h.last_mail("nixon")["Subject"]).lower()
    told = h.last_mail("kennedy")
    assert "cancelled" in str(told["Subject"]) and EMAILS["nixon"] in h.text_of(told)
    h.reply("kennedy", "accept again", to_mail=h.mails_to("kennedy")[0])
    assert "closed" in str(h.last_mail("kennedy")["Subject"])
    assert game_row(h).status == "declined"


def test_other_words_get_a_hint_and_change_nothing(h: Harness) -> None:
    invite(h)
    h.reply("kennedy", "status")
    assert "accept or decline" in str(h.last_mail("kennedy")["Subject"])
    assert statuses(h)["kennedy"] == "pending"


def test_an_unanswered_invitation_expires(h: Harness) -> None:
    start = utcnow()
    invite(h, now=start, expires_in=timedelta(hours=48))
    h.reply("kennedy", "accept")
    worker_pass(h.db, h.settings, inbox=h.inbox, now=start + timedelta(hours=47))
    assert game_row(h).status == "invited"
    later = start + timedelta(hours=49)
    worker_pass(h.db, h.settings, inbox=h.inbox, now=later)
    outbox.drain_outbox(h.db, h.settings, h.sender, now=later)
    assert game_row(h).status == "expired"
    assert statuses(h) == {"kennedy": "accepted", "nixon": "expired"}
    for side in engine.SIDES:
        mail = h.last_mail(side)
        assert "expired" in str(mail["Subject"]) and EMAILS["nixon"] in h.text_of(mail)
    worker_pass(h.db, h.settings, inbox=h.inbox, now=start + timedelta(hours=99))  # only once
    with Session(h.db) as s:
        assert (
            len(
                s.exec(select(OutboxMessage).where(OutboxMessage.subject.contains("expired"))).all()
            )
            == 2
        )  # type: ignore[attr-defined]


def test_decline_in_a_running_game_is_the_engines_verb(h: Harness) -> None:
    h.new_game(seed=3)  # started at once, fixed seed
    h.reply("kennedy", "decline")
    mail = h.last_mail("kennedy")
    assert "error in your orders" in str(
        mail["Subject"]
    )  # the engine refused it: not a trigger now
    assert game_row(h).status == "active"


def test_cli_new_invites_by_default_and_start_skips_it(tmp_path: Path) -> None:
    env = {
        "PBEM_DATABASE_URL": f"sqlite:///{tmp_path}/cli.db",
        "PBEM_ADDRESS": "game@example.test",
        "PBEM_SECRET": "s" * 16,
    }
    runner = CliRunner()
    assert runner.invoke(cli, ["init"], env=env).exit_code == 0
    out = runner.invoke(cli, ["new", "--kennedy", "a@x.test", "--nixon", "b@x.test"], env=env)
    assert out.exit_code == 0 and "invitations queued" in out.output, out.output
    out = runner.invoke(
        cli, ["new", "--kennedy", "a@x.test", "--nixon", "b@x.test", "--start"], env=env
    )
    assert out.exit_code == 0 and "welcome mails queued" in out.output
    listing = runner.invoke(cli, ["games"], env=env).output
    assert re.search(r"#1\s+invited", listing) and re.search(r"#2\s+active", listing)
    exported = runner.invoke(cli, ["export", "2"], env=env)
    assert exported.exit_code == 0 and '"server_seed": null' in exported.output
    (tmp_path / "e.json").write_text(exported.output)
    checked = runner.invoke(cli, ["verify", str(tmp_path / "e.json")], env=env)
    assert checked.exit_code == 2 and "not revealed yet" in checked.output
