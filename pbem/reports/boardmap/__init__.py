"""The map picture of every HTML report: SVG drawn from the public board, rendered to PNG.

``picture(view)`` is the entry point: it builds the `MapBoard` from the view's public keys
only (`model.PUBLIC_KEYS`), draws it (`draw`) and renders it with resvg (the ``resvg-py``
wheel: no system library, no browser). Text is set in a subset of DejaVu Sans Condensed that
ships in ``fonts/`` (Bitstream Vera licence, see docs/DATA.md); system fonts are never loaded,
so the same board gives the same pixels on every machine.

The board is drawn as a constant layer (the map, drawn once per process) with pieces pasted
on (a state's tile, a region's panel, …: `draw.layers`), each piece rasterised once and kept;
the pixels are those of the whole document drawn at once (`render_whole`). The PNG uses the
palette that ships with the code (``palette.bin``, `make_palette`), which keeps a report mail
well inside its size budget (HTML < 100 KB, mail < 300 KB). Both players' reports of a move
show the same public board, as two halves (`report_pictures`); the observers' feed shows it whole
(`picture`). The last of each are kept (`PICTURES_KEPT`), so a board is drawn once for each.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import resvg_py
from PIL import Image

from pbem.reports.boardmap.draw import HALF, WIDTH, document, height, layers, svg
from pbem.reports.boardmap.model import PUBLIC_KEYS, MapBoard, from_view
from pbem.reports.boardmap.palette import sample_boards

__all__ = [
    "PUBLIC_KEYS",
    "WIDTH",
    "MapBoard",
    "Picture",
    "alt_text",
    "board_halves",
    "board_picture",
    "compose",
    "from_view",
    "make_palette",
    "picture",
    "png",
    "render_whole",
    "report_pictures",
    "svg",
]

FONT_DIR = Path(__file__).resolve().parent / "fonts"
PALETTE_FILE = Path(__file__).resolve().parent / "palette.bin"  # 256 x RGB, see `make_palette`
_FONTS = sorted(str(p) for p in FONT_DIR.glob("*.ttf"))
ZOOM = 1.0  # 600 px: sharp enough on phones; resvg time grows with the pixel count
LEVEL = 3  # zlib level: ~2 ms instead of ~4 at the default 6, for ~15 % more bytes
# A poll interleaves the games: the boards of the other active games come between two reports
# of one game, so enough pictures are kept for a busy poll's games (~60 KB each).
PICTURES_KEPT = 128
PIECES_KEPT = 4096  # pieces are 46 x 46 .. 490 x 72 px: at most a few tens of MB
BATCH = 6  # more new pieces than this (a fresh process) are drawn in one resvg pass


@dataclass(frozen=True)
class Picture:
    """One inline image: its PNG bytes, Content-ID (no brackets), alt text, size in CSS px."""

    png: bytes
    cid: str
    alt: str
    width: int
    height: int
    filename: str = "board.png"
    content_type: str = "image/png"

    @property
    def data(self) -> bytes:
        return self.png


def picture(view: Mapping[str, Any]) -> Picture:
    """The map picture for the report built from ``view`` (public keys only)."""
    return board_picture(from_view({k: view[k] for k in PUBLIC_KEYS}))


@lru_cache(maxsize=PICTURES_KEPT)
def board_picture(board: MapBoard) -> Picture:
    """The picture of ``board`` (the last `PICTURES_KEPT` kept)."""
    data = png(board)
    return Picture(
        png=data,
        cid=f"board-{hashlib.sha256(data).hexdigest()[:24]}@1960.pbem",
        alt=alt_text(board),
        width=WIDTH,
        height=height(),
    )


def png(board: MapBoard) -> bytes:
    """PNG bytes of ``board``: its pieces pasted on the constant layer, encoded."""
    return _encode(compose(board))


def compose(board: MapBoard) -> Image.Image:
    """``board`` in RGB: the constant layer with each piece pasted on (pieces kept)."""
    parts = layers(board)
    missing = [p for p in parts.pieces if (p.markup, p.box) not in _pieces]
    if len(missing) > BATCH:  # one resvg pass for all of them, cut apart
        sheet = _rasterise(document("".join(p.markup for p in missing)))
        for p in missing:
            x, y, w, h = p.box
            _pieces[(p.markup, p.box)] = sheet.crop((x, y, x + w, y + h))
    else:
        for p in missing:
            _pieces[(p.markup, p.box)] = _rasterise(document(p.markup, p.box))
    while len(_pieces) > PIECES_KEPT:
        del _pieces[next(iter(_pieces))]
    canvas = _constant(parts.constant).copy()
    for p in parts.pieces:
        canvas.paste(_pieces[(p.markup, p.box)], p.box[:2])
    return canvas


_pieces: dict[tuple[str, tuple[int, int, int, int]], Image.Image] = {}


def render_whole(board: MapBoard) -> bytes:
    """The whole document drawn in one resvg pass, same encoding (the reference, uncached)."""
    return _encode(_rasterise(svg(board)))


@lru_cache(maxsize=2)
def _constant(markup: str) -> Image.Image:
    return _rasterise(document(markup))


def _rasterise(doc: str) -> Image.Image:
    """RGB pixels of an SVG document (resvg, the bundled fonts only)."""
    data = resvg_py.svg_to_bytes(
        svg_string=doc,
        skip_system_fonts=True,
        font_files=_FONTS,
        zoom=ZOOM,
        font_family="DejaVu Sans Condensed",
        sans_serif_family="DejaVu Sans Condensed",
    )
    with Image.open(io.BytesIO(bytes(data))) as im:
        return im.convert("RGB")


def _encode(canvas: Image.Image) -> bytes:
    """A 256-colour PNG in the shipped palette, no dithering (flat colours stay exact)."""
    return _save(_quantize(canvas))


def _quantize(canvas: Image.Image) -> Image.Image:
    return canvas.quantize(palette=_palette(), dither=Image.Dither.NONE)


def _save(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=LEVEL)
    return out.getvalue()


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The shipped palette (``palette.bin``, made by `make_palette`) as a Pillow palette image."""
    im = Image.new("P", (1, 1))
    im.putpalette(PALETTE_FILE.read_bytes())
    return im


def make_palette() -> bytes:
    """``palette.bin``: every colour the SVG names, exactly (flat areas keep their colour),
    then octree colours of the sample boards drawn one below the other (the anti-aliased
    edges between them), 256 in all."""
    boards = sample_boards()
    named = sorted({c.lower() for b in boards for c in re.findall(r"#[0-9a-fA-F]{6}", svg(b))})
    exact = [bytes.fromhex(c[1:]) for c in named]
    sheet = Image.new("RGB", (WIDTH, height() * len(boards)))
    for i, board in enumerate(boards):
        sheet.paste(compose(board), (0, i * height()))
    q = sheet.quantize(
        colors=256 - len(exact), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    rest = bytes(q.getpalette() or [])
    found = [rest[i : i + 3] for i in range(0, len(rest), 3)]
    colours = list(dict.fromkeys([*exact, *found]))[:256]
    return b"".join(colours).ljust(768, b"\0")


def report_pictures(view: Mapping[str, Any]) -> tuple[Picture, Picture]:
    """The map picture of a report built from ``view``, as its two halves (`board_halves`)."""
    return board_halves(from_view({k: view[k] for k in PUBLIC_KEYS}))


@lru_cache(maxsize=PICTURES_KEPT)
def board_halves(board: MapBoard) -> tuple[Picture, Picture]:
    """The picture of ``board`` cut at `draw.HALF` into its west and east halves: the pixels of
    `board_picture`, each half encoded on its own (the last `PICTURES_KEPT` kept).

    The HTML shows the two side by side where the mail is 600 px wide or more (the whole
    map, as drawn) and one above the other on a phone, each at its own width: twice the size
    of the whole map shrunk to the screen, with no CSS media query (which mail programs
    honour unevenly). Nothing written on the map crosses the cut (`draw.HALF`).
    """
    whole = _quantize(compose(board))
    tall = height()
    west, east = (_save(whole.crop(box)) for box in ((0, 0, HALF, tall), (HALF, 0, WIDTH, tall)))
    return (
        Picture(
            png=west,
            cid=f"board-west-{hashlib.sha256(west).hexdigest()[:24]}@1960.pbem",
            alt=alt_text(board),
            width=HALF,
            height=tall,
            filename="board-west.png",
        ),
        Picture(
            png=east,
            cid=f"board-east-{hashlib.sha256(east).hexdigest()[:24]}@1960.pbem",
            alt="(the map's eastern half)",
            width=WIDTH - HALF,
            height=tall,
            filename="board-east.png",
        ),
    )


def alt_text(board: MapBoard) -> str:
    """A one-paragraph description for mail clients that block images and screen readers."""
    lead = {s: [t.abbr for t in board.states if t.side == s] for s in ("kennedy", "nixon")}
    return (
        f"Map of the board, turn {board.turn}: Kennedy leads in {len(lead['kennedy'])} states "
        f"({board.ev_kennedy} electoral votes), Nixon in {len(lead['nixon'])} "
        f"({board.ev_nixon}); {board.ev_total // 2 + 1} win. The same board is written out "
        f"as text below the picture."
    )
