"""The map picture (`pbem.reports.boardmap`): golden render, colours that follow support, no hidden input.

The golden position is built by hand on a fresh game (support in every shade for both
sides, media, endorsements, issues, momentum, tokens), drawn and compared pixel by pixel
with ``data/golden/board_map.png`` within a small tolerance (anti-aliasing may differ a
little between resvg or Pillow versions; a moved tile or a wrong colour does not pass).
After a deliberate change: ``python tests/pbem/test_boardmap.py --regenerate`` (writes the
golden render).
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path
from typing import Any

import resvg_py
from PIL import Image

import engine
from pbem.reports import boardmap
from pbem.reports.boardmap import draw, layout
from pbem.reports.render import render
from tests.pbem import mailview

GOLDEN = Path(__file__).parent / "data" / "golden" / "board_map.png"
SUPPORT = {
    "NY": 4,
    "PA": -3,
    "CA": -2,
    "TX": 1,
    "RI": 2,
    "DE": -1,
    "MA": 3,
    "HI": -4,
    "AK": 2,
    "IL": -1,
    "OH": 5,
    "VT": -2,
}


def golden_state() -> dict[str, Any]:
    g = engine.new_game(42)
    for st in g["states"]:
        g["states"][st] = SUPPORT.get(st, 0)
    g["media"].update({"east": 2, "west": -1})
    g["endorsements"].update({"south": 1, "midwest": -1})
    g["issues"].update({"defense": -2, "economy": 1})
    g["momentum"].update({"kennedy": 3, "nixon": 1})
    g["token"].update({"kennedy": "NY", "nixon": "OH"})
    return g


def pixels(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as im:
        return im.convert("RGB")


def test_golden_render_of_a_set_position() -> None:
    png = boardmap.picture(engine.view(golden_state(), "kennedy")).png
    got, want = pixels(png), pixels(GOLDEN.read_bytes())
    assert got.size == want.size == (boardmap.WIDTH, draw.height())
    a, b = got.tobytes(), want.tobytes()
    diffs = [abs(x - y) for x, y in zip(a, b, strict=True)]
    far = sum(d > 64 for d in diffs)
    assert sum(diffs) / len(diffs) < 1.5, "the picture drifted from the golden render"
    assert far < len(diffs) * 0.003, f"{far} channel values differ a lot from the golden render"


def _tile_colour(img: Image.Image, st: str) -> tuple[int, int, int]:
    row, col = layout.GRID[st]
    x, y = draw.LEFT + col * draw.PITCH, draw.TOP + row * draw.PITCH
    px = img.getpixel((int(x + 6), int(y + 22)))  # left edge, between the code and the token
    assert isinstance(px, tuple)
    return px[0], px[1], px[2]


def _hex(c: str) -> tuple[int, int, int]:
    return int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)


def test_each_state_colour_follows_its_support_sign() -> None:
    g = golden_state()
    img = pixels(boardmap.picture(engine.view(g, "nixon")).png)
    shades = {
        (side, n): _hex(layout.fill(side, n)) for side in ("kennedy", "nixon") for n in (1, 2, 3, 4)
    }
    shades[(None, 0)] = _hex(layout.EMPTY)
    for st, v in g["states"].items():
        r, gr, b = _tile_colour(img, st)
        side = "kennedy" if v > 0 else "nixon" if v < 0 else None
        if side == "kennedy":
            assert b > r, f"{st} {v:+d}: expected blue, got {(r, gr, b)}"
        elif side == "nixon":
            assert r > b, f"{st} {v:+d}: expected red, got {(r, gr, b)}"
        else:
            assert max(r, gr, b) - min(r, gr, b) < 12, f"{st}: expected grey, got {(r, gr, b)}"
        nearest = min(
            shades,
            key=lambda k: sum((p - q) ** 2 for p, q in zip(shades[k], (r, gr, b), strict=True)),
        )
        assert nearest == (side, min(abs(v), 4) if side else 0), (st, v, nearest)


def test_colour_is_never_the_only_signal() -> None:
    svg = boardmap.svg(boardmap.from_view(engine.view(golden_state(), "kennedy")))
    for st, v in SUPPORT.items():
        letter = "K" if v > 0 else "N"
        assert f">{letter}{abs(v)}</text>" in svg, st  # the letter and count are written
    assert ">K</text>" in svg and ">N</text>" in svg  # token markers carry letters


def test_the_picture_is_drawn_from_public_keys_only() -> None:
    """R17: the picture's inputs are the public keys of the view; hidden facts change nothing."""
    g = mailview.position(9, 60)
    view = engine.view(g, "kennedy")

    class Guarded(dict):  # type: ignore[type-arg]
        def __getitem__(self, key: str) -> Any:
            assert key in boardmap.PUBLIC_KEYS, f"the picture read {key!r}"
            return super().__getitem__(key)

    pic = boardmap.picture(Guarded(view))
    assert not {"hand", "stack", "revealed", "debate", "log", "hand_cp"} & set(boardmap.PUBLIC_KEYS)
    # both seats' views give the same picture; so does a game whose hidden cards differ
    assert boardmap.picture(engine.view(g, "nixon")).png == pic.png
    other = engine.from_json(engine.to_json(g))
    other["hands"]["kennedy"], other["hands"]["nixon"] = (
        other["hands"]["nixon"],
        other["hands"]["kennedy"],
    )
    other["deck"].reverse()
    assert boardmap.picture(engine.view(other, "kennedy")).png == pic.png
    # and a public change does change it
    other["states"]["NY"] = 5 if other["states"]["NY"] <= 0 else -5
    assert boardmap.picture(engine.view(other, "kennedy")).png != pic.png


def test_reports_carry_the_picture_with_alt_text() -> None:
    g = mailview.position(11, 40)
    mails = [render("report", mailview.context(g, side)) for side in ("kennedy", "nixon")]
    for mail in mails:
        west, east = mail.images  # the map's two halves (boardmap.halves)
        for pic in (west, east):
            assert pic.png.startswith(b"\x89PNG") and len(pic.png) < 40_000
            assert f'src="cid:{pic.cid}"' in mail.html
        assert 'alt="Map of the board, turn' in mail.html
    assert [p.cid for p in mails[0].images] == [p.cid for p in mails[1].images]
    assert render("help", {"game_id": 1, "side": "kennedy"}).images == ()


def test_the_halves_are_the_picture_cut_in_two_and_nothing_written_crosses_the_cut() -> None:
    """Side by side the halves give the whole picture's pixels; the columns either side of the
    cut hold only white, the grid's region edges and panel frames (no text, bar or box)."""
    pic = boardmap.picture(engine.view(golden_state(), "kennedy"))
    west, east = boardmap.halves(pic)
    whole = pixels(pic.png)
    assert (west.width, east.width) == (draw.HALF, boardmap.WIDTH - draw.HALF)
    joined = Image.new("RGB", whole.size)
    joined.paste(pixels(west.png), (0, 0))
    joined.paste(pixels(east.png), (draw.HALF, 0))
    assert joined.tobytes() == whole.tobytes()

    def dark(x: int, y: int) -> bool:
        return sum(whole.getpixel((x, y))) < 3 * 200

    for x in (draw.HALF - 1, draw.HALF):
        for a, b in _runs([y for y in range(whole.size[1]) if dark(x, y)]):
            vertical = b - a > 20  # a region edge along the cut
            horizontal = b - a <= 3 and all(
                dark(x + dx, y) or dark(x + dx, y + 1) for y in (a,) for dx in range(-6, 7)
            )  # a region edge across it
            assert vertical or horizontal, f"something written crosses the cut at x={x}, y={a}-{b}"


def _runs(ys: list[int]) -> list[tuple[int, int]]:
    """Consecutive runs of ``ys`` as (first, last): long ones are vertical lines."""
    out: list[tuple[int, int]] = []
    for y in ys:
        if out and y == out[-1][1] + 1:
            out[-1] = (out[-1][0], y)
        else:
            out.append((y, y))
    return out


def test_the_256_colour_picture_keeps_every_colour_close() -> None:
    """The PNG is written with 256 colours: no pixel of a seeded board lands more than a few
    levels (of 255) from the colour resvg drew."""
    for board in _positions(4, 60, 300):
        true = pixels(bytes(resvg_py.svg_to_bytes(svg_string=boardmap.svg(board), **FONTS)))
        shown = pixels(boardmap.png(board))
        diffs = [abs(a - b) for a, b in zip(true.tobytes(), shown.tobytes(), strict=True)]
        assert sum(diffs) / len(diffs) < 4 and max(diffs) < 24, (board.turn, max(diffs))


FONTS: dict[str, Any] = {
    "skip_system_fonts": True,
    "font_files": [str(p) for p in sorted(boardmap.FONT_DIR.glob("*.ttf"))],
    "font_family": "DejaVu Sans Condensed",
    "sans_serif_family": "DejaVu Sans Condensed",
}


def _positions(seed: int, every: int, moves: int = 320) -> list[boardmap.MapBoard]:
    g = engine.new_game(seed)
    rnd = random.Random(seed)
    out = [_board(g)]
    for i in range(moves):
        if not engine.active_sides(g):
            break
        side = rnd.choice(sorted(engine.active_sides(g)))
        engine.apply_in_place(g, side, rnd.choice(engine.legal_commands(g, side)))
        if i % every == every - 1:
            out.append(_board(g))
    return out


def test_the_board_counts_the_electoral_votes_each_side_carries() -> None:
    """`from_view`'s totals, overall and per region, are the sums of the states' votes."""
    for board in _positions(6, 30):
        for side, total in (("kennedy", board.ev_kennedy), ("nixon", board.ev_nixon)):
            assert total == sum(t.ev for t in board.states if t.side == side)
        for r in board.regions:
            mine = [t for t in board.states if t.region == r.region]
            assert r.ev_total == sum(t.ev for t in mine) > 0
            assert r.ev_kennedy == sum(t.ev for t in mine if t.side == "kennedy")
            assert r.ev_nixon == sum(t.ev for t in mine if t.side == "nixon")
        assert all((t.side is None) == (t.cubes == 0) for t in board.states)
        assert board.ev_total == 537 and len(board.states) == 50


def _board(g: Any) -> boardmap.MapBoard:
    return boardmap.from_view(engine.view(g, "kennedy"))


def regenerate() -> None:
    GOLDEN.write_bytes(boardmap.picture(engine.view(golden_state(), "kennedy")).png)
    print(f"wrote {GOLDEN}")


if __name__ == "__main__" and "--regenerate" in sys.argv:
    regenerate()
