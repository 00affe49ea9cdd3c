"""The map picture of every HTML report: SVG drawn from the public board, rendered to PNG.

``picture(view)`` is the entry point: it builds the `MapBoard` from the view's
public keys only (`model.PUBLIC_KEYS`), draws it as SVG (`draw.svg`) and
renders PNG bytes with resvg (the ``resvg-py`` wheel: no system library, no
browser). Text is set in a subset of DejaVu Sans Condensed that ships in
``fonts/`` (Bitstream Vera licence, see docs/DATA.md); system fonts are never
loaded, so the same board gives the same pixels on every machine.

Rendering is cached on the `MapBoard` (frozen, hashable): both players'
reports of one move show the same public board, so it is drawn once per move.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.boardmap.draw import WIDTH, Piece, document, height, layers, svg
from pbem.boardmap.model import PUBLIC_KEYS, MapBoard, from_view
from pbem.boardmap.palette import sample_boards

if TYPE_CHECKING:
    from PIL import Image

__all__ = [
    "PUBLIC_KEYS",
    "WIDTH",
    "MapBoard",
    "Picture",
    "alt_text",
    "from_view",
    "make_palette",
    "picture",
    "png",
    "svg",
]

FONT_DIR = Path(__file__).resolve().parent / "fonts"
PALETTE_FILE = Path(__file__).resolve().parent / "palette.bin"  # 256 x RGB, see `make_palette`
_FONTS = sorted(str(p) for p in FONT_DIR.glob("*.ttf"))
ZOOM = 1.0  # 600 px: sharp enough on phones; resvg time grows with the pixel count
STATS = {"drawn": 0, "cached": 0}  # renders done / served from the cache (benchmarks read it)


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


def png(board: MapBoard) -> bytes:
    """PNG bytes of ``board`` (cached: the same board is rendered once)."""
    before = _png.cache_info().hits
    data = _png(board)
    STATS["cached" if _png.cache_info().hits > before else "drawn"] += 1
    return data


@lru_cache(maxsize=32)
def _png(board: MapBoard) -> bytes:
    return draw_png(board)


def draw_png(board: MapBoard) -> bytes:
    """Draw ``board``: the constant layer with each piece pasted on, as a palette PNG.

    The constant layer is drawn once per process and each distinct piece (a state's tile, a
    region's panel, ...) once too (`_pieces`), so a new position costs the pieces it changed
    plus the paste and the encoding. The pixels are those of the whole document
    (`render_whole`): a piece's box holds nothing else (tests/pbem/test_boardmap.py).
    """
    return _encode(_compose(board))


PIECES_KEPT = 4096  # pieces are 46 x 46 .. 490 x 72 px: at most a few tens of MB
BATCH = 6  # more new pieces than this are drawn in one resvg pass and cut apart
_pieces: OrderedDict[tuple[str, tuple[int, int, int, int]], Image.Image] = OrderedDict()


def _compose(board: MapBoard) -> Image.Image:
    parts = layers(board)
    missing = [p for p in parts.pieces if (p.markup, p.box) not in _pieces]
    if len(missing) > BATCH:  # a fresh process: one pass instead of one per piece
        sheet = _rasterise(document("".join(p.markup for p in missing)))
        for p in missing:
            x, y, w, h = p.box
            _keep(p, sheet.crop((x, y, x + w, y + h)))
    else:
        for p in missing:
            _keep(p, _rasterise(document(p.markup, p.box)))
    canvas = _constant(parts.constant).copy()
    for p in parts.pieces:
        key = (p.markup, p.box)
        _pieces.move_to_end(key)
        canvas.paste(_pieces[key], p.box[:2])
    return canvas


def _keep(piece: Piece, pixels: Image.Image) -> None:
    _pieces[(piece.markup, piece.box)] = pixels
    while len(_pieces) > PIECES_KEPT:
        _pieces.popitem(last=False)


def render_whole(board: MapBoard) -> bytes:
    """The whole document drawn in one resvg pass, same encoding (the reference; no cache)."""
    return _encode(_rasterise(svg(board)))


@lru_cache(maxsize=2)
def _constant(markup: str) -> Image.Image:
    return _rasterise(document(markup))


def _rasterise(doc: str) -> Image.Image:
    """RGB pixels of an SVG document (resvg, the bundled fonts only)."""
    import resvg_py
    from PIL import Image

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
    """A 256-colour palette PNG (`_palette`): a third of the RGB bytes, the same look.

    The picture is flat colours and anti-aliased text, so a palette loses nothing visible;
    this keeps the whole mail well under the size budget (docs: HTML < 100 KB, mail < 300 KB).
    zlib level 3: ~2 ms instead of ~4 at the default 6, for ~15 % more bytes.
    """
    from PIL import Image

    q = canvas.quantize(palette=_palette(), dither=Image.Dither.NONE)
    out = io.BytesIO()
    q.save(out, "PNG", compress_level=3)
    return out.getvalue()


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The shipped palette (``palette.bin``, made by `make_palette`) as a Pillow palette image."""
    from PIL import Image

    im = Image.new("P", (1, 1))
    im.putpalette(PALETTE_FILE.read_bytes())
    return im


def make_palette() -> bytes:
    """``palette.bin``: every colour the SVG names, exactly (flat areas keep their colour),
    then octree colours of the sample boards drawn one below the other (the anti-aliased
    edges between them), 256 in all."""
    from PIL import Image

    boards = sample_boards()
    named = sorted({c.lower() for b in boards for c in re.findall(r"#[0-9a-fA-F]{6}", svg(b))})
    exact = [bytes.fromhex(c[1:]) for c in named]
    sheet = Image.new("RGB", (WIDTH, height() * len(boards)))
    for i, board in enumerate(boards):
        sheet.paste(_compose(board), (0, i * height()))
    q = sheet.quantize(
        colors=256 - len(exact), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    rest = bytes(q.getpalette() or [])
    found = [rest[i : i + 3] for i in range(0, len(rest), 3)]
    colours = list(dict.fromkeys([*exact, *found]))[:256]
    return b"".join(colours).ljust(768, b"\0")


def picture(view: Mapping[str, Any]) -> Picture:
    """The map picture for the report built from ``view`` (public keys only)."""
    board = from_view({k: view[k] for k in PUBLIC_KEYS})
    data = png(board)
    digest = hashlib.sha256(data).hexdigest()
    return Picture(
        png=data,
        cid=f"board-{digest[:24]}@1960.pbem",
        alt=alt_text(board),
        width=WIDTH,
        height=height(),
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
