"""Mail size budget over whole seeded games, for every kind of mail a player gets.

Gmail clips an HTML body past about 102 KB, and a report should stay light on a phone:
the HTML part must stay under 100 KB and the whole mail, map picture included, under
300 KB. Every position of two whole seeded games (both editions) is rendered for both
seats as each kind and built into its MIME bytes as sent; the log section covers all
that happened since the seat last had to act (the longest it gets in play). Drawing the
map for every position would dominate the run, so every 10th position is built whole and
the others without the picture; the largest picture seen is added to those as a bound.
"""

from __future__ import annotations

import random

import pytest

import engine
from pbem.reports.render import KINDS, render
from tests.pbem import mailview

HTML_BUDGET = 100_000
MAIL_BUDGET = 300_000


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize(("seed", "edition"), [(31, "zman"), (32, "gmt")])
def test_every_kind_of_mail_stays_within_the_size_budget(seed: int, edition: str) -> None:
    rnd = random.Random(seed)
    g = engine.new_game(seed, edition=edition)
    since = dict.fromkeys(engine.SIDES, 0)
    largest: dict[str, tuple[int, int]] = {}
    kinds_seen: set[str] = set()
    picture = 0  # the most bytes a picture added to a mail so far
    step = 0
    while True:
        over = engine.result(g) is not None
        for side in engine.SIDES:
            kinds = ["welcome", "help"] if step == 0 else ["game_over"] if over else ["report"]
            if step % 25 == 0 or over:  # the other kinds share the report's parts: sample them
                kinds += ["status", "rejected", "key_problem", "card", "history", "notice", "held"]
                kinds += ["receipt"]
            whole = step % 10 == 0 or over
            for kind in kinds:
                ctx = mailview.context(
                    g,
                    side,
                    since[side],
                    error="line 1: 'zz' is not a state"
                    if kind in ("rejected", "key_problem", "held")
                    else None,
                    card=1 + step % 91,
                )
                if kind == "receipt":  # pbem.games.receipts
                    ctx = {
                        **ctx,
                        "results": [{"line": "support OH", "ok": True, "message": "ok"}],
                        "extra": {"receipt": {"done": [], "on_move": "Nixon", "next": "soon"}},
                    }
                if kind == "notice":  # the largest notice: a full report (autopilot, seat change)
                    ctx = {
                        **ctx,
                        "notice": {
                            "subject": "Autopilot played for you",
                            "full": True,
                            "lines": ["Your clock and grace ran out."],
                        },
                    }
                mail = render(kind, {**ctx, "picture": whole})
                html, raw = len(mail.html.encode("utf-8")), len(mailview.mail_bytes(mail))
                if mail.images:
                    picture = max(
                        picture,
                        raw
                        - len(mailview.mail_bytes(render(kind, {**ctx, "picture": False})))
                        + 200,
                    )
                elif not whole and kind not in ("help", "key_problem", "card", "history"):
                    raw += picture  # the largest picture so far (+ its part headers), as a bound
                assert html < HTML_BUDGET, f"{kind} for {side} at step {step}: HTML {html} bytes"
                assert raw < MAIL_BUDGET, f"{kind} for {side} at step {step}: mail {raw} bytes"
                kinds_seen.add(kind)
                largest[kind] = max(largest.get(kind, (0, 0)), (raw, html))
            if side in engine.active_sides(g):
                since[side] = len(g["log"])
        if over:
            break
        side = rnd.choice(sorted(engine.active_sides(g)))
        engine.apply_in_place(g, side, rnd.choice(engine.legal_commands(g, side)))
        step += 1
    assert kinds_seen == set(KINDS)
    assert 10_000 < picture < 80_000  # the pictures were really measured
    print(picture, {k: v for k, v in sorted(largest.items())})
