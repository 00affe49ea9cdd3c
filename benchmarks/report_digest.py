"""A digest of every mail `pbem.reports.render` makes for seeded random games played to the end.

    python benchmarks/report_digest.py [--games 6] [--out FILE]

Not a timing: a check that a change for speed leaves every byte of the mails as it was. For
each game (both editions, random legal commands, seeded), after every move both seats' mails
are rendered: the report with the decision summary and orders block `pbem.games.notify` adds (every
other move with the map picture), and now and then a rejected, status and welcome mail; at
the end the game-over mail (its attached log) and the history. Printed (or written to
``--out``): one SHA-256 per mail over its subject, text, HTML, picture ids and attachments,
and one over all. Run it on two checkouts and compare the outputs (``cmp``); with
``benchmarks/report_stage.py --digest`` (the outbox rows of the real pipeline) this is the
proof for issue 14's rendering changes (benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from pbem.reports import summary
from pbem.reports.render import Rendered, render


def digest(mail: Rendered) -> str:
    h = hashlib.sha256()
    for part in (mail.subject, mail.text, mail.html):
        h.update(part.encode() + b"\0")
    for pic in mail.images:
        h.update(f"{pic.cid} {pic.alt} {pic.width} {pic.height}\0".encode())
    for a in mail.attachments:
        h.update(a.filename.encode() + b"\0" + a.data + b"\0")
    return h.hexdigest()


def ctx(g: engine.GameState, side: str, i: int, **kw: Any) -> dict[str, Any]:
    v = engine.view(g, side)
    return {
        "game_id": 7,
        "side": side,
        "view": v,
        "since": max(0, len(v["log"]) - 1 - i % 12),
        "results": [{"line": "support CA", "ok": True, "message": "applied"}] if i % 3 == 0 else [],
        "error": None,
        "ignored": ["thanks!"] if i % 5 == 0 else [],
        "opponent": "other@players.test",
        "reply_to": f"game+7{side[0]}{i}@pbem.test",
        "picture": i % 2 == 0,
        **kw,
    }


def extra(g: engine.GameState, side: str, i: int, before: str) -> dict[str, Any]:
    decision = side in engine.active_sides(g)
    return summary.build(
        g,
        side,
        since=max(0, len(g["log"]) - 1 - i % 20),
        decision=decision,
        before_board=before,
        notify=("decisions", "every", "digest")[i % 3],
        digest_hour=i % 24,
        standing=["media default"] if i % 4 else [],
        standing_default=i % 4 == 0,
        queue=["pass"] if i % 7 == 0 else [],
        notes=["Applied for you: pass"] if i % 6 == 0 else [],
        answers=[{"line": "notify every", "ok": True, "message": "ok"}] if i % 9 == 0 else [],
    )


def game(seed: int, edition: str) -> list[str]:
    rnd = random.Random(seed)
    g = engine.new_game(seed, edition=edition)
    out: list[str] = []
    before = {s: json.dumps(engine.public_board(g), separators=(",", ":")) for s in engine.SIDES}
    for side in engine.SIDES:
        out.append(digest(render("welcome", ctx(g, side, 0))))
    i = 0
    while engine.active_sides(g):
        mover = rnd.choice(sorted(engine.active_sides(g)))
        engine.apply_in_place(g, mover, rnd.choice(engine.legal_commands(g, mover)))
        i += 1
        for side in engine.SIDES:
            c = ctx(g, side, i, extra=extra(g, side, i, before[side]))
            out.append(digest(render("report", c)))
            if i % 25 == 0:
                out.append(digest(render("rejected", {**c, "error": "no such command: x"})))
                out.append(digest(render("status", c)))
        if i % 10 == 0:
            before[mover] = json.dumps(engine.public_board(g), separators=(",", ":"))
    for side in engine.SIDES:
        out.append(digest(render("game_over", ctx(g, side, i))))
        out.append(digest(render("history", ctx(g, side, i))))
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--out", type=Path)
    a = ap.parse_args(argv)
    lines = []
    for n in range(a.games):
        lines += [f"{d} game {n}" for d in game(100 + n, engine.EDITIONS[n % 2])]
    total = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    text = "\n".join([*lines, f"{total} all {len(lines)} mails"]) + "\n"
    if a.out:
        a.out.write_text(text)
    print(f"{total} all {len(lines)} mails")


if __name__ == "__main__":
    main()
