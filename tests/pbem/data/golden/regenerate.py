"""Regenerate the golden render files: ``python tests/pbem/data/golden/regenerate.py``.

Each ``NAME.ctx.json`` holds a render context with a stored ``engine.view``
taken from a fixed-seed random playout, so the golden test checks the
templates, not the engine. ``--keep-ctx`` re-renders the stored contexts
only (after a deliberate template change); without it the contexts are taken
afresh from the engine too. Review the diff before committing.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any

import engine
from pbem.reports.onetap import shortcuts
from pbem.reports.render import render

HERE = Path(__file__).parent


def _ctx(g: dict[str, Any], side: str, since: int, results: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "game_id": 12,
        "side": side,
        "view": engine.view(g, side),
        "since": since,
        "results": results,
        "error": None,
        "opponent": f"{'nixon' if side == 'kennedy' else 'kennedy'}@example.test",
        "reply_to": f"game+{side}.12.abcdef@example.test",
        "shortcuts": shortcuts(g, side),  # as the outbox adds them (pbem.outbox.queue)
        "edition": g["edition"],
        "options": list(g["options"]),
    }


def fresh_contexts() -> dict[str, dict[str, Any]]:
    rnd = random.Random(1960)
    g = engine.new_game(1960)
    for _ in range(40):
        side = rnd.choice(sorted(engine.active_sides(g)))
        g = engine.apply(g, side, rnd.choice(engine.legal_commands(g, side)))
    mover = sorted(engine.active_sides(g))[0]
    since = max(0, len(g["log"]) - 8)
    out = {
        f"report_{s}": _ctx(
            g, s, since, [{"line": "done", "ok": True, "message": ""}] if s == mover else []
        )
        for s in ("kennedy", "nixon")
    }
    while engine.active_sides(g):
        side = rnd.choice(sorted(engine.active_sides(g)))
        g = engine.apply(g, side, rnd.choice(engine.legal_commands(g, side)))
    out["game_over_kennedy"] = _ctx(g, "kennedy", len(g["log"]) - 6, [])
    return out


def stable_html(html: str) -> str:
    """The HTML with the map pictures' Content-IDs (hashes of their pixels) made constant: the
    picture has its own golden test (tests/pbem/test_boardmap.py)."""
    return re.sub(r"cid:board-((?:west|east)-)?[0-9a-f]+@", r"cid:board-\1@", html)


def main() -> None:
    if "--keep-ctx" in sys.argv:
        contexts = {
            p.name.removesuffix(".ctx.json"): json.loads(p.read_text(encoding="utf-8"))
            for p in HERE.glob("*.ctx.json")
        }
    else:
        contexts = fresh_contexts()
    for name, ctx in sorted(contexts.items()):
        kind = name.rsplit("_", 1)[0]
        mail = render(kind, ctx)
        (HERE / f"{name}.ctx.json").write_text(
            json.dumps(ctx, indent=1, sort_keys=True) + "\n", encoding="utf-8"
        )
        (HERE / f"{name}.subject").write_text(mail.subject + "\n", encoding="utf-8")
        (HERE / f"{name}.txt").write_text(mail.text, encoding="utf-8")
        (HERE / f"{name}.html").write_text(stable_html(mail.html), encoding="utf-8")
        print(f"wrote {name}: {mail.subject}")


if __name__ == "__main__":
    main()
