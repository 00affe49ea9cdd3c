"""`pbem demo`: a whole game played by email on embedded local mail servers.

Two scripted players, ``kennedy@demo.test`` and ``nixon@demo.test``, read
their reports over IMAP, pick a random legal command (from the same data as
``pbem show --json``) and answer the report's Reply-To address over SMTP,
threading their reply like a mail client. The worker polls the game mailbox,
applies the mail and sends the next reports. Every mail a player receives is
also appended to ``<dir>/<side>.mbox`` so it can be read after the servers stop.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import mailbox
import random
import re
import secrets
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage, Message
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from sqlmodel import Session, func, select

import engine
from pbem import keys
from pbem.config import Settings
from pbem.games import setup as game_setup
from pbem.games import views as game_views
from pbem.mail import ImapMailbox, SmtpSender
from pbem.mail.embedded import EmbeddedMailServers
from pbem.outbox import send as outbox
from pbem.store.db import make_engine, migrate
from pbem.store.models import InboundMessage, OutboxMessage
from pbem.worker import intake
from pbem.worker.worker_pass import worker_pass

__all__ = ["DemoResult", "ScriptedPlayer", "play_by_email", "run_demo"]

DOMAIN = "demo.test"


@dataclass
class DemoResult:
    finished: bool
    game_id: int
    moves: int
    mails: int
    seconds: float
    folder: str
    result: engine.schema.Result | None = None


@dataclass
class ScriptedPlayer:
    """A player who answers the newest report with one random legal command."""

    side: str
    address: str
    settings: Settings
    rng: random.Random
    folder: Path
    password: str = "demo"
    latest: Message | None = None
    received: int = 0
    sent: int = 0
    _inbox: ImapMailbox | None = field(default=None, repr=False)
    _mbox: mailbox.mbox | None = field(default=None, repr=False)

    def open(self) -> None:
        s = self.settings
        self._inbox = ImapMailbox(
            s.imap_host,
            s.imap_port,
            self.address,
            self.password,
            ssl=False,
            processed="Read",
            quarantine="Junk",
        )
        self._inbox.connect()
        self._inbox.ensure_folders()
        self._mbox = mailbox.mbox(str(self.folder / f"{self.side}.mbox"))

    def close(self) -> None:
        if self._inbox is not None:
            self._inbox.close()
        if self._mbox is not None:
            self._mbox.close()

    def read_mail(self) -> int:
        """Fetch new reports (kept in the mbox, moved to Read); returns how many."""
        assert self._inbox is not None and self._mbox is not None
        new = self._inbox.fetch_new()
        for item in new:
            msg = email.message_from_bytes(item.raw, policy=email.policy.default)
            self._mbox.add(item.raw)
            if self.latest is None or _generation(msg) >= _generation(self.latest):
                self.latest = msg  # mail may arrive out of order (notes C1)
            self._inbox.move(item.uid, "Read")
        if new:
            self._mbox.flush()
        self.received += len(new)
        return len(new)

    def wait_for(self, count: int, timeout: float) -> None:
        """Read mail until ``count`` reports have arrived in all."""
        deadline = time.monotonic() + timeout
        while self.read_mail() or self.received < count:
            if self.received >= count:
                continue
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.address}: {self.received} of {count} reports arrived")
            time.sleep(0.02)

    def move(self, legal: list[str]) -> str:
        """Send one random legal command in reply to the newest report."""
        assert self.latest is not None
        command = self.rng.choice(legal)
        msg = EmailMessage()
        msg["From"] = self.address
        msg["To"] = str(self.latest["Reply-To"])
        msg["Subject"] = "Re: " + str(self.latest["Subject"])
        domain = self.address.partition("@")[2]
        msg["Message-ID"] = f"<{self.side}.{self.sent}.{secrets.token_hex(4)}@{domain}>"
        msg["In-Reply-To"] = str(self.latest["Message-ID"])
        msg["References"] = " ".join(
            filter(None, [str(self.latest.get("References", "")), str(self.latest["Message-ID"])])
        )
        msg.set_content(f"{command}\n\n-- \n{self.side.title()} (scripted player)\n")
        s = self.settings
        asyncio.run(
            SmtpSender(s.smtp_host, s.smtp_port).send(msg.as_bytes(), self.address, [msg["To"]])
        )
        self.sent += 1
        return command


def _generation(msg: Message) -> tuple[int, int]:
    """(key generation, report version) of one of our reports, from its headers."""
    found = keys.find_keys(str(msg.get("Reply-To", "")))
    version = re.search(r"\.v(\d+)\.", str(msg.get("Message-ID", "")))
    return (found[0].gen if found else -1, int(version.group(1)) if version else -1)


def demo_settings(folder: Path, smtp_port: int, imap_port: int) -> Settings:
    address = f"game@{DOMAIN}"
    return Settings(
        database_url=f"sqlite:///{folder}/pbem.db",
        address=address,
        imap_host="127.0.0.1",
        imap_port=imap_port,
        imap_user=address,
        imap_password="demo",
        imap_ssl=False,
        smtp_host="127.0.0.1",
        smtp_port=smtp_port,
        smtp_tls=False,
        secret=secrets.token_hex(16),
    )


def run_demo(
    *,
    seed: int = 1960,
    edition: str = "zman",
    folder: str | None = None,
    max_moves: int = 5000,
    keep_running: bool = False,
    console: Console | None = None,
) -> DemoResult:
    """Start the embedded servers, play one game by email, report where the mail is."""

    console = console or Console()
    where = Path(folder or tempfile.mkdtemp(prefix="pbem-demo-"))
    where.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with EmbeddedMailServers(domain=DOMAIN) as mail:
        settings = demo_settings(where, mail.smtp_port, mail.imap_port)
        console.print(f"[bold]pbem demo[/]: mail servers {mail.address_note}")
        console.print(f"database {settings.database_url}; mail copies in {where}/*.mbox")
        result = _play(settings, seed, edition, max_moves, where, console)
        result.seconds = time.perf_counter() - started
        _epilogue(console, result, mail, keep_running)
    return result


def _play(
    settings: Settings, seed: int, edition: str, max_moves: int, where: Path, console: Console
) -> DemoResult:
    db = make_engine(settings.database_url)
    migrate(db)
    addresses = {side: f"{side}@{DOMAIN}" for side in engine.SIDES}
    game_id = game_setup.new_game(
        db,
        settings,
        kennedy=addresses["kennedy"],
        nixon=addresses["nixon"],
        edition=edition,
        seed=seed,
    )
    rng = random.Random(seed)
    players = {
        side: ScriptedPlayer(side, addr, settings, rng, where) for side, addr in addresses.items()
    }
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console) as bar:
        task = bar.add_task(f"game #{game_id}", total=9, status="starting")

        def progress(view: engine.View, moves: int) -> None:
            bar.update(
                task,
                completed=view["turn"] - (view["result"] is None),
                status=f"turn {view['turn']} {view['phase']:9} moves {moves}",
            )

        moves, view = play_by_email(
            db, settings, game_id, players, max_moves=max_moves, on_progress=progress
        )
    mails = sum(p.received for p in players.values())
    return DemoResult(
        view["result"] is not None, game_id, moves, mails, 0.0, str(where), view["result"]
    )


def play_by_email(
    db: Any,
    settings: Settings,
    game_id: int,
    players: dict[str, ScriptedPlayer],
    *,
    max_moves: int,
    timeout: float = 60.0,
    on_progress: Callable[[engine.View, int], None] = lambda v, n: None,
) -> tuple[int, engine.View]:
    """The worker and the scripted players take turns until the game ends; (moves, view)."""
    sender = outbox.make_sender(settings)
    moves = 0
    base = _inbound_count(db)  # mails processed before (e.g. the invitation replies)
    with intake.open_mailbox(settings) as inbox:
        inbox.ensure_folders()
        for p in players.values():
            p.open()
        try:
            while True:
                _poll_until(db, settings, inbox, base + moves, timeout)
                outbox.drain_outbox(db, settings, sender)
                view = game_views.show_json(db, game_id, "public")
                on_progress(view, moves)
                if view["result"] is not None or moves >= max_moves:
                    break
                moves += _turn(db, game_id, players, view["active"], timeout)
            for p in players.values():
                p.wait_for(_sent_to(db, p.address), timeout)
        finally:
            for p in players.values():
                p.close()
    return moves, view


def _poll_until(db: Any, settings: Settings, inbox: Any, expected: int, timeout: float) -> None:
    """Poll until ``expected`` player mails have been processed (delivery may lag)."""
    deadline = time.monotonic() + timeout
    while True:
        worker_pass(db, settings, inbox=inbox)
        if _inbound_count(db) >= expected:
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"only {_inbound_count(db)} of {expected} player mails arrived")
        time.sleep(0.02)


def _inbound_count(db: Any) -> int:
    with Session(db) as s:
        return int(s.exec(select(func.count()).select_from(InboundMessage)).one())


def _sent_to(db: Any, address: str) -> int:
    with Session(db) as s:
        return int(
            s.exec(
                select(func.count())
                .select_from(OutboxMessage)
                .where(OutboxMessage.recipient == address, OutboxMessage.status == "sent")
            ).one()
        )


def _turn(
    db: Any, game_id: int, players: dict[str, ScriptedPlayer], active: list[str], timeout: float
) -> int:
    sent = 0
    for side in active:
        player = players[side]
        player.wait_for(_sent_to(db, player.address), timeout)
        legal = game_views.show_json(db, game_id, side)["legal"]
        if legal and player.latest is not None:
            player.move(legal)
            sent += 1
    if not sent:
        raise RuntimeError(f"stuck: active {active} but nobody could move")
    return sent


def _epilogue(console: Console, r: DemoResult, mail: Any, keep_running: bool) -> None:
    if r.finished and r.result:
        ev = r.result.get("electoral_votes", {})
        console.print(
            f"[bold green]game over[/]: {str(r.result.get('winner')).title()} wins, "
            f"EV Kennedy {ev.get('kennedy')} / Nixon {ev.get('nixon')}"
        )
    else:
        console.print(f"[bold yellow]stopped[/] after {r.moves} moves (limit reached)")
    console.print(
        f"{r.moves} moves by email, {r.mails} reports delivered, "
        f"{r.seconds:.1f} s ({r.moves / max(r.seconds, 1e-9):.1f} moves/s)"
    )
    console.print(
        f"read the mail: {r.folder}/kennedy.mbox and {r.folder}/nixon.mbox "
        f"(e.g. `mutt -f {r.folder}/kennedy.mbox`); "
        f"`pbem --database-url sqlite:///{r.folder}/pbem.db log {r.game_id}`"
    )
    if keep_running:
        console.print("servers still up: " + mail.address_note + " — Ctrl-C to stop")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
