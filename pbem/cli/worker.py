"""The mail worker commands: `pbem poll`, `tick`, `send` and `serve`.

One pass for cron (poll, tick, send) or a long-running server (serve), each under the run
lock; the exit code says what an operator should know (see `pbem.cli.app`).
"""

from __future__ import annotations

import imaplib
import sys
from collections.abc import Callable
from typing import Any

import click

from pbem import service
from pbem.cli.app import EXIT_ATTENTION, EXIT_LOCKED, EXIT_UNREACHABLE, App, pass_app
from pbem.store.db import migrate
from pbem.store.schema_head import migrate_if_behind
from pbem.worker.lock import Locked, RunLock


@click.command()
@click.option("--no-send", is_flag=True, envvar="PBEM_NO_SEND", help="Process mail, don't send.")
@pass_app
def poll(app: App, no_send: bool) -> None:
    """One pass for cron: fetch and process new mail, send the outbox, exit."""
    app.require_identity()
    try:
        with RunLock(app.settings.lock_path):
            code = _poll(app, no_send)
    except Locked as exc:
        app.note(str(exc))
        sys.exit(EXIT_LOCKED)
    sys.exit(code)


def _poll(app: App, no_send: bool) -> int:
    migrate_if_behind(app.db)  # Alembic only when there is something to migrate
    # the outage guard before any move is read; reminders and expiries after the mail
    # (a move waiting in the inbox is played, not forfeited): pbem.games.timekeeping.tick.worker_pass
    if no_send:
        return _with_clocks(app, lambda: _fetch(app, None))
    from pbem.outbox_process import OutboxProcess  # the outbox's work off this process

    with OutboxProcess(app.db, app.settings, service.make_sender(app.settings)) as pump:
        code = _with_clocks(app, lambda: _fetch(app, pump.nudge))  # reports sent during the next
    return max(code, _sent_code(app, pump.stats))


def _with_clocks(app: App, fetch: Callable[[], int]) -> int:
    from pbem.games.timekeeping.tick import worker_pass

    report, code = worker_pass(app.db, app.settings, fetch)
    return max(code, _tick_code(app, report))


def _fetch(app: App, after_each: Any) -> int:
    """Read and process the inbox (when this worker leads the IMAP fetch); the exit code."""
    from pbem.worker.leader import ImapLeader, mailbox_of

    st = app.settings
    try:
        with ImapLeader(app.db, mailbox_of(st)) as lead:
            if not lead.is_leader:  # PostgreSQL: another worker reads the mailbox now
                app.note("another worker leads the IMAP fetch; applying what it handed over")
                stats = service.PollStats()
                for out in service.apply_queued(app.db, st, after_each=after_each):
                    stats.add(out)
            else:
                with service.open_mailbox(st) as inbox:
                    inbox.ensure_folders()
                    stats = service.poll_once(app.db, st, inbox, after_each=after_each)
    except (OSError, imaplib.IMAP4.error) as exc:  # refused, timed out, login refused, garbage
        click.echo(
            f"IMAP {app.settings.imap_host}:{app.settings.imap_port}: {type(exc).__name__}: {exc}",
            err=True,
        )
        return EXIT_UNREACHABLE
    if stats.total or stats.handed_over:
        app.say("in: " + stats.summary())
    _note_queue(app)
    code = 0
    if stats.outcomes["quarantined"] or stats.outcomes["bounced"]:  # an operator should look
        code = EXIT_ATTENTION
    if stats.outcomes["deferred"]:  # the database was busy or unreachable: the next run retries
        code = max(code, EXIT_UNREACHABLE)
    return code


def _note_queue(app: App) -> None:
    """PostgreSQL: say (with -v) how much handed-over mail other workers still hold."""
    from pbem.store.db import is_sqlite

    if is_sqlite(app.db):
        return
    from pbem.worker.handover import (
        queued_count,  # imports the pipeline: not for SQLite's idle poll
    )

    try:
        n = queued_count(app.db)
    except Exception:  # only a note: a busy database must not fail the run here
        return
    if n:
        app.note(f"{n} handed-over mails wait in games other workers hold")


def _send(app: App) -> int:
    return _sent_code(
        app, service.drain_outbox(app.db, app.settings, service.make_sender(app.settings))
    )


def _sent_code(app: App, sent: service.SendStats) -> int:
    if sent.sent or sent.retrying or sent.failed:
        app.say("out: " + sent.summary())
    if sent.failed:
        return EXIT_ATTENTION
    return EXIT_UNREACHABLE if sent.unreachable or (sent.retrying and not sent.sent) else 0


def _tick(app: App) -> int:
    from pbem.games.timekeeping.tick import tick as run_tick

    return _tick_code(app, run_tick(app.db, app.settings))


def _tick_code(app: App, report: Any) -> int:
    if report.summary() != "nothing due":
        app.say("clocks: " + report.summary())
    return EXIT_ATTENTION if report.outage or report.failed else 0


@click.command()
@click.option("--no-send", is_flag=True, envvar="PBEM_NO_SEND", help="Queue the mails, don't send.")
@pass_app
def tick(app: App, no_send: bool) -> None:
    """The clock work for cron: reminders, timeouts, vacations ending; then send the outbox.

    Idempotent: overlapping or repeated runs record each reminder and timeout once.
    `pbem poll` and `pbem serve` do the same work on every pass. Exit 3 after an outage
    (the gap was credited to every clock) or when a game failed.
    """
    try:
        with RunLock(app.settings.lock_path):
            migrate_if_behind(app.db)
            code = _tick(app)
            if not no_send:
                code = max(code, _send(app))
    except Locked as exc:
        app.note(str(exc))
        sys.exit(EXIT_LOCKED)
    sys.exit(code)


@click.command()
@pass_app
def send(app: App) -> None:
    """Send the outbox only (retrying earlier temporary failures that are due)."""
    app.require_identity()
    try:
        with RunLock(app.settings.lock_path):
            migrate_if_behind(app.db)
            code = _send(app)
    except Locked as exc:
        app.note(str(exc))
        sys.exit(EXIT_LOCKED)
    sys.exit(code)


@click.command()
@click.option(
    "--embedded",
    is_flag=True,
    envvar="PBEM_EMBEDDED",
    help="Run local SMTP+IMAP servers on 127.0.0.1 for mail clients to use.",
)
@click.option(
    "--idle-timeout",
    type=float,
    default=300.0,
    show_default=True,
    envvar="PBEM_IDLE_TIMEOUT",
    help="Seconds per IDLE before a routine re-poll.",
)
@click.option(
    "--standby-interval",
    type=float,
    default=5.0,
    show_default=True,
    envvar="PBEM_STANDBY_INTERVAL",
    help="PostgreSQL, several workers: seconds between a standby worker's attempts to "
    "take the IMAP lead (and its clock/outbox passes).",
)
@click.option(
    "--smtp-port", type=int, default=2525, show_default=True, envvar="PBEM_EMBEDDED_SMTP_PORT"
)
@click.option(
    "--imap-port", type=int, default=1143, show_default=True, envvar="PBEM_EMBEDDED_IMAP_PORT"
)
@pass_app
def serve(
    app: App,
    embedded: bool,
    idle_timeout: float,
    standby_interval: float,
    smtp_port: int,
    imap_port: int,
) -> None:
    """Run until SIGTERM/SIGINT: IMAP IDLE plus periodic poll and outbox drain.

    On PostgreSQL several workers (on several machines) may serve one mailbox: one leads the
    IMAP fetch, the others stand by (sending, ticking clocks) and take over when it dies.
    """
    from pbem.worker.serve import Stopper
    from pbem.worker.serve import serve as run_serve

    app.require_identity()
    stopper = Stopper()
    stopper.install()
    try:
        with RunLock(app.settings.lock_path):
            migrate(app.db)
            if embedded:
                _serve_embedded(app, stopper, idle_timeout, smtp_port, imap_port)
            else:
                run_serve(
                    app.db,
                    app.settings,
                    lambda: service.open_mailbox(app.settings),
                    service.make_sender(app.settings),
                    stopper=stopper,
                    idle_timeout=idle_timeout,
                    standby_interval=standby_interval,
                    on_pass=app.note,
                )
    except Locked as exc:
        click.echo(str(exc), err=True)
        sys.exit(EXIT_LOCKED)
    app.say("stopped")


def _serve_embedded(
    app: App, stopper: Any, idle_timeout: float, smtp_port: int, imap_port: int
) -> None:
    from pbem.mail.embedded import EmbeddedMailServers
    from pbem.worker.serve import serve as run_serve

    domain = app.settings.address_domain
    with EmbeddedMailServers(smtp_port=smtp_port, imap_port=imap_port, domain=domain) as mail:
        settings = app.settings.with_(
            imap_host=mail.host,
            imap_port=mail.imap_port,
            imap_ssl=False,
            imap_user=app.settings.address,
            imap_password="x",
            smtp_host=mail.host,
            smtp_port=mail.smtp_port,
            smtp_tls=False,
            smtp_user="",
        )
        app.say("embedded mail: " + mail.address_note)
        app.say(f"game mailbox: {settings.address}; stop with Ctrl-C")
        run_serve(
            app.db,
            settings,
            lambda: service.open_mailbox(settings),
            service.make_sender(settings),
            stopper=stopper,
            idle_timeout=idle_timeout,
            on_pass=app.note,
        )
