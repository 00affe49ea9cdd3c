"""`pbem demo`: the whole product, a game played by email on embedded local mail servers.

The server invites two scripted players, ``kennedy@demo.test`` and ``nixon@demo.test``, with
the commitment of its secret seed; each accepts with words of their own (mixed into the
seed). Then they read their reports over IMAP, pick a random legal command (from the same
data as ``pbem show --json``) and answer the report's Reply-To address over SMTP, threading
their reply like a mail client; the worker polls the game mailbox, applies the mail and
sends the next reports. At the end the final mail reveals the seed with the game's export,
which the demo saves and verifies as ``pbem verify`` does. Every mail a player receives is
also appended to ``<dir>/<side>.mbox``; the folder is removed at the end unless kept.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import json
import mailbox
import random
import re
import secrets
import shutil
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
from pbem.games.fairplay.verify import verify_export
from pbem.mail import ImapMailbox, SmtpSender
from pbem.mail.embedded import EmbeddedMailServers
from pbem.outbox import send as outbox
from pbem.store.db import make_engine, migrate
from pbem.store.models import Commitment, Game, InboundMessage, OutboxMessage
from pbem.worker import intake
from pbem.worker.worker_pass import worker_pass

__all__ = ["DemoResult", "ScriptedPlayer", "play_by_email", "run_demo"]

DOMAIN = "demo.test"
WORDS = {  # what each scripted player writes after `accept`: their share of the seed
    "kennedy": "Ask not what your country can do for you",
    "nixon": "Let's go to work",
}


@dataclass
class DemoResult:
    finished: bool
    game_id: int
    moves: int
    mails: int
    seconds: float
    folder: str
    result: engine.schema.Result | None = None
    final: engine.View | None = None
    export: Path | None = None
    verdict: str = ""


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
        command = self.rng.choice(legal)
        self.reply(command)
        return command

    def reply(self, command: str) -> None:
        """Answer the newest mail (a report or the invitation) with ``command``."""
        assert self.latest is not None
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

    def attachment(self, name_end: str) -> bytes | None:
        """The newest mail's attachment whose file name ends so (the export: "export.json")."""
        for part in self.latest.walk() if self.latest is not None else ():
            if (part.get_filename() or "").endswith(name_end):
                payload = part.get_payload(decode=True)
                return payload if isinstance(payload, bytes) else None
        return None


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
    keep: bool = False,
    keep_running: bool = False,
    prog: str = "pbem",
    console: Console | None = None,
) -> DemoResult:
    """Start the embedded servers and play one invited game by email to the reveal.

    ``seed`` seeds the scripted players' choices (the deal comes from the committed seed and
    the players' words). The files go to ``folder`` (kept) or a temporary folder, removed at
    the end unless ``keep`` (or ``keep_running``). ``prog`` is how the user runs `pbem`.
    """
    console = console or Console()
    if not console.is_terminal:  # piped or redirected: whole lines, never wrapped
        console = Console(file=console.file, soft_wrap=True, highlight=False)
    keep = keep or keep_running or folder is not None
    where = Path(folder or tempfile.mkdtemp(prefix="pbem-demo-"))
    where.mkdir(parents=True, exist_ok=True)
    console.print(
        f"[bold]pbem demo[/]: files in {where} (database, both players' mail, the export)"
        + ("" if keep else f"; removed at the end (`{prog} demo --keep` keeps them)")
    )
    started = time.perf_counter()
    try:
        with EmbeddedMailServers(domain=DOMAIN) as mail:
            settings = demo_settings(where, mail.smtp_port, mail.imap_port)
            console.print(f"mail servers: {mail.address_note}")
            result = _play(settings, seed, edition, max_moves, where, console)
            result.seconds = time.perf_counter() - started
            _epilogue(console, result, prog, keep)
            if keep_running:
                _wait(console, mail.address_note)
    finally:
        if not keep:
            shutil.rmtree(where, ignore_errors=True)
    if not keep:
        console.print(f"removed {where}")
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
        invite=True,
    )
    rng = random.Random(seed)
    players = {
        side: ScriptedPlayer(side, addr, settings, rng, where) for side, addr in addresses.items()
    }
    _invitations(db, settings, game_id, players, console)
    moves, view = _game(db, settings, game_id, players, max_moves, console)
    mails = sum(p.received for p in players.values())
    result = DemoResult(
        view["result"] is not None, game_id, moves, mails, 0.0, str(where), view["result"], view
    )
    if result.finished:
        _reveal(players["kennedy"], where, result)
    return result


def _invitations(
    db: Any, settings: Settings, game_id: int, players: dict[str, ScriptedPlayer], console: Console
) -> None:
    """Invite both players, show the commitment, let each accept with their own words."""
    outbox.drain_outbox(db, settings, outbox.make_sender(settings))
    with Session(db) as s:
        row = s.get(Commitment, game_id)
        committed = row.commitment if row is not None else "?"
    console.print(
        f"[bold]1. invitations[/] to {', '.join(p.address for p in players.values())}: "
        f"each shows the commitment SHA-256 {committed} of the server's secret seed, "
        "fixed now and revealed at the end"
    )
    with intake.open_mailbox(settings) as inbox:
        inbox.ensure_folders()
        for side, p in players.items():
            p.open()
            p.wait_for(1, 30)
            p.reply(f"accept {WORDS[side]}")
            console.print(f"   {side.title()} replies: accept {WORDS[side]}")
        deadline = time.monotonic() + 60
        while _status(db, game_id) == "invited":
            if time.monotonic() > deadline:
                raise TimeoutError("the players' acceptances did not arrive")
            worker_pass(db, settings, inbox=inbox)
            time.sleep(0.02)
        for p in players.values():
            p.close()
    console.print(
        "   both accepted: the deal's seed is HMAC(secret seed, both players' words), "
        "so neither the server nor one player chose it"
    )


def _status(db: Any, game_id: int) -> str:
    with Session(db) as s:
        game = s.get(Game, game_id)
        return game.status if game is not None else "missing"


def _game(
    db: Any,
    settings: Settings,
    game_id: int,
    players: dict[str, ScriptedPlayer],
    max_moves: int,
    console: Console,
) -> tuple[int, engine.View]:
    """Play by email to the end, with a progress bar on a terminal (a line a turn elsewhere)."""
    console.print(f"[bold]2. the game[/] #{game_id}, every move a mail")
    columns = (
        TextColumn("   {task.description}"),
        BarColumn(),
        TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(),
    )
    turns_seen: set[int] = set()
    with Progress(*columns, console=console, disable=not console.is_terminal) as bar:
        task = bar.add_task(f"game #{game_id}", total=9, status="starting")

        def progress(view: engine.View, moves: int) -> None:
            status = f"turn {view['turn']} {view['phase']:9} moves {moves}"
            bar.update(task, completed=view["turn"] - (view["result"] is None), status=status)
            if not console.is_terminal and view["turn"] not in turns_seen:
                turns_seen.add(view["turn"])
                console.print(f"   {status}")

        return play_by_email(
            db, settings, game_id, players, max_moves=max_moves, on_progress=progress
        )


def _reveal(player: ScriptedPlayer, where: Path, result: DemoResult) -> None:
    """Save the export attached to the final mail and verify it as `pbem verify` does."""
    data = player.attachment("export.json")
    if data is None:
        result.verdict = "NOT VERIFIED: the final mail has no export attached"
        return
    result.export = where / f"game-{result.game_id}-export.json"
    result.export.write_bytes(data)
    verdict = verify_export(json.loads(data))
    result.verdict = verdict.message if verdict.ok else f"NOT VERIFIED: {verdict.message}"


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


def _epilogue(console: Console, r: DemoResult, prog: str, keep: bool) -> None:
    if not (r.finished and r.result and r.final):
        console.print(f"[bold yellow]stopped[/] after {r.moves} moves (limit reached)")
    else:
        console.print(f"[bold]3. game over[/]: {final_board(r.final, r.result)}")
    console.print(
        f"   {r.moves} moves by email, {r.mails} mails delivered, {r.seconds:.1f} s "
        f"({r.moves / max(r.seconds, 1e-9):.1f} moves/s)"
    )
    if r.export is not None:
        seed = json.loads(r.export.read_text(encoding="utf-8")).get("server_seed")
        console.print(
            f"[bold]4. the reveal[/]: the final mail gives both players the secret seed {seed}, "
            f"both players' words and the whole game as {r.export.name}"
        )
        console.print(f"   $ {prog} verify {r.export}\n   {r.verdict}")
    if keep:
        db_url = f"sqlite:///{r.folder}/pbem.db"
        console.print(f"the files are kept in {r.folder}; for example:")
        console.print(f"   mutt -f {r.folder}/kennedy.mbox")
        console.print(f"   {prog} --database-url {db_url} log {r.game_id}")
        if r.export is not None:
            console.print(f"   python3 pbem/games/fairplay/verify.py {r.export}")


def final_board(view: engine.View, result: engine.schema.Result) -> str:
    """The final tally in words, explaining why it differs from the states carried."""
    carried = dict.fromkeys(engine.SIDES, 0)
    for space in view["states"].values():
        if space["side"] in carried:
            carried[space["side"]] += space["ev"]
    ev = result["electoral_votes"]
    text = (
        f"{str(result['winner']).title()} wins, electoral votes Kennedy {ev['kennedy']}, "
        f"Nixon {ev['nixon']}"
        if result.get("winner")
        else f"a tie: Kennedy {ev['kennedy']}, Nixon {ev['nixon']}"
    )
    lost = {
        code: view["states"][code]
        for code in result.get("unpledged") or []
        if code in view["states"]
    }
    if lost:
        names = ", ".join(f"{engine.STATES[c].name} ({s['ev']})" for c, s in lost.items())
        sides = {s["side"] for s in lost.values()}
        who = "/".join(str(side).title() for side in sorted(sides, key=str))
        text += (
            f". The board shows the states carried (Kennedy {carried['kennedy']}, Nixon "
            f"{carried['nixon']}); the Unpledged Electors event (#33, R14.1) gives {names} to "
            f"nobody, so {who} counts {sum(s['ev'] for s in lost.values())} fewer"
        )
    return text


def _wait(console: Console, where: str) -> None:
    console.print("servers still up: " + where + " — Ctrl-C to stop")
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
