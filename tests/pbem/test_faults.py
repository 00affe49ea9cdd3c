"""The faults found by the fault-injection trial (issue 14), one test each, on SQLite and fakes.

Numbers refer to the issue's list: 1 RFC 6532 addresses, 2 process_message never raises,
4 a locked database defers instead of quarantining, 5 overlapping workers, 6 IMAP login and
banner failures exit 4, 7 a hanging SMTP server, 8 undelivered mail retried by the next run,
9 linear HTML-to-text, 10 refusing to run on defaults, 11 the receiving server's DMARC/DKIM
verdict. The PostgreSQL halves (2, 3, 5) are in test_faults_postgres.py, the real-stack ones
(5: IMAP moves racing, 12: the test script) in test_faults_mailstack.py.
"""

from __future__ import annotations

import email
import email.policy
import sqlite3
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlmodel import Session, select

import engine
from pbem.cli import cli
from pbem.cli.app import EXIT_UNREACHABLE
from pbem.config import Settings
from pbem.games import setup as game_setup
from pbem.mail import MemorySender, SmtpSender, TemporaryFailure
from pbem.mail.htmltext import html_to_text
from pbem.outbox import send as outbox
from pbem.pipeline import runner as pipeline
from pbem.store.models import Move, OutboxMessage, Quarantine
from pbem.worker import intake
from tests.pbem.fakeservers import SilentServer, garbage_banner, imap_refusing_logins
from tests.pbem.harness import EMAILS, Harness
from tests.pbem.mailtools import free_port


@pytest.fixture
def h(tmp_path: Path) -> Harness:
    harness = Harness(tmp_path)
    harness.new_game()
    return harness


def _moves(h: Harness) -> list[Move]:
    with Session(h.db) as s:
        return list(s.exec(select(Move).where(Move.game_id == h.game_id)))


def _active(h: Harness) -> str:
    return sorted(engine.active_sides(h.state()))[0]


# --- 1: RFC 6532 internationalised addresses ----------------------------------------------------


def test_1_a_raw_utf8_from_address_plays(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    emails = {"kennedy": "jürgen@spieler.test", "nixon": "łukasz@gracze.test"}
    h.game_id = game_setup.new_game(h.db, h.settings, seed=7, **emails)
    h.send()
    side = _active(h)
    welcome = email.message_from_bytes(
        next(m.raw for m in h.sender.sent if emails[side] in m.recipients),
        policy=email.policy.default,
    )
    raw = (
        f"From: Jürgen Groß <{emails[side]}>\r\nTo: {welcome['Reply-To']}\r\n"
        f"Subject: Re: Zug\r\nMessage-ID: <zug.1@spieler.test>\r\n"
        f"In-Reply-To: {welcome['Message-ID']}\r\nMIME-Version: 1.0\r\n"
        "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
        f"{h.legal(side)[0]}\r\n"
    ).encode()
    h.inbox.deliver(raw)
    assert h.poll().outcomes == {"applied": 1}
    assert h.inbound()[-1].from_addr == emails[side]


# --- 2: process_message never raises ------------------------------------------------------------


def test_2_a_crash_whose_quarantine_write_fails_too_never_blocks_the_inbox(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pbem.pipeline.runner as runner

    def crash(ctx: object, names: object) -> None:
        raise RuntimeError("pipeline bug")

    class BrokenQuarantine(Quarantine):
        def __init__(self, **kw: object) -> None:
            raise ValueError("cannot store this mail")

    monkeypatch.setattr(runner, "run", crash)
    monkeypatch.setattr(runner, "Quarantine", BrokenQuarantine)
    h.inbox.deliver(h.reply_bytes("kennedy", "first kennedy"))
    h.inbox.deliver(h.reply_bytes("nixon", "help"))
    stats = intake.poll_once(h.db, h.settings, h.inbox)  # must not raise
    assert stats.outcomes == {"quarantined": 2}
    assert h.inbox.fetch_new() == [] and len(h.inbox.folder_uids("Quarantine")) == 2


def test_2_a_nul_in_the_message_id_is_stored_clean(h: Harness) -> None:
    raw = h.reply_bytes(_active(h), h.legal(_active(h))[0]).replace(
        b"Message-ID: <player.", b"Message-ID: <nul\x00player."
    )
    h.inbox.deliver(raw)
    assert h.poll().outcomes == {"applied": 1}
    assert "\x00" not in h.inbound()[-1].message_id


# --- 4: a locked SQLite database is a transient error ------------------------------------------


def test_4_a_locked_database_defers_the_mail_and_the_next_run_applies_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pbem.pipeline.runner as runner
    import pbem.store.db

    monkeypatch.setattr(pbem.store.db, "BUSY_TIMEOUT_MS", 100)
    monkeypatch.setattr(runner, "TRANSIENT_RETRIES", (0.01, 0.02))
    h = Harness(tmp_path)
    h.new_game()
    side = _active(h)
    h.inbox.deliver(h.reply_bytes(side, h.legal(side)[0]))
    blocker = sqlite3.connect(tmp_path / "pbem.db", isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        stats = intake.poll_once(h.db, h.settings, h.inbox)
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert stats.outcomes == {"deferred": 1}
    assert len(h.inbox.fetch_new()) == 1 and h.inbox.folder_uids("Quarantine") == []
    with Session(h.db) as s:
        assert s.exec(select(Quarantine)).all() == []
    assert h.poll().outcomes == {"applied": 1}
    assert len(_moves(h)) == 1


def test_4_poll_exits_4_when_mail_was_deferred(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pbem.worker import worker_pass

    monkeypatch.setattr(
        worker_pass,
        "poll_once",
        lambda *a, **k: intake.PollStats(outcomes=__import__("collections").Counter(deferred=1)),
    )
    monkeypatch.setattr(intake, "open_mailbox", lambda s: _NullBox())
    out = _cli(_initialised(tmp_path), "poll", "--no-send")
    assert out.exit_code == EXIT_UNREACHABLE, out.output


class _NullBox:
    def __enter__(self) -> _NullBox:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def ensure_folders(self) -> None:
        pass


# --- 5: overlapping workers -----------------------------------------------------------------------


def test_5_the_default_lock_file_is_absolute_whatever_the_working_folder() -> None:
    for url in ("postgresql+psycopg://pbem@db.example.org/pbem", "sqlite:///pbem.db"):
        assert Settings(database_url=url).lock_path.is_absolute(), url


def test_5_moving_a_message_another_worker_moved_already_is_harmless(h: Harness) -> None:
    h.inbox.deliver(h.reply_bytes("kennedy", "help"))
    (item,) = h.inbox.fetch_new()
    h.inbox.move(item.uid, "Processed")
    h.inbox.move_many([item.uid], "Processed")  # the other worker's move: already gone
    assert h.inbox.folder_uids("Processed") == [1]


def test_5_two_overlapping_polls_apply_each_mail_once_and_send_each_report_once(h: Harness) -> None:
    side = _active(h)
    h.inbox.deliver(h.reply_bytes(side, h.legal(side)[0]))
    batch = h.inbox.fetch_new()
    # worker B fetched the same batch before worker A moved it
    a = intake.poll_once(h.db, h.settings, h.inbox)
    for item in batch:
        pipeline.process_message(
            h.db, h.settings, item.raw, mailbox="INBOX", uidvalidity=item.uidvalidity, uid=item.uid
        )
    h.inbox.move_many([i.uid for i in batch], "Processed")
    assert a.outcomes == {"applied": 1}
    first, second = MemorySender(), MemorySender()
    outbox.drain_outbox(h.db, h.settings, first)
    outbox.drain_outbox(h.db, h.settings, second)
    assert first.sent and second.sent == []
    assert len(_moves(h)) == 1


# --- 6: IMAP login failures and garbage exit 4 ----------------------------------------------------


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {
        "PBEM_DATABASE_URL": f"sqlite:///{tmp_path}/cli.db",
        "PBEM_ADDRESS": "game@example.test",
        "PBEM_SECRET": "fault-secret-of-the-tests",
        "PBEM_IMAP_SSL": "false",
        "PBEM_SMTP_TLS": "false",
        "PBEM_IMAP_HOST": "127.0.0.1",
        "PBEM_SMTP_HOST": "127.0.0.1",
        **extra,
    }


def _cli(env: dict[str, str], *args: str) -> Result:
    return CliRunner().invoke(cli, list(args), env=env)


def _initialised(tmp_path: Path, **extra: str) -> dict[str, str]:
    """`_env` for a site whose database `pbem init` has created."""
    env = _env(tmp_path, **extra)
    assert _cli(env, "init").exit_code == 0
    return env


@pytest.mark.parametrize("server", [imap_refusing_logins, garbage_banner])
def test_6_a_wrong_imap_password_or_a_garbage_banner_exits_4(
    tmp_path: Path, server: object
) -> None:
    with server() as fake:  # type: ignore[operator]
        out = _cli(
            _initialised(
                tmp_path,
                PBEM_IMAP_PORT=str(fake.port),
                PBEM_IMAP_USER="game",
                PBEM_IMAP_PASSWORD="wrong",
            ),
            "poll",
            "--no-send",
        )
    assert out.exit_code == EXIT_UNREACHABLE, (out.output, out.exception)
    assert "IMAP" in out.output and "Traceback" not in out.output


# --- 7: an SMTP server that accepts and never answers ---------------------------------------------


def test_7_a_hanging_smtp_server_costs_one_timeout_per_run_not_one_per_mail(h: Harness) -> None:
    game_setup.new_game(h.db, h.settings, kennedy="a@players.test", nixon="b@players.test", seed=3)
    pending = [r for r in h.outbox() if r.status == "pending"]
    assert len(pending) == 2
    with SilentServer() as silent:
        sender = SmtpSender("127.0.0.1", silent.port, timeout=0.3)
        stats = outbox.drain_outbox(h.db, h.settings, sender)
        assert silent.connections == 1
    assert stats.sent == 0 and stats.retrying >= 1
    assert all(r.status == "pending" for r in h.outbox() if r.id in {p.id for p in pending})


# --- 8: the next run retries undelivered mail ------------------------------------------------------


def test_8_after_a_connection_failure_the_next_run_retries_at_once(h: Harness) -> None:
    game_setup.new_game(h.db, h.settings, kennedy="a@players.test", nixon="b@players.test", seed=3)
    down = MemorySender(fail_with=[TemporaryFailure("connection refused")])
    first = outbox.drain_outbox(h.db, h.settings, down)
    assert first.sent == 0
    second = outbox.drain_outbox(h.db, h.settings, down)  # the very next run
    assert second.sent == 2
    assert all(r.status == "sent" for r in h.outbox())


def test_8_send_keeps_exiting_4_while_mail_is_undelivered(tmp_path: Path) -> None:
    env = _initialised(tmp_path, PBEM_SMTP_PORT=str(free_port()))
    assert _cli(env, "new", "--kennedy", "jack@a.test", "--nixon", "dick@b.test").exit_code == 0
    for _ in range(2):
        out = _cli(env, "send")
        assert out.exit_code == EXIT_UNREACHABLE and "2 to retry" in out.output, out.output


# --- 9: HTML to text is linear ---------------------------------------------------------------------


def _calls(html: str) -> int:
    """Python and C function calls made by one conversion: a deterministic measure of work."""
    n = 0

    def count(frame: object, event: str, arg: object) -> None:
        nonlocal n
        if event in ("call", "c_call"):
            n += 1

    sys.setprofile(count)
    try:
        html_to_text(html)
    finally:
        sys.setprofile(None)
    return n


@pytest.mark.parametrize(
    "make",
    [
        lambda k: "<div>" * k + "x" + "</div>" * k,
        lambda k: "<blockquote>" * k + "x" + "</blockquote>" * k,
        lambda k: "<div>a<b>b</b><br></div>" * k,
        lambda k: '<div class="gmail_quote">' * k + "x" + "</div>" * k,
    ],
)
def test_9_html_to_text_work_grows_linearly(make: object) -> None:
    small, big = _calls(make(400)), _calls(make(800))  # type: ignore[operator]
    assert big / small < 2.4, (small, big)


# --- 10: refuse to run on defaults -----------------------------------------------------------------


@pytest.mark.parametrize(
    "unset",
    [
        {"PBEM_SECRET": None},
        {"PBEM_ADDRESS": None},
        {"PBEM_SECRET": "change-me"},
        {"PBEM_SECRET": "replace-with-a-long-random-string"},
        {"PBEM_ADDRESS": "game@example.org"},
    ],
)
@pytest.mark.parametrize(
    "verb", [["new", "--kennedy", "k@a.test", "--nixon", "n@b.test"], ["poll"], ["send"], ["serve"]]
)
def test_10_new_poll_send_serve_refuse_default_secret_or_address(
    tmp_path: Path, verb: list[str], unset: dict[str, str | None]
) -> None:
    env = {
        k: v
        for k, v in _env(
            tmp_path, PBEM_IMAP_PORT=str(free_port()), PBEM_SMTP_PORT=str(free_port())
        ).items()
    }
    for k, v in unset.items():
        if v is None:
            env.pop(k)
        else:
            env[k] = v
    out = CliRunner(env={k: None for k in ("PBEM_SECRET", "PBEM_ADDRESS", "PBEM_CONFIG")}).invoke(
        cli, verb, env=env
    )
    assert out.exit_code == 1, out.output
    assert next(iter(unset)) in out.output
    assert not (tmp_path / "cli.db").exists() or verb[0] != "new"


def test_10_read_only_commands_still_work_without_a_secret(tmp_path: Path) -> None:
    env = _env(tmp_path)
    env.pop("PBEM_SECRET")
    runner = CliRunner(env={"PBEM_SECRET": None})
    assert runner.invoke(cli, ["init"], env=env).exit_code == 0
    out = runner.invoke(cli, ["games"], env=env)
    assert out.exit_code == 0 and "no games" in out.output


# --- 11: the receiving server's authentication verdict ---------------------------------------------

AUTHSERV = "mx.pbem.test"


def _auth(h: Harness, verdict: str, authserv: str = AUTHSERV) -> dict[str, str]:
    return {"Authentication-Results": f"{authserv}; {verdict}"}


def _held_setup(h: Harness) -> None:
    h.settings = h.settings.with_(authserv_id=AUTHSERV)


def test_11_a_dmarc_fail_from_our_own_server_holds_the_move(h: Harness) -> None:
    _held_setup(h)
    side = _active(h)
    before = h.state()
    stats = h.reply(
        side,
        h.legal(side)[0],
        headers=_auth(
            h,
            f"spf=fail smtp.mailfrom=evil.test; dkim=none; dmarc=fail header.from={EMAILS[side].split('@')[1]}",
        ),
    )
    assert stats.outcomes == {"held": 1}
    assert h.state() == before and _moves(h) == []
    last = h.last_mail(side)
    assert "held" in str(last["Subject"]).lower()
    text = " ".join(h.text_of(last).lower().split())
    assert "dmarc=fail" in text and "held, not applied" in text


def test_11_a_dkim_fail_for_the_from_domain_is_held_too(h: Harness) -> None:
    _held_setup(h)
    side = _active(h)
    domain = EMAILS[side].split("@")[1]
    stats = h.reply(side, h.legal(side)[0], headers=_auth(h, f"dkim=fail header.d={domain}"))
    assert stats.outcomes == {"held": 1}


def test_11_verdicts_of_other_servers_and_passes_are_not_trusted_or_held(h: Harness) -> None:
    _held_setup(h)
    side = _active(h)
    forged_pass = {"Authentication-Results": "mx.evil.test; dmarc=fail header.from=players.test"}
    assert h.reply(side, h.legal(side)[0], headers=forged_pass).outcomes == {"applied": 1}
    side = _active(h)
    ok = _auth(h, "dkim=pass header.d=players.test; dmarc=pass header.from=players.test")
    assert h.reply(side, h.legal(side)[0], headers=ok).outcomes == {"applied": 1}


def test_11_held_moves_are_listed_released_and_dropped(h: Harness) -> None:
    from pbem.pipeline import held

    _held_setup(h)
    side = _active(h)
    cmd = h.legal(side)[0]
    fail = _auth(h, "dmarc=fail header.from=players.test")
    assert h.reply(side, cmd, headers=fail).outcomes == {"held": 1}
    (row,) = held.list_held(h.db)
    assert row.side == side and row.game_id == h.game_id and "dmarc=fail" in row.reason
    out = held.release(h.db, h.settings, row.id)
    assert out.outcome == "applied"
    h.send()
    assert len(_moves(h)) == 1 and held.list_held(h.db) == []
    side = _active(h)
    assert h.reply(side, h.legal(side)[0], headers=fail).outcomes == {"held": 1}
    (row,) = held.list_held(h.db)
    held.drop(h.db, row.id)
    assert held.list_held(h.db) == [] and len(_moves(h)) == 1


def test_11_without_an_authserv_id_nothing_is_held(h: Harness) -> None:
    side = _active(h)
    fail = _auth(h, "dmarc=fail header.from=players.test")
    assert h.reply(side, h.legal(side)[0], headers=fail).outcomes == {"applied": 1}


def test_outbox_rows_from_mail_are_bounded(h: Harness) -> None:
    long_id = "<" + "x" * 600 + "@players.test>"
    side = _active(h)
    raw = h.reply_bytes(side, "help", message_id=long_id)
    h.inbox.deliver(raw)
    assert h.poll().outcomes == {"answered": 1}
    row = h.inbound()[-1]
    assert len(row.message_id) <= 400 and len(row.dedupe_key) <= 400
    with Session(h.db) as s:
        assert all(len(r.in_reply_to) <= 400 for r in s.exec(select(OutboxMessage)))
    h.inbox.deliver(raw)
    assert h.poll().outcomes == {"duplicate": 1}


def test_a_rotated_secret_still_accepts_keys_signed_with_the_previous_one(h: Harness) -> None:
    old = h.settings.secret
    h.settings = h.settings.with_(secret="new-long-secret", previous_secrets=f"{old}")
    side = _active(h)
    assert h.reply(side, h.legal(side)[0]).outcomes == {"applied": 1}  # old key, old secret
    h.settings = h.settings.with_(previous_secrets="")
    side = _active(h)
    stale_mail = h.last_mail(side)  # signed with the new secret: still fine
    assert h.reply(side, h.legal(side)[0], to_mail=stale_mail).outcomes == {"applied": 1}


def test_11_pbem_held_lists_releases_and_drops_from_the_command_line(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game()
    _held_setup(h)
    env = {
        "PBEM_DATABASE_URL": h.settings.database_url,
        "PBEM_ADDRESS": h.settings.address,
        "PBEM_SECRET": h.settings.secret,
        "PBEM_AUTHSERV_ID": AUTHSERV,
    }
    fail = _auth(h, "dmarc=fail header.from=players.test")
    side = _active(h)
    assert h.reply(side, h.legal(side)[0], headers=fail).outcomes == {"held": 1}
    listing = _cli(env, "held")
    assert listing.exit_code == 0 and "#1" in listing.output and "dmarc=fail" in listing.output
    released = _cli(env, "held", "release", "1")
    assert released.exit_code == 0 and "applied" in released.output, released.output
    assert len(_moves(h)) == 1
    assert "no held moves" in _cli(env, "held").output
    assert _cli(env, "held", "drop", "7").exit_code == 1
