"""The mail worker commands: `pbem poll`, `tick`, `send` and `serve`.

One pass for cron (poll, tick, send) or a long-running server (serve), each under the run
lock; the exit code says what an operator should know (see `pbem.cli.app`). SIGTERM or SIGINT
stops each after the mail in hand (`pbem.worker.serve.Stopper`), with one line saying so.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import click

from pbem.cli.app import EXIT_ATTENTION, EXIT_LOCKED, EXIT_UNREACHABLE, App, pass_app
from pbem.mail.embedded import EmbeddedMailServers
from pbem.mail.lmtp import ListenError
from pbem.outbox import send as outbox
from pbem.outbox.send import SendStats
from pbem.store.failures import DatabaseFailure, database_problem
from pbem.worker import intake
from pbem.worker.checks import config_warnings
from pbem.worker.lock import Locked, RunLock
from pbem.worker.serve import Stopper, serve_delivered
from pbem.worker.serve import serve as run_serve
from pbem.worker.worker_pass import PassReport, worker_pass


@click.command()
@click.option("--no-send", is_flag=True, envvar="PBEM_NO_SEND", help="Process mail, don't send.")
@pass_app
def poll(app: App, no_send: bool) -> None:
    """One pass for cron: fetch and process new mail, send the outbox, exit."""
    app.require_identity()
    _warn(app)
    stopper = _stopper()
    with _locked(app), _database_failure():
        report = worker_pass(
            app.db,
            app.settings,
            open_inbox=lambda: intake.open_mailbox(app.settings),
            sender=None if no_send else outbox.make_sender(app.settings),
            stop=stopper.requested,
        )
        code = _report(app, report)
    _said_stop(app, stopper)
    sys.exit(code)


@click.command()
@click.option("--no-send", is_flag=True, envvar="PBEM_NO_SEND", help="Queue the mails, don't send.")
@pass_app
def tick(app: App, no_send: bool) -> None:
    """The clock work for cron: reminders, timeouts, vacations ending; then send the outbox.

    Idempotent: overlapping or repeated runs record each reminder and timeout once.
    `pbem poll` and `pbem serve` do the same work on every pass. Exit 3 after an outage
    (the gap was credited to every clock) or when a game failed.
    """
    stopper = _stopper()
    with _locked(app), _database_failure():
        sender = None if no_send else outbox.make_sender(app.settings)
        report = worker_pass(app.db, app.settings, sender=sender, stop=stopper.requested)
        code = _report(app, report)
    _said_stop(app, stopper)
    sys.exit(code)


@click.command()
@pass_app
def send(app: App) -> None:
    """Send the outbox only (retrying earlier temporary failures that are due)."""
    app.require_identity()
    stopper = _stopper()
    with _locked(app), _database_failure():
        sender = outbox.make_sender(app.settings)
        sent = outbox.drain_outbox(app.db, app.settings, sender, stop=stopper.requested)
        code = _sent_code(app, sent)
    _said_stop(app, stopper)
    sys.exit(code)


def _stopper() -> Stopper:
    """SIGTERM and SIGINT from here on: finish the mail in hand, then stop."""
    stopper = Stopper()
    stopper.install()
    return stopper


def _said_stop(app: App, stopper: Stopper) -> None:
    """The one line a stopping signal gets (nothing without one)."""
    if stopper.signal_name:
        app.say(
            f"stopped by {stopper.signal_name} after the mail in hand; the next run does the rest"
        )


def _warn(app: App) -> None:
    """The configuration's warnings (sender authentication off), once per run, on stderr."""
    for warning in config_warnings(app.settings):
        click.echo(f"warning: {warning}", err=True)


@contextmanager
def _locked(app: App) -> Iterator[None]:
    """The run lock around a one-pass command; exit 75 when another run holds it.

    The database must exist before the lock file is made beside it; it is migrated (when
    behind) under the lock, at the command's first use of `App.db`."""
    _ = app.existing_db
    try:
        with RunLock(app.settings.lock_path):
            yield
    except Locked as exc:
        app.note(str(exc))
        sys.exit(EXIT_LOCKED)


@contextmanager
def _database_failure() -> Iterator[None]:
    """A database failure ends the command with one line on stderr and its exit status: 4
    when it may be gone by the next run (locked, unreachable), 3 when an operator must act (a
    full disk, read-only). No traceback: the mail not applied is still in the INBOX."""
    try:
        yield
    except Exception as exc:
        problem = database_problem(exc)
        if problem is None:
            raise
        done = exc.done if isinstance(exc, DatabaseFailure) and exc.done != "nothing new" else ""
        click.echo(
            f"{problem.says()}; the pass stopped{f' (in: {done})' if done else ''}: mail not "
            "applied stays in the INBOX and the next run applies it",
            err=True,
        )
        sys.exit(EXIT_UNREACHABLE if problem.transient else EXIT_ATTENTION)


def _report(app: App, report: PassReport) -> int:
    """Say what the pass did; the exit code (the worst of its parts, `pbem.cli.app`)."""
    code = 0
    st = app.settings
    if report.standby:
        app.note("another worker leads the IMAP fetch; applying what it handed over")
    if report.imap_error is not None:
        click.echo(f"IMAP {st.imap_host}:{st.imap_port}: {report.imap_error}", err=True)
        code = EXIT_UNREACHABLE
    mail = report.mail
    if mail.total or mail.handed_over:
        app.say("in: " + mail.summary())
    if report.waiting:
        app.note(f"{report.waiting} handed-over mails wait in games other workers hold")
    if mail.outcomes["quarantined"] or mail.outcomes["bounced"]:  # an operator should look
        code = max(code, EXIT_ATTENTION)
    if mail.outcomes["deferred"]:  # the database was busy or unreachable: the next run retries
        code = max(code, EXIT_UNREACHABLE)
    clocks = report.clocks
    if clocks.summary() != "nothing due":
        app.say("clocks: " + clocks.summary())
    if clocks.outage or clocks.failed:
        code = max(code, EXIT_ATTENTION)
    if report.sent is not None:
        code = max(code, _sent_code(app, report.sent))
    return code


def _sent_code(app: App, sent: SendStats) -> int:
    if sent.sent or sent.retrying or sent.failed:
        app.say("out: " + sent.summary())
    if sent.failed:
        return EXIT_ATTENTION
    return EXIT_UNREACHABLE if sent.unreachable or (sent.retrying and not sent.sent) else 0


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
    help="Seconds per IDLE (with LMTP: without a delivery) before a routine pass.",
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
    With PBEM_LMTP_PORT set, the site's MTA delivers over LMTP to a listener on
    PBEM_LMTP_HOST:PBEM_LMTP_PORT instead, and each mail is applied as it arrives.
    """
    app.require_identity()
    _warn(app)
    stopper = _stopper()
    try:
        _ = app.existing_db  # before the lock file is made beside it
        with RunLock(app.settings.lock_path):
            _ = app.db  # migrated under the lock
            if embedded:
                _serve_embedded(app, stopper, idle_timeout, smtp_port, imap_port)
            elif app.settings.lmtp_port:
                serve_delivered(
                    app.db,
                    app.settings,
                    outbox.make_sender(app.settings),
                    stopper=stopper,
                    idle_timeout=idle_timeout,
                    standby_interval=standby_interval,
                    on_pass=app.note,
                )
            else:
                run_serve(
                    app.db,
                    app.settings,
                    lambda: intake.open_mailbox(app.settings),
                    outbox.make_sender(app.settings),
                    stopper=stopper,
                    idle_timeout=idle_timeout,
                    standby_interval=standby_interval,
                    on_pass=app.note,
                )
    except Locked as exc:
        click.echo(str(exc), err=True)
        sys.exit(EXIT_LOCKED)
    except ListenError as exc:
        click.echo(str(exc), err=True)
        sys.exit(EXIT_UNREACHABLE)
    if stopper.signal_name:
        _said_stop(app, stopper)
    else:
        app.say("stopped")


def _serve_embedded(
    app: App, stopper: Stopper, idle_timeout: float, smtp_port: int, imap_port: int
) -> None:
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
            lambda: intake.open_mailbox(settings),
            outbox.make_sender(settings),
            stopper=stopper,
            idle_timeout=idle_timeout,
            on_pass=app.note,
        )
