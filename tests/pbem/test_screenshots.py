"""The HTML report in a real browser: headless Chromium at phone and desktop width.

Each mail is built as sent (MIME bytes), opened as a mail client does (`mailview.open_html`:
``cid:`` pictures resolved from the ``multipart/related`` part) and loaded in Chromium with
a 390 px and a 1200 px viewport. The page must not scroll sideways and the map picture (its
two halves) must have loaded: side by side on a desktop, one above the other at 1:1 on a
phone. An action decision, a trigger question and Election Day each show "Your move" and the
first one-tap answers within the phone's first screen (800 px). Screenshots go to
``artifacts/screenshots/`` (CI keeps that folder).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
from pbem.reports.render import render
from tests.pbem import mailview
from tests.pbem.browser import Browser, chromium_path

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
CHECK = """JSON.stringify({
  client: document.documentElement.clientWidth,
  scroll: document.documentElement.scrollWidth,
  images: Array.from(document.images).map(i => ({src: i.getAttribute('src'), complete: i.complete,
          natural: i.naturalWidth, shown: Math.round(i.getBoundingClientRect().width),
          top: Math.round(i.getBoundingClientRect().top + window.scrollY)})),
  move: (Array.from(document.querySelectorAll('h2')).filter(e => e.textContent.trim() === 'Your move')
         .map(e => Math.round(e.getBoundingClientRect().top + window.scrollY)))[0] ?? null,
  taps: Array.from(document.querySelectorAll('a[href^="mailto:"]')).slice(0, 3)
         .map(a => Math.round(a.getBoundingClientRect().bottom + window.scrollY))
})"""
FIRST_SCREEN = 800  # px of a phone's screen


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    binary = chromium_path()
    if binary is None:
        pytest.skip("no chromium (scripts/test.sh installs Debian's package as root)")
    b = Browser(binary)
    try:
        yield b
    finally:
        b.close()


def _look(browser: Browser, html: Path, width: int, shot: str) -> dict[str, object]:
    out = browser.page(html, width, CHECK, SHOTS / f"{shot}-{width}.png")
    assert isinstance(out, str)
    return dict(json.loads(out))


def _mails(tmp: Path) -> dict[str, Path]:
    g = mailview.position(5, 120)
    mover = sorted(engine.active_sides(g))[0]
    debate = mailview.position(3, 10_000)  # a whole game: the game-over report
    mails = {
        "report": mailview.build_report_mail("report", g, mover, since=max(0, len(g["log"]) - 12)),
        "status": mailview.build_report_mail(
            "status", g, "nixon" if mover == "kennedy" else "kennedy"
        ),
        "game_over": mailview.build_report_mail(
            "game_over", debate, "kennedy", since=max(0, len(debate["log"]) - 20)
        ),
    }
    mails["help"] = mailview.mail_bytes(render("help", mailview.context(g, mover)))
    mails["card"] = mailview.mail_bytes(render("card", mailview.context(g, mover, card=1)))
    mails["history"] = mailview.mail_bytes(render("history", mailview.context(g, mover)))
    return {name: mailview.open_html(raw, tmp, name) for name, raw in mails.items()}


WITH_MAP = ("report", "status", "game_over")


@pytest.mark.timeout(300)
def test_reports_fit_a_phone_and_a_desktop_with_the_map_loaded(
    browser: Browser, tmp_path: Path
) -> None:
    for name, html in _mails(tmp_path).items():
        for width in (390, 1200):
            got = _look(browser, html, width, name)
            assert got["client"] == width, got
            assert got["scroll"] <= width, f"{name} at {width} px scrolls sideways: {got}"
            images = got["images"]
            assert isinstance(images, list)
            assert len(images) == (2 if name in WITH_MAP else 0), f"{name}: pictures {images}"
            for img in images:
                assert img["complete"] and img["natural"] == 300, (
                    f"{name}: picture not loaded {img}"
                )
                assert img["shown"] == 300  # 1:1 on the phone and on the desktop
            if images:  # the halves: one row on the desktop, one above the other on the phone
                same_row = images[0]["top"] == images[1]["top"]
                assert same_row == (width == 1200), f"{name} at {width} px: {images}"
    assert (SHOTS / "report-390.png").stat().st_size > 10_000


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("step", "seed"), [("action", 5), ("trigger", 5), ("election_card", 5)])
def test_your_move_and_the_first_one_tap_answers_are_on_the_first_phone_screen(
    browser: Browser, tmp_path: Path, step: str, seed: int
) -> None:
    g = _at_step(seed, step)
    side = sorted(engine.active_sides(g))[0]
    raw = mailview.build_report_mail("report", g, side, since=max(0, len(g["log"]) - 12))
    html = mailview.open_html(raw, tmp_path, step)
    for width in (390, 1200):
        got = _look(browser, html, width, f"onetap-{step}")
        assert got["scroll"] <= width, f"{step} at {width} px scrolls sideways: {got}"
        move, taps = got["move"], got["taps"]
        assert isinstance(move, int) and isinstance(taps, list) and len(taps) >= 2, got
        assert move < taps[0] and max(taps[:2]) <= FIRST_SCREEN, f"{step} at {width} px: {got}"


def _at_step(seed: int, step: str) -> dict[str, object]:
    """A seeded random game played on to the first ``step`` decision after turn 1."""
    rnd = random.Random(seed)
    g = engine.new_game(seed)
    while engine.active_sides(g):
        side = sorted(engine.active_sides(g))[0]
        if g["stack"][-1]["step"] == step and g["turn"] > 1:
            return g
        engine.apply_in_place(g, side, rnd.choice(engine.legal_commands(g, side)))
    raise AssertionError(f"no {step} decision in game {seed}")


def test_the_check_sees_overflow_and_a_missing_picture(browser: Browser, tmp_path: Path) -> None:
    """The assertions above can fail: a too-wide page and a broken image are caught."""
    page = tmp_path / "bad.html"
    page.write_text(
        '<!DOCTYPE html><html lang="en"><head><meta name="viewport" '
        'content="width=device-width, initial-scale=1"></head><body>'
        '<img src="cid:missing@x" alt="x"><table style="width:800px"><tr><td>wide'
        "</td></tr></table></body></html>",
        encoding="utf-8",
    )
    got = _look(browser, page, 390, "negative-control")
    assert got["scroll"] > 390
    assert got["images"][0]["natural"] == 0  # type: ignore[index]
