"""pbem.mail.embedded: the no-root pure-Python SMTP → IMAP pair used by `pbem demo`.

Also measures the full-loop throughput (SMTP accepted → visible in IMAP) on both stacks.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from pbem.mail import PermanentFailure, SmtpSender, parse_message
from pbem.mail.embedded import EmbeddedMailServers
from pbem.mail.embedded_imap import mailbox_name
from tests.pbem.mailtools import MailServer, free_port, player_mail, port_open


def test_start_stop_context_manager_and_fixed_ports() -> None:
    smtp_port, imap_port = free_port(), free_port()
    started = time.monotonic()
    with EmbeddedMailServers(smtp_port=smtp_port, imap_port=imap_port) as servers:
        startup = time.monotonic() - started
        assert (servers.smtp_port, servers.imap_port) == (smtp_port, imap_port)
        assert port_open("127.0.0.1", smtp_port) and port_open("127.0.0.1", imap_port)
        assert f":{imap_port}" in servers.address_note
    assert startup < 5
    assert not port_open("127.0.0.1", smtp_port) and not port_open("127.0.0.1", imap_port)


def test_port_in_use_is_reported() -> None:
    with EmbeddedMailServers() as first:
        clash = EmbeddedMailServers(smtp_port=free_port(), imap_port=first.imap_port)
        with pytest.raises(RuntimeError, match="failed"):
            clash.start()


def test_mailbox_per_address_plus_addresses_and_any_password(embedded_mail: MailServer) -> None:
    alice, bob = embedded_mail.fresh_address("alice"), embedded_mail.fresh_address("bob")
    embedded_mail.send(
        player_mail(bob, alice.replace("@", "+Key1@"), "pass\n"),
        bob,
        [alice.replace("@", "+Key1@")],
    )
    [item] = embedded_mail.wait_for(alice)
    parsed = parse_message(item.raw, alice)
    assert alice.replace("@", "+key1@") in parsed.to_addrs  # Delivered-To / Received for
    assert embedded_mail.wait_for(bob, timeout=0.2) == []
    with embedded_mail.mailbox(alice.upper()) as box:  # any password, case-insensitive name
        assert len(box.fetch_new()) == 1


def test_mail_to_other_domains_is_refused(embedded_mail: MailServer) -> None:
    sender = SmtpSender(embedded_mail.host, embedded_mail.smtp_port)
    with pytest.raises(PermanentFailure):
        asyncio.run(
            sender.send(b"Subject: x\r\n\r\nx\r\n", "game@example.test", ["someone@gmail.com"])
        )


def test_smtp_auth_is_accepted(embedded_mail: MailServer) -> None:
    to = embedded_mail.fresh_address("auth")
    sender = SmtpSender(embedded_mail.host, embedded_mail.smtp_port, user="game", password="x")
    asyncio.run(sender.send(player_mail("p@example.org", to, "pass\n"), "p@example.org", [to]))
    assert len(embedded_mail.wait_for(to)) == 1


def test_direct_delivery() -> None:
    with EmbeddedMailServers() as servers:
        servers.deliver("Game+x@Example.test", b"Subject: hi\r\n\r\npass\r\n")
        server = MailServer(
            "embedded", servers.host, servers.smtp_port, servers.imap_port, servers.domain, "pw"
        )
        [item] = server.wait_for("game@example.test")
        assert item.raw.endswith(b"pass\r\n")
        assert servers.delivered == 0  # counts SMTP deliveries only


def test_mailbox_name() -> None:
    assert mailbox_name("Game+Key@Example.Test") == "game@example.test"
    assert mailbox_name("plain") == "plain"


@pytest.mark.parametrize("count", [200])
def test_full_loop_throughput(mail_server: MailServer, count: int) -> None:
    """SMTP (10 concurrent connections) → server → IMAP: all visible; prints messages/s."""
    to = mail_server.fresh_address("bulk")
    sender = mail_server.sender()

    async def send_all() -> None:
        queue = list(range(count))

        async def worker() -> None:
            while queue:
                n = queue.pop()
                await sender.send(
                    player_mail("p@example.org", to, f"pass {n}\n"), "p@example.org", [to]
                )

        await asyncio.gather(*(worker() for _ in range(10)))

    started = time.monotonic()
    asyncio.run(send_all())
    accepted = time.monotonic() - started
    found = mail_server.wait_for(to, count=count, timeout=60)
    visible = time.monotonic() - started
    assert len(found) == count
    print(
        f"\n{mail_server.kind}: {count} messages accepted in {accepted:.2f} s, all visible "
        f"in IMAP after {visible:.2f} s ({count / visible:.0f} msg/s)"
    )
