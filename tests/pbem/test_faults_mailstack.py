"""Issue 14's faults that live in the real stack (Dovecot + Postfix), and the test script itself.

5: two workers moving the same message (Dovecot answers ``NO [EXPUNGEISSUED]``) must not fail;
12: ``scripts/test.sh`` starts and stops only its own servers: a stack already running in
another folder (the session's) survives a whole start/stop cycle of the script.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.pbem.mailtools import MailServer, player_mail

ROOT = Path(__file__).resolve().parents[2]


def test_5_two_workers_moving_one_message_both_succeed(mail_server: MailServer) -> None:
    game, jack = mail_server.fresh_address("game"), mail_server.fresh_address("jack")
    mail_server.send(player_mail(jack, game, "help"), jack, [game])
    mail_server.wait_for(game, 1)
    with mail_server.mailbox(game) as a, mail_server.mailbox(game) as b:
        a.ensure_folders()
        (item,) = a.fetch_new()
        assert [m.uid for m in b.fetch_new()] == [item.uid]  # B has it selected too
        a.move_many([item.uid], "Processed")
        b.move_many([item.uid], "Processed")  # already gone: no exception
        b.move(item.uid, "Processed")
        assert a.folder_uids("Processed") and len(a.folder_uids("Processed")) == 1
        assert a.fetch_new() == [] and b.fetch_new() == []


@pytest.mark.mailstack
@pytest.mark.skipif(os.geteuid() != 0, reason="scripts/test.sh starts servers only as root")
def test_12_the_test_script_never_touches_a_stack_it_did_not_start(mailstack: MailServer) -> None:
    box = mailstack.fresh_address("survivor")
    mailstack.send(player_mail(box, box, "before"), box, [box])
    assert len(mailstack.wait_for(box, 1)) == 1
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("MAILSTACK_", "PGTEST_", "PBEM_TEST_POSTGRES"))
    }
    env |= {"PBEM_TEST_SERVERS_ONLY": "1"}
    run = subprocess.run(
        ["bash", "scripts/test.sh"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr[-2000:]
    line = next(x for x in run.stdout.splitlines() if x.startswith("servers started"))
    mail_dir = line.split("mail in ", 1)[1].split(",", 1)[0]
    pg_dir = line.split("PostgreSQL in ", 1)[1].split(";", 1)[0]
    assert mail_dir.startswith("/tmp/pbem-test-mailstack.") and pg_dir.startswith(
        "/tmp/pbem-test-pg."
    )
    # the script's own folders are gone, its servers stopped ...
    assert not Path(mail_dir).exists() and not Path(pg_dir).exists()
    # ... and the stack that was running before still serves mail, old and new
    mailstack.send(player_mail(box, box, "after"), box, [box])
    assert len(mailstack.wait_for(box, 2)) == 2
