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
import secrets
import tempfile
import time
from dataclasses import dataclass, field
from email.message import EmailMessage, Message
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

import engine
from pbem import service
from pbem.config import Settings
from pbem.db import make_engine, migrate
from pbem.mail import ImapMailbox, SmtpSender

__all__ = ["DemoResult", "ScriptedPlayer", "run_demo"]

DOMAIN = "demo.test"


@dataclass
class DemoResult:
    finished: bool
    game_id: int
    moves: int
    mails: int
    seconds: float
    folder: str
    result: dict[str, Any] | None = None


@dataclass
class ScriptedPlayer:
    """A player who answers the newest report with one random legal command."""

    side: str
    address: str
    settings: Settings
    rng: random.Random
    folder: Path
    latest: Message | None = None
    received: int = 0
    sent: int = 0
    _inbox: ImapMailbox | None = field(default=None, repr=False)

    def open(self) -> None:
        s = self.settings
        self._inbox = ImapMailbox(s.imap_host, s.imap_port, self.address, "demo", ssl=False,
                                  processed="Read", quarantine="Junk")
        self._inbox.connect()
        self._inbox.ensure_folders()

    def close(self) -> None:
        if self._inbox is not None:
            self._inbox.close()

    def read_mail(self) -> int:
        """Fetch new reports (kept in the mbox, moved to Read); returns how many."""
        assert self._inbox is not None
        new = self._inbox.fetch_new()
        box = mailbox.mbox(str(self.folder / f"{self.side}.mbox"))
        try:
            for item in new:
                msg = email.message_from_bytes(item.raw, policy=email.policy.default)
                box.add(msg)
                self.latest = msg
                self._inbox.move(item.uid, "Read")
        finally:
            box.close()
        self.received += len(new)
        return len(new)

    def move(self, legal: list[str]) -> str:
        """Send one random legal command in reply to the newest report."""
        assert self.latest is not None
        command = self.rng.choice(legal)
        msg = EmailMessage()
        msg["From"] = self.address
        msg["To"] = str(self.latest["Reply-To"])
        msg["Subject"] = "Re: " + str(self.latest["Subject"])
        msg["Message-ID"] = f"<{self.side}.{self.sent}.{secrets.token_hex(4)}@{DOMAIN}>"
        msg["In-Reply-To"] = str(self.latest["Message-ID"])
        msg["References"] = " ".join(filter(None, [str(self.latest.get("References", "")),
                                                   str(self.latest["Message-ID"])]))
        msg.set_content(f"{command}\n\n-- \n{self.side.title()} (scripted demo player)\n")
        s = self.settings
        asyncio.run(SmtpSender(s.smtp_host, s.smtp_port).send(
            msg.as_bytes(), self.address, [msg["To"]]))
        self.sent += 1
        return command


def demo_settings(folder: Path, smtp_port: int, imap_port: int) -> Settings:
    address = f"game@{DOMAIN}"
    return Settings(database_url=f"sqlite:///{folder}/pbem.db", address=address,
                    imap_host="127.0.0.1", imap_port=imap_port, imap_user=address,
                    imap_password="demo", imap_ssl=False, smtp_host="127.0.0.1",
                    smtp_port=smtp_port, smtp_tls=False, secret=secrets.token_hex(16))


def run_demo(*, seed: int = 1960, edition: str = "zman", folder: str | None = None,
             max_moves: int = 5000, keep_running: bool = False,
             console: Console | None = None) -> DemoResult:
    """Start the embedded servers, play one game by email, report where the mail is."""
    from pbem.mail.embedded import EmbeddedMailServers

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


def _play(settings: Settings, seed: int, edition: str, max_moves: int, where: Path,
          console: Console) -> DemoResult:
    db = make_engine(settings.database_url)
    migrate(db)
    game_id = service.new_game(db, settings, kennedy=f"kennedy@{DOMAIN}",
                               nixon=f"nixon@{DOMAIN}", edition=edition, seed=seed)
    rng = random.Random(seed)
    players = {side: ScriptedPlayer(side, f"{side}@{DOMAIN}", settings, rng, where)
               for side in engine.SIDES}
    sender = service.make_sender(settings)
    moves = 0
    columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[status]}"),
               TimeElapsedColumn())
    with service.open_mailbox(settings) as inbox, Progress(*columns, console=console) as bar:
        inbox.ensure_folders()
        for p in players.values():
            p.open()
        task = bar.add_task(f"game #{game_id}", total=9, status="starting")
        view: dict[str, Any] = {}
        while moves < max_moves:
            service.poll_once(db, settings, inbox)
            service.drain_outbox(db, settings, sender)
            view = service.show_json(db, game_id, "public")
            bar.update(task, completed=view["turn"] - (view["result"] is None),
                       status=f"turn {view['turn']} {view['phase']:9} moves {moves}")
            if view["result"] is not None:
                break
            moves += _turn(db, game_id, players, view["active"])
        else:  # the move limit: process the last mails too
            service.poll_once(db, settings, inbox)
            service.drain_outbox(db, settings, sender)
        for p in players.values():
            p.read_mail()
            p.close()
    mails = sum(p.received for p in players.values())
    return DemoResult(view.get("result") is not None, game_id, moves, mails, 0.0, str(where),
                      view.get("result"))


def _turn(db: Any, game_id: int, players: dict[str, ScriptedPlayer], active: list[str]) -> int:
    sent = 0
    for side in active:
        player = players[side]
        player.read_mail()
        legal = service.show_json(db, game_id, side)["legal"]
        if legal and player.latest is not None:
            player.move(legal)
            sent += 1
    if not sent:
        raise RuntimeError(f"demo stuck: active {active} but nobody could move")
    return sent


def _epilogue(console: Console, r: DemoResult, mail: Any, keep_running: bool) -> None:
    if r.finished and r.result:
        ev = r.result.get("electoral_votes", {})
        console.print(f"[bold green]game over[/]: {str(r.result.get('winner')).title()} wins, "
                      f"EV Kennedy {ev.get('kennedy')} / Nixon {ev.get('nixon')}")
    else:
        console.print(f"[bold yellow]stopped[/] after {r.moves} moves (limit reached)")
    console.print(f"{r.moves} moves by email, {r.mails} reports delivered, "
                  f"{r.seconds:.1f} s ({r.moves / max(r.seconds, 1e-9):.1f} moves/s)")
    console.print(f"read the mail: {r.folder}/kennedy.mbox and {r.folder}/nixon.mbox "
                  f"(e.g. `mutt -f {r.folder}/kennedy.mbox`); "
                  f"`pbem --database-url sqlite:///{r.folder}/pbem.db log {r.game_id}`")
    if keep_running:
        console.print("servers still up: " + mail.address_note + " — Ctrl-C to stop")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
