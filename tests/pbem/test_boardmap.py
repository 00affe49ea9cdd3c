"""The map picture (`pbem.reports.boardmap`): golden render, colours that follow support, no hidden input.

The golden position is built by hand on a fresh game (support in every shade for both
sides, media, endorsements, issues, momentum, tokens), drawn and compared pixel by pixel
with ``data/golden/board_map.png`` within a small tolerance (anti-aliasing may differ a
little between resvg or Pillow versions; a moved tile or a wrong colour does not pass).
After a deliberate change: ``python tests/pbem/test_boardmap.py --regenerate`` (writes the
palette, then the golden render).
"""

from __future__ import annotations

import io
import random
import re
import sys
from pathlib import Path
from typing import Any

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


def test_reports_carry_the_picture_with_alt_text_and_it_is_drawn_once_per_board() -> None:
    g = mailview.position(11, 40)
    before = boardmap.board_halves.cache_info()
    mails = [render("report", mailview.context(g, side)) for side in ("kennedy", "nixon")]
    after = boardmap.board_halves.cache_info()
    assert after.misses - before.misses <= 1  # the second seat's report is a cache hit
    assert after.hits - before.hits >= 1
    for mail in mails:
        west, east = mail.images  # the map's two halves (boardmap.report_pictures)
        for pic in (west, east):
            assert pic.png.startswith(b"\x89PNG") and len(pic.png) < 40_000
            assert f'src="cid:{pic.cid}"' in mail.html
        assert 'alt="Map of the board, turn' in mail.html
    assert [p.cid for p in mails[0].images] == [p.cid for p in mails[1].images]


def test_the_halves_are_the_picture_cut_in_two_and_nothing_written_crosses_the_cut() -> None:
    """Side by side the halves give the whole picture's pixels; the columns either side of the
    cut hold only white, the grid's region edges and panel frames (no text, bar or box)."""
    view = engine.view(golden_state(), "kennedy")
    pic = boardmap.picture(view)
    west, east = boardmap.report_pictures(view)
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
    assert render("help", {"game_id": 1, "side": "kennedy"}).images == ()


def test_pasted_pieces_give_the_pixels_of_the_whole_document() -> None:
    """The picture is the constant layer with each piece's cached pixels pasted on; for
    positions along seeded games (pieces reused from earlier positions, changed ones drawn
    anew) it is byte for byte the whole SVG drawn in one pass."""
    checked = 0
    for seed in (3, 8):
        g = engine.new_game(seed)
        rnd = random.Random(seed)
        for i in range(320):
            if not engine.active_sides(g):
                break
            side = rnd.choice(sorted(engine.active_sides(g)))
            engine.apply_in_place(g, side, rnd.choice(engine.legal_commands(g, side)))
            if i % 53 == 0:
                board = boardmap.from_view(engine.view(g, "nixon"))
                assert boardmap.png(board) == boardmap.render_whole(board), (seed, i)
                checked += 1
    golden = boardmap.from_view(engine.view(golden_state(), "kennedy"))
    assert boardmap.png(golden) == boardmap.render_whole(golden)
    assert checked >= 8


def test_every_piece_box_lies_on_the_canvas_and_no_two_overlap() -> None:
    """A piece's box must hold nothing but the piece (pasting it replaces those pixels)."""
    board = boardmap.from_view(engine.view(golden_state(), "kennedy"))
    boxes = [p.box for p in draw.layers(board).pieces]
    assert len(boxes) == 3 + len(board.states) + 3 * 4 + 3 + 2
    for i, (x, y, w, h) in enumerate(boxes):
        assert x >= 0 and y >= 0 and x + w <= boardmap.WIDTH and y + h <= draw.height()
        for x2, y2, w2, h2 in boxes[i + 1 :]:
            assert x + w <= x2 or x2 + w2 <= x or y + h <= y2 or y2 + h2 <= y, (
                (x, y, w, h),
                (x2, y2, w2, h2),
            )


def test_the_shipped_palette_keeps_every_colour_close() -> None:
    """Pictures are mapped to one shipped palette (``palette.bin``): every colour the drawing
    names is in it exactly, and no pixel of a seeded board lands far from its true colour (a
    colour added to `layout` without writing the palette again fails here)."""
    named = {c.lower() for c in re.findall(r"#[0-9a-fA-F]{6}", draw.svg(_board(golden_state())))}
    entries = boardmap.PALETTE_FILE.read_bytes()
    have = {"#" + entries[i : i + 3].hex() for i in range(0, len(entries), 3)}
    assert named <= have, f"not in palette.bin: {sorted(named - have)}"
    g = engine.new_game(4)
    rnd = random.Random(4)
    for i in range(300):
        if not engine.active_sides(g):
            break
        side = rnd.choice(sorted(engine.active_sides(g)))
        engine.apply_in_place(g, side, rnd.choice(engine.legal_commands(g, side)))
        if i % 60 == 59:
            true = boardmap.compose(_board(g))
            shown = pixels(boardmap.png(_board(g)))
            diffs = [abs(a - b) for a, b in zip(true.tobytes(), shown.tobytes(), strict=True)]
            assert sum(diffs) / len(diffs) < 2 and max(diffs) < 48, (i, max(diffs))


def test_a_picture_is_served_from_the_cache_by_its_public_values() -> None:
    """`picture` finds a board drawn for the other seat by the view's public values; a view
    whose public values differ gets its own picture."""
    g = mailview.position(12, 50)
    first = boardmap.picture(engine.view(g, "kennedy"))
    before = boardmap.board_picture.cache_info()
    assert boardmap.picture(engine.view(g, "nixon")) is first
    assert boardmap.board_picture.cache_info().hits == before.hits + 1
    assert boardmap.board_picture.cache_info().misses == before.misses
    g["momentum"]["kennedy"] += 1
    other = boardmap.picture(engine.view(g, "nixon"))
    assert other.png != first.png
    assert other.png == boardmap.render_whole(_board(g))


def test_a_board_comes_back_from_the_cache_after_the_boards_of_forty_other_games() -> None:
    """A poll interleaves the games' reports: a game's board that shows again (its next
    report, the other seat's) after one board of each of 40 other games is not drawn again
    (benchmark 2 has 40 games)."""
    boardmap.board_picture.cache_clear()
    g = mailview.position(12, 50)
    first = boardmap.picture(engine.view(g, "kennedy"))
    boards = {boardmap.from_view(engine.view(g, "kennedy"))}
    for seed in range(100, 140):  # one board of each of 40 other games
        view = engine.view(mailview.position(seed, 30), "nixon")
        boardmap.picture(view)
        boards.add(boardmap.from_view(view))
    assert len(boards) == 41
    before = boardmap.board_picture.cache_info()
    assert boardmap.picture(engine.view(g, "nixon")) is first
    assert boardmap.board_picture.cache_info().hits == before.hits + 1
    assert boardmap.board_picture.cache_info().misses == before.misses


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
    boardmap.PALETTE_FILE.write_bytes(boardmap.make_palette())
    boardmap._palette.cache_clear()
    print(f"wrote {boardmap.PALETTE_FILE}")
    GOLDEN.write_bytes(boardmap.picture(engine.view(golden_state(), "kennedy")).png)
    print(f"wrote {GOLDEN}")


if __name__ == "__main__" and "--regenerate" in sys.argv:
    regenerate()
