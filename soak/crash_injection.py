"""Crash injection: SIGKILL `pbem poll` at random moments while two scripted players play.

    python soak/crash_injection.py [--kills 1000] [--seed 1]

Runs the embedded SMTP+IMAP servers and a SQLite database in a temporary folder. Each round
the player whose turn it is mails one random legal command to the reply address of their
current key (only after their previous command was applied), then `pbem poll` is started in
a subprocess and killed with SIGKILL after a random delay (0 to ``--max-delay`` seconds:
during start-up, migration, IMAP fetch, the pipeline's transaction, the IMAP move or the
SMTP drain). Every fifth round the poll runs to the end instead. At the end a few clean
polls drain everything, and the invariants are checked:

* the move log is exactly the commands the players mailed, each once, in order;
* every outbox row is ``sent`` and every one reached its recipient's mailbox;
* every copy in the players' mailboxes carries the Message-ID of an outbox row (a duplicate
  only ever repeats the same Message-ID), and the number of duplicates is printed;
* no mail was quarantined.

Prints the kills made, moves applied, mails delivered, duplicates, and the violations; exit
status 1 if an invariant broke. ``tests/pbem/test_crash_injection.py`` runs a smoke size.
"""

from __future__ import annotations

import argparse
import email
import email.policy
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sqlmodel import Session, col, select  # noqa: E402

import engine  # noqa: E402
from pbem import keys, service  # noqa: E402
from pbem.config import Settings  # noqa: E402
from pbem.db import make_engine, migrate  # noqa: E402
from pbem.mail import ImapMailbox  # noqa: E402
from pbem.mail.embedded import EmbeddedMailServers  # noqa: E402
from pbem.models import Game, Move, OutboxMessage, Quarantine, Seat  # noqa: E402
from pbem.replies import current_key  # noqa: E402

DOMAIN = "crash.test"
PLAYERS = {"kennedy": f"jack@{DOMAIN}", "nixon": f"dick@{DOMAIN}"}
GAME = f"game@{DOMAIN}"


@dataclass
class Result:
    kills: int = 0
    clean_runs: int = 0
    moves: int = 0
    delivered: int = 0
    duplicates: int = 0
    exit_codes: Counter[int] = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)

    def report(self, seconds: float) -> str:
        return (f"kills {self.kills}, clean polls {self.clean_runs}, moves applied {self.moves}, "
                f"mails delivered {self.delivered} (duplicates {self.duplicates}), "
                f"exit codes {dict(sorted(self.exit_codes.items()))}, "
                f"violations {len(self.violations)}; {seconds:.1f} s")


def _player_mail(frm: str, to: str, body: str) -> bytes:
    return (f"From: {frm}\r\nTo: {to}\r\nSubject: Re: move\r\n"
            f"Message-ID: <{uuid.uuid4().hex}@{DOMAIN}>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
            f"{body}\r\n").encode()


def run(kills: int, seed: int, folder: Path, max_delay: float = 1.5) -> Result:
    rnd = random.Random(seed)
    out = Result()
    db_url = f"sqlite:///{folder}/crash.db"
    with EmbeddedMailServers(domain=DOMAIN) as mail:
        settings = Settings(database_url=db_url, address=GAME, secret=f"crash-{seed}-secret",
                            imap_host=mail.host, imap_port=mail.imap_port, imap_ssl=False,
                            imap_user=GAME, imap_password="x", smtp_host=mail.host,
                            smtp_port=mail.smtp_port, smtp_tls=False)
        env = {**os.environ, "PBEM_DATABASE_URL": db_url, "PBEM_ADDRESS": GAME,
               "PBEM_SECRET": settings.secret, "PBEM_IMAP_HOST": mail.host,
               "PBEM_IMAP_PORT": str(mail.imap_port), "PBEM_IMAP_SSL": "false",
               "PBEM_IMAP_USER": GAME, "PBEM_IMAP_PASSWORD": "x", "PBEM_SMTP_HOST": mail.host,
               "PBEM_SMTP_PORT": str(mail.smtp_port), "PBEM_SMTP_TLS": "false",
               "PYTHONPATH": str(ROOT)}
        db = make_engine(db_url)
        migrate(db)
        game_id = service.new_game(db, settings, seed=seed, **PLAYERS)
        mailed: list[tuple[str, str]] = []

        def poll(kill_after: float | None) -> None:
            child = subprocess.Popen([sys.executable, "-m", "pbem", "poll"], env=env, cwd=folder,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if kill_after is None:
                out.exit_codes[child.wait(timeout=300)] += 1
                out.clean_runs += 1
                return
            try:
                out.exit_codes[child.wait(timeout=kill_after)] += 1
            except subprocess.TimeoutExpired:
                child.send_signal(signal.SIGKILL)
                child.wait()
                out.kills += 1

        def applied() -> int:
            with Session(db) as s:
                return len(s.exec(select(Move.id).where(Move.game_id == game_id)).all())

        round_ = 0
        while out.kills < kills:
            round_ += 1
            with Session(db) as s:
                game = s.get(Game, game_id)
                assert game is not None
                state = engine.from_json(game.snapshot)
                seats = {st.side: st for st in s.exec(select(Seat).where(Seat.game_id == game_id))}
            if engine.result(state) is not None:
                break
            if applied() == len(mailed):  # the previous command is in: mail the next one
                side = sorted(engine.active_sides(state))[0]
                command = rnd.choice(engine.legal_commands(state, side))
                to = keys.reply_address(GAME, current_key(settings, seats[side]))
                mail.deliver(GAME, _player_mail(PLAYERS[side], to, command))
                mailed.append((side, command))
            poll(None if round_ % 5 == 0 else rnd.uniform(0.0, max_delay))
        for _ in range(3):
            poll(None)
        _check(db, game_id, mailed, mail, out)
    return out


def _check(db: object, game_id: int, mailed: list[tuple[str, str]], mail: EmbeddedMailServers,
           out: Result) -> None:
    bad = out.violations
    with Session(db) as s:  # type: ignore[arg-type]
        log = [(m.side, m.command) for m in s.exec(
            select(Move).where(Move.game_id == game_id).order_by(col(Move.seq)))]
        rows = list(s.exec(select(OutboxMessage)))
        quarantined = len(s.exec(select(Quarantine.id)).all())
    out.moves = len(log)
    if log != mailed[: len(log)] or len(log) < len(mailed) - 0:
        bad.append(f"move log differs from the mailed commands ({len(log)} vs {len(mailed)})")
    if quarantined:
        bad.append(f"{quarantined} mails quarantined")
    unsent = [r.message_id for r in rows if r.status != "sent"]
    if unsent:
        bad.append(f"{len(unsent)} outbox rows not sent")
    expected = {r.message_id: r.recipient for r in rows}
    seen: Counter[str] = Counter()
    for address in PLAYERS.values():
        with ImapMailbox(mail.host, mail.imap_port, address, "x") as box:
            for item in box.fetch_new():
                msg = email.message_from_bytes(item.raw, policy=email.policy.default)
                mid = str(msg["Message-ID"] or "")
                if expected.get(mid) != address:
                    bad.append(f"{address} got a mail that is not its outbox row: {mid}")
                seen[mid] += 1
    missing = [m for m in expected if m not in seen]
    if missing:
        bad.append(f"{len(missing)} outbox mails never delivered")
    out.delivered = sum(seen.values())
    out.duplicates = out.delivered - len(seen)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kills", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-delay", type=float, default=1.5)
    a = ap.parse_args(argv)
    t = time.perf_counter()
    total = Result()
    seed = a.seed
    with tempfile.TemporaryDirectory() as tmp:
        while total.kills < a.kills:  # a finished game starts another one
            folder = Path(tmp, f"game{seed}")
            folder.mkdir()
            r = run(a.kills - total.kills, seed, folder, a.max_delay)
            total.kills += r.kills
            total.clean_runs += r.clean_runs
            total.moves += r.moves
            total.delivered += r.delivered
            total.duplicates += r.duplicates
            total.exit_codes.update(r.exit_codes)
            total.violations += r.violations
            seed += 1
    print("crash injection: " + total.report(time.perf_counter() - t))
    for line in total.violations[:20]:
        print("  " + line)
    return 1 if total.violations else 0


if __name__ == "__main__":
    sys.exit(main())
