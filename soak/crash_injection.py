"""Crash injection: SIGKILL `pbem poll` and `pbem serve` at random moments while two scripted
players play, against a real Dovecot + Postfix (or the embedded servers for the CI smoke).

    python soak/crash_injection.py [--kills 1000] [--seed 1] [--serve-share 0.3] [--embedded]
                                   [--sigterm-share 0.0]
    python soak/crash_injection.py --lmtp [--kills 300] [--window-share 0.5]

``--lmtp``: the players' mail reaches `pbem serve` over LMTP from Postfix, and workers are also
killed between "stored" and "250" (`soak.lmtp_crash` says how); the rest of this text is about
the IMAP intake.

The mail stack: a running one (MAILSTACK_* from `scripts/mailstack.sh start`), else, as root, a
private Dovecot + Postfix on free loopback ports (`benchmarks/mailenv.py`), stopped afterwards;
``--embedded`` uses the in-process SMTP+IMAP servers instead. The database is SQLite in a
temporary folder, or PostgreSQL with ``--database-url`` (a fresh schema is made per game).

Each round the player whose turn it is submits one random legal command over SMTP to the reply
address of their current key (only after their previous command was applied), then a worker is
started — `pbem poll`, or with probability ``--serve-share`` `pbem serve`, in a child forked from
the harness after its imports (``--exec``: a fresh ``python -m pbem``) — and killed with SIGKILL
after a random delay (with probability ``--sigterm-share`` sent SIGTERM instead: a graceful stop,
which must end the worker after the mail in hand, within `TERM_WAIT`, and never make a
duplicate). The delay is drawn uniformly over the *span* of a worker's run: the median wall time of the clean polls measured so far in this run (every fifth
round the poll runs to the end and is timed; serve gets the same span plus one IDLE), so kills
land in start-up, migration, the IMAP fetch, the pipeline's transaction, the IMAP move and the
SMTP drain in proportion to the time each takes. At the end clean polls drain everything, the
players' mailboxes are read, and the invariants are checked:

* the move log is exactly the commands the players mailed, each once, in order (each mail's
  first move for its own side; forced, standing or queued commands may follow it);
* every outbox row is ``sent`` and every one reached its recipient's mailbox;
* every copy in the players' mailboxes carries the Message-ID of an outbox row (a duplicate
  only ever repeats the same Message-ID), and the number of duplicates is printed;
* no mail was quarantined.

A killed worker may hold claimed outbox rows (`pbem.outbox.send.CLAIM_LEASE`, 5 minutes); the next
worker on this machine frees them at once (`pbem.outbox.claims`: the claimant is dead). Rows still held
after the last kill of a game (e.g. a worker killed during the 30 s between two looks of a
long-running `serve`) have their lease moved to its end (time travel) before the final polls,
and are counted.

Where each duplicate came from (`soak.attribution`): after every round the harness waits for
the Postfix queue to empty, reads the Message-IDs new in the players' INBOXes and the outbox
rows left claimed and unsent; a copy that was not the last is tied to the round that sent it
and left it unmarked (the worker kind, the kill's delay and its share of the span), and to the
round that sent it again. Each duplicate is printed with its outbox row (kind, game, seat), and
a summary gives the duplicates per 1,000 stops of poll and of serve, by signal.

Prints a progress line every `PROGRESS_EVERY` stops (the figures so far: what a run cut short
has shown), then the kills made (poll / serve; SIGTERM stops and how long they took), the span,
moves applied, mails delivered, duplicates and the violations; exit status 1 if an invariant
broke. ``tests/pbem/test_crash_injection.py`` runs a smoke size on the embedded servers.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.mailenv import state_dir  # noqa: E402
from pbem.config import Settings  # noqa: E402
from pbem.store.db import make_engine, migrate  # noqa: E402
from soak.attribution import (  # noqa: E402
    Duplicate,
    Ledger,
    Round,
    Watch,
    outbox_rows,
    queue_folder,
    summary,
)
from soak.forked import Child, Forked  # noqa: E402
from soak.invariants import (  # noqa: E402
    Result,
    Stack,
    all_sent,
    check,
    database,
    expire_leases,
)
from soak.lmtp_crash import run_lmtp  # noqa: E402
from soak.players import Players  # noqa: E402

KILL, TERM = signal.SIGKILL, signal.SIGTERM
PROGRESS_EVERY = 100  # stops between two progress lines


def run(
    kills: int,
    seed: int,
    folder: Path,
    stack: Stack,
    *,
    serve_share: float = 0.3,
    sigterm_share: float = 0.0,
    database_url: str | None = None,
    span: float | None = None,
    fork: bool = False,
    deadline: float = float("inf"),
    queue: Path | None = None,
    progress: Callable[[Result, int, list[Duplicate]], None] = lambda *_: None,
) -> Result:
    """One game (or until ``kills`` stops); ``span`` is the stop-delay range (None: calibrate).

    ``sigterm_share``: the share of stops made with SIGTERM (a graceful stop), the rest SIGKILL.
    ``fork``: start each worker by forking this process (see `soak.forked`) instead of a fresh
    ``python -m pbem`` (only without in-process mail servers: their threads do not fork).
    ``queue``: the Postfix queue folder, waited on after each round (`soak.attribution`).
    ``progress``: called after every stop with the game's figures so far, the commands
    mailed and the duplicates seen so far."""
    out = Result(games=1)
    game_addr = f"game-{uuid.uuid4().hex[:8]}@{stack.domain}"
    with database(database_url, folder) as db_url:
        settings = Settings(
            database_url=db_url,
            address=game_addr,
            secret=f"crash-{seed}-secret-of-the-soak",
            imap_host=stack.host,
            imap_port=stack.imap_port,
            imap_ssl=False,
            imap_user=game_addr,
            imap_password=stack.password,
            smtp_host=stack.host,
            smtp_port=stack.smtp_port,
            smtp_tls=False,
        )
        env = {
            **os.environ,
            "PBEM_DATABASE_URL": db_url,
            "PBEM_ADDRESS": game_addr,
            "PBEM_SECRET": settings.secret,
            "PBEM_IMAP_HOST": stack.host,
            "PBEM_IMAP_PORT": str(stack.imap_port),
            "PBEM_IMAP_SSL": "false",
            "PBEM_IMAP_USER": game_addr,
            "PBEM_IMAP_PASSWORD": stack.password,
            "PBEM_SMTP_HOST": stack.host,
            "PBEM_SMTP_PORT": str(stack.smtp_port),
            "PBEM_SMTP_TLS": "false",
            "PBEM_LOCK_FILE": str(folder / "pbem.worker.lock"),
            "PYTHONPATH": str(ROOT),
        }
        db = make_engine(db_url)
        migrate(db)
        players = Players(db, settings, seed, stack.host, stack.smtp_port, stack.domain)
        rnd = players.rnd
        clean_spans: list[float] = []
        ledger, watch = Ledger(), Watch(stack, players.addresses.values(), queue)

        def worker(
            command: str, stop_after: float | None, limit: float | None = None, sig: int = KILL
        ) -> None:
            args = [command, *(["--idle-timeout", "1"] if command == "serve" else [])]
            t = time.perf_counter()
            stopped: Round | None = None
            if fork:
                db.dispose()  # no pooled connection crosses the fork
                child: Child = Forked(args, env, folder)
            else:
                child = subprocess.Popen(
                    [sys.executable, "-m", "pbem", *args],
                    env=env,
                    cwd=folder,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            try:
                if stop_after is None:
                    out.exit_codes[child.wait(timeout=300)] += 1
                    out.clean_runs += 1
                    clean_spans.append(time.perf_counter() - t)
                else:
                    out.exit_codes[child.wait(timeout=stop_after)] += 1
            except subprocess.TimeoutExpired:
                if stop_after is None:
                    raise
                child.send_signal(sig)
                if sig == KILL:
                    child.wait()
                else:
                    out.graceful(child)
                name = signal.Signals(sig).name
                stopped = Round(
                    seed, len(ledger.rounds), command, True, stop_after, limit, signal=name
                )
                out.kills += 1
                out.serve_kills += command == "serve"
                out.stops[stopped.label] += 1
                out.delays.append(stop_after)
            finally:
                if child.poll() is None:  # the harness itself was interrupted: leave nothing
                    child.kill()
                    child.wait()
            watch.after_round(ledger, stopped or Round(seed, len(ledger.rounds), command), db)
            if stopped is not None:
                progress(out, len(players.mailed), ledger.attribute({}))

        round_ = 0
        worker("poll", None)  # sends the welcome mails and gives the first span
        while out.kills < kills and time.monotonic() < deadline:
            round_ += 1
            if not players.turn():  # the game is over
                break
            if round_ % 5 == 0:
                worker("poll", None)
                continue
            limit = span if span is not None else statistics.median(clean_spans[-20:])
            use_serve = rnd.random() < serve_share
            delay = rnd.uniform(0.0, limit + (1.0 if use_serve else 0.0))
            term = sigterm_share > 0 and rnd.random() < sigterm_share
            worker("serve" if use_serve else "poll", delay, limit, TERM if term else KILL)
        out.spans += clean_spans
        out.leased += expire_leases(db)
        for _ in range(60):  # clean polls until every submitted mail is in and every report out
            worker("poll", None)
            if players.all_in() and all_sent(db):
                break
            time.sleep(0.5)
        out.mailed = len(players.mailed)
        check(db, players.game_id, players.mailed, stack, players.addresses, out)
        ledger.late_copies(watch.new_copies())
        watch.close()
        out.unsettled = watch.unsettled
        out.unseen = out.delivered - sum(len(v) for v in ledger.seen.values())
        out.sources = ledger.attribute(outbox_rows(db, ledger.seen))
        db.dispose()
    return out


@contextmanager
def _stack(embedded: bool) -> Iterator[Stack]:
    if embedded:
        from pbem.mail.embedded import EmbeddedMailServers
        from tests.pbem.mailtools import MailServer

        with EmbeddedMailServers(domain="crash.test") as m:
            yield MailServer("embedded", m.host, m.smtp_port, m.imap_port, "crash.test", "x")
        return
    from benchmarks.mailenv import mail_stack

    with mail_stack() as server:
        yield server


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--kills", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--serve-share", type=float, default=0.3, help="share of kills aimed at `pbem serve`"
    )
    ap.add_argument(
        "--sigterm-share",
        type=float,
        default=0.0,
        help="share of stops made with SIGTERM (graceful) instead of SIGKILL",
    )
    ap.add_argument(
        "--span",
        type=float,
        default=None,
        help="kill delays are uniform in [0, span] s (default: the clean polls' median wall time)",
    )
    ap.add_argument(
        "--embedded", action="store_true", help="the embedded servers, not Dovecot + Postfix"
    )
    ap.add_argument(
        "--database-url", default=None, help="PostgreSQL URL (default: SQLite per game)"
    )
    ap.add_argument(
        "--exec",
        dest="fork",
        action="store_false",
        help="start every worker as a fresh `python -m pbem` (default: fork this process, "
        "whose imports are done, so the kills fall in the command's work, not in "
        "Python's start-up; always so with --embedded)",
    )
    ap.add_argument(
        "--minutes",
        type=float,
        default=None,
        help="time budget: stop killing after this long, then drain and check as usual",
    )
    ap.add_argument(
        "--lmtp",
        action="store_true",
        help="LMTP intake: Postfix delivers to `pbem serve`'s listener (soak.lmtp_crash)",
    )
    ap.add_argument(
        "--window-share",
        type=float,
        default=0.5,
        help="--lmtp: share of workers that die right after storing a mail, before its 250",
    )
    ap.add_argument("--smoke", action="store_true", help="10 kills (CI size)")
    a = ap.parse_args(argv)
    kills = 10 if a.smoke else a.kills
    if a.lmtp:
        return _main_lmtp(a, kills)
    t = time.perf_counter()
    total = Result()
    seed = a.seed
    with tempfile.TemporaryDirectory() as tmp, _stack(a.embedded) as stack:
        queue = queue_folder(a.embedded)
        print(
            f"  waiting for the Postfix queue {queue} after each round" if queue else "  no queue"
        )
        deadline = time.monotonic() + 60 * a.minutes if a.minutes else float("inf")
        while total.kills < kills and time.monotonic() < deadline:  # a finished game starts another
            folder = Path(tmp, f"game{seed}")
            folder.mkdir()
            total.add(
                run(
                    kills - total.kills,
                    seed,
                    folder,
                    stack,
                    serve_share=a.serve_share,
                    sigterm_share=a.sigterm_share,
                    database_url=a.database_url,
                    span=a.span,
                    fork=a.fork and not a.embedded,
                    deadline=deadline,
                    queue=queue,
                    progress=_progress(total, t),
                )
            )
            print(
                f"  game {seed}: {total.kills} stops so far, {total.moves} moves, "
                f"{len(total.violations)} violations, {time.perf_counter() - t:.0f} s",
                flush=True,
            )
            seed += 1
    print("crash injection: " + total.report(time.perf_counter() - t))
    for line in total.violations[:20]:
        print("  " + line)
    for dup in total.sources:
        print("  duplicate " + dup.describe())
    return 1 if total.violations else 0


def _progress(total: Result, t: float) -> Callable[[Result, int, list[Duplicate]], None]:
    """A line every `PROGRESS_EVERY` stops: the finished games' figures plus the current one's
    (its invariants are checked when it ends; its duplicates are the copies seen so far)."""

    def show(game: Result, mailed: int, dups: list[Duplicate]) -> None:
        stops = total.kills + game.kills
        if stops % PROGRESS_EVERY:
            return
        counts = total.stops + game.stops
        print(
            f"  progress: {stops} stops ({', '.join(f'{k} {n}' for k, n in sorted(counts.items()))})"
            f", {total.games} games done with {len(total.violations)} violations, moves mailed "
            f"{total.mailed + mailed}, duplicates so far {len(total.sources) + len(dups)}; "
            f"{summary(total.sources + dups, counts)}; {time.perf_counter() - t:.0f} s",
            flush=True,
        )

    return show


def _main_lmtp(a: argparse.Namespace, kills: int) -> int:
    """The LMTP-intake soak on the real stack, game after game until ``kills`` kills."""
    t = time.perf_counter()
    total = Result()
    seed = a.seed
    with tempfile.TemporaryDirectory() as tmp, _stack(False) as stack:
        where = state_dir()
        if not getattr(stack, "relay_lmtp_port", 0) or where is None:
            print("LMTP soak skipped: the stack relays nothing to LMTP (MAILSTACK_RELAY_LMTP_PORT)")
            return 0
        deadline = time.monotonic() + 60 * a.minutes if a.minutes else float("inf")
        while total.kills < kills and time.monotonic() < deadline:
            folder = Path(tmp, f"game{seed}")
            folder.mkdir()
            total.add(
                run_lmtp(
                    kills - total.kills,
                    seed,
                    folder,
                    stack,  # type: ignore[arg-type]
                    mailstack_dir=where,
                    window_share=a.window_share,
                    span=a.span,
                    database_url=a.database_url,
                    deadline=deadline,
                )
            )
            print(
                f"  game {seed}: {total.kills} kills so far ({total.stored_unanswered} between "
                f"stored and 250), {total.moves} moves, {len(total.violations)} violations, "
                f"{time.perf_counter() - t:.0f} s",
                flush=True,
            )
            seed += 1
    print("crash injection (LMTP intake): " + total.lmtp_report(time.perf_counter() - t))
    for line in total.violations[:20]:
        print("  " + line)
    return 1 if total.violations else 0


if __name__ == "__main__":
    sys.exit(main())
