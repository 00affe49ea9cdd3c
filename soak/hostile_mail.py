"""Hostile mail: thousands of generated mails (hypothesis) plus the real-client corpus, fed to
`process_message` against a live game, with invariants checked after every one.

    python soak/hostile_mail.py [--cases 10000] [--seed 1]

Each case is one mail from a *stranger*, a *forger* (a valid reply key, someone else's From)
or the *player* (valid key, registered From), with generated headers (raw UTF-8, NUL and
control bytes, Message-IDs up to 2,000 characters, forged Authentication-Results, lying
charsets, MIME multipart nesting) and a generated body (text, commands, nested HTML up to
3,000 levels). Invariants:

* `process_message` never raises and never quarantines (a quarantine is a crash);
* no game changes unless the outcome is ``applied`` (only the player can get there);
* strangers and forgers get no mail at all; the player gets an answer to every mail that is
  not an auto-reply, a bounce-looking mail or oversized.

It prints the count of cases, outcomes, escaped exceptions and violations; the exit status is
1 if any invariant broke. ``tests/pbem/test_hostile_mail.py`` runs the same check at a smoke size.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from sqlmodel import Session, col, func, select

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pbem import keys  # noqa: E402
from pbem.outbox.queue import current_key  # noqa: E402
from pbem.pipeline.runner import process_message  # noqa: E402
from pbem.store.models import Game, OutboxMessage, Seat, utcnow  # noqa: E402
from tests.pbem.harness import EMAILS, Harness  # noqa: E402

CORPUS = ROOT.parent.parent / "shared" / "mail-corpus"
AUTO = (
    b"auto-submitted",
    b"precedence",
    b"list-id",
    b"x-autoreply",
    b"multipart/report",
    b"return-path: <>",
    b"mailer-daemon",
)


@dataclass
class Tally:
    """What the run saw."""

    cases: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    escaped: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)

    def report(self, seconds: float) -> str:
        return (
            f"cases {self.cases}; outcomes "
            + ", ".join(f"{k} {v}" for k, v in sorted(self.outcomes.items()))
            + f"; escaped exceptions {len(self.escaped)}; violations {len(self.violations)}; "
            f"{seconds:.1f} s ({self.cases / max(seconds, 1e-9):.0f} mails/s)"
        )


# --- the generated mail ----------------------------------------------------------------------

NASTY = st.sampled_from(
    [
        "\x00",
        "\x01",
        "\x7f",
        "\u200b",
        "\ufeff",
        "\r",
        "ü",
        "鍵",
        "𝔘",
        "\\",
        '"',
        "<",
        ">",
        "@",
        ";",
        "=?utf-8?b?AA==?=",
        " ",
        "\t",
    ]
)
TEXT = st.lists(st.one_of(st.characters(blacklist_categories=["Cs"]), NASTY), max_size=40).map(
    "".join
)


def _msgid() -> st.SearchStrategy[str]:
    return st.one_of(
        st.just(""),
        st.builds(
            lambda t: f"<{t}@client.test>", st.text("abcdef0123456789.", min_size=1, max_size=40)
        ),
        st.builds(lambda n: "<" + "x" * n + "@long.test>", st.integers(200, 2000)),
        st.builds(lambda t: f"<{t}@nasty.test>", TEXT),
        TEXT,
    )


def _html_body() -> st.SearchStrategy[str]:
    return st.one_of(
        st.builds(
            lambda tag, k, t: f"<{tag}>" * k + t + f"</{tag}>" * k,
            st.sampled_from(["div", "blockquote", "span", "p", 'div class="gmail_quote"', "pre"]),
            st.integers(1, 3000),
            TEXT,
        ),
        st.builds(lambda k, t: "<div>a<b>b</b><br>" * k + t, st.integers(1, 2000), TEXT),
        st.builds(
            lambda t: f"<html><head><style>{t}</style></head><body><!-- {t} -->{t}</body>", TEXT
        ),
        TEXT,
    )


@st.composite
def mails(draw: st.DrawFn, legal: list[str]) -> tuple[str, dict[str, str], str, str | None, bytes]:
    """(sender kind, headers, body, html body or None, extra raw header bytes)."""
    kind = draw(st.sampled_from(["stranger", "forger", "player"]))
    headers = {"Subject": draw(TEXT), "Message-ID": draw(_msgid())}
    if draw(st.booleans()):
        headers["Authentication-Results"] = draw(
            st.one_of(
                TEXT,
                st.builds(
                    lambda s, r: f"{s}; dmarc={r} header.from=players.test",
                    st.sampled_from(["mx.pbem.test", "evil.test", ""]),
                    st.sampled_from(["pass", "fail", "none", "temperror"]),
                ),
            )
        )
    if draw(st.integers(0, 9)) == 0:
        headers[
            draw(st.sampled_from(["Auto-Submitted", "Precedence", "List-Id", "X-Autoreply"]))
        ] = draw(TEXT) or "auto-replied"
    body = draw(
        st.one_of(
            TEXT,
            st.sampled_from([*legal, "help", "status", "pass", "event 99"]),
            st.lists(st.sampled_from([*legal, "help", "garbage line"]), max_size=5).map("\n".join),
        )
    )
    html = draw(st.one_of(st.none(), _html_body()))
    extra = draw(
        st.one_of(
            st.just(b""),
            st.binary(max_size=80).map(lambda b: b"X-Junk: " + b.replace(b"\n", b" ") + b"\r\n"),
            st.sampled_from(
                [
                    b"Content-Type: text/plain; charset=x-unknown-42\r\n",
                    b"From: second@from.test\r\n",
                    b'Content-Type: multipart/mixed; boundary=""\r\n',
                    "From: Jürgen <jürgen@spieler.test>\r\n".encode(),
                ]
            ),
        )
    )
    return kind, headers, body, html, extra


def build_raw(
    h: Harness,
    kind: str,
    headers: dict[str, str],
    body: str,
    html: str | None,
    extra: bytes,
    side: str,
) -> bytes:
    """The bytes of one case's mail, addressed as ``kind`` would address it."""
    with Session(h.db) as s:
        seat = s.exec(select(Seat).where(Seat.game_id == h.game_id, Seat.side == side)).one()
        to = keys.reply_address(h.settings.address, current_key(h.settings, seat))
    frm = {
        "stranger": "someone@elsewhere.test",
        "forger": "mallory@evil.test",
        "player": EMAILS[side],
    }[kind]
    if kind == "stranger":
        to = h.settings.address
    lines = [f"From: {frm}", f"To: {to}"]
    for k, v in headers.items():
        lines.append(f"{k}: {v}")
    head = "\r\n".join(lines).encode("utf-8", "surrogatepass") + b"\r\n" + extra
    if html is not None:
        boundary = b"b0undary"
        parts = (
            b"--"
            + boundary
            + b"\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
            + html.encode("utf-8", "surrogatepass")
            + b"\r\n--"
            + boundary
            + b"--\r\n"
        )
        if body:
            parts = (
                b"--"
                + boundary
                + b"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
                + body.encode("utf-8", "surrogatepass")
                + b"\r\n"
                + parts
            )
        return (
            head
            + b"MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary="
            + boundary
            + b"\r\n\r\n"
            + parts
        )
    return (
        head
        + b"Content-Type: text/plain; charset=utf-8\r\n\r\n"
        + body.encode("utf-8", "surrogatepass")
    )


# --- the check -----------------------------------------------------------------------------------


class Check:
    """One harness (SQLite, a game in progress) and the invariants after each mail."""

    def __init__(self, folder: Path) -> None:
        self.h = Harness(folder)
        self.h.settings = self.h.settings.with_(authserv_id="mx.pbem.test")
        self.h.new_game(seed=11)
        self.tally = Tally()
        self.now = utcnow()

    def snapshots(self) -> dict[int, str]:
        with Session(self.h.db) as s:
            return {g.id or 0: g.snapshot for g in s.exec(select(Game))}

    def mail_count(self, to: str | None = None) -> int:
        with Session(self.h.db) as s:
            stmt = select(func.count()).select_from(OutboxMessage)
            if to is not None:
                stmt = stmt.where(col(OutboxMessage.recipient) == to)
            return int(s.exec(stmt).one())

    def feed(self, raw: bytes, kind: str, side: str) -> None:
        self.tally.cases += 1
        self.now += timedelta(hours=2)  # clear of the error-reply rate limit
        before, mails, to_player = (
            self.snapshots(),
            self.mail_count(),
            self.mail_count(EMAILS[side]),
        )
        try:
            out = process_message(self.h.db, self.h.settings, raw, now=self.now)
        except BaseException as exc:  # the invariant under test: this never happens
            self.tally.escaped.append(f"{type(exc).__name__}: {exc}"[:300])
            return
        self.tally.outcomes[out.outcome] += 1
        bad = self.tally.violations
        if out.outcome == "quarantined":
            bad.append(f"quarantined ({kind}): {out.reason}")
        if out.outcome != "applied" and self.snapshots() != before:
            bad.append(f"game changed without an applied move ({kind}, {out.outcome})")
        if kind != "player" and self.mail_count() != mails:
            bad.append(f"a {kind} got mail ({out.outcome}: {out.reason})")
        low = raw.lower()
        answerable = (
            kind == "player"
            and len(raw) <= self.h.settings.max_bytes
            and not any(a in low for a in AUTO)
            and b"from: second@" not in low
            and "jürgen".encode() not in raw
            and out.outcome != "duplicate"
        )
        if answerable and self.mail_count(EMAILS[side]) == to_player and out.outcome != "held":
            bad.append(f"the player got no answer ({out.outcome}: {out.reason})")

    def active_side(self) -> str:
        import engine

        return sorted(engine.active_sides(self.h.state()))[0]


def run(cases: int, seed_value: int, folder: Path, corpus: bool = True) -> Tally:
    check = Check(folder)
    legal = check.h.legal(check.active_side())

    @seed(seed_value)
    @settings(
        max_examples=cases,
        deadline=None,
        database=None,
        derandomize=False,
        suppress_health_check=list(HealthCheck),
    )
    @given(mails(legal))
    def one(case: tuple[str, dict[str, str], str, str | None, bytes]) -> None:
        kind, headers, body, html, extra = case
        side = check.active_side()
        check.feed(build_raw(check.h, kind, headers, body, html, extra, side), kind, side)

    one()
    if corpus and CORPUS.is_dir():
        for path in sorted(CORPUS.rglob("*")):
            if path.is_file() and path.suffix in ("", ".txt", ".eml"):
                check.feed(path.read_bytes(), "stranger", check.active_side())
    return check.tally


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    t = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        tally = run(a.cases, a.seed, Path(folder))
    print("hostile mail: " + tally.report(time.perf_counter() - t))
    for line in (tally.escaped + tally.violations)[:20]:
        print("  " + line)
    return 1 if tally.escaped or tally.violations else 0


if __name__ == "__main__":
    sys.exit(main())
