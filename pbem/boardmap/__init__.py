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
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.boardmap.draw import WIDTH, document, height, layers, svg
from pbem.boardmap.model import PUBLIC_KEYS, MapBoard, from_view

if TYPE_CHECKING:
    from PIL import Image

__all__ = [
    "PUBLIC_KEYS",
    "WIDTH",
    "MapBoard",
    "Picture",
    "alt_text",
    "from_view",
    "picture",
    "png",
    "svg",
]

FONT_DIR = Path(__file__).resolve().parent / "fonts"
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
    """Draw ``board``: the constant layer with each piece pasted on, as a 64-colour PNG.

    The constant layer is drawn once per process and each distinct piece (a state's tile, a
    region's panel, ...) once too (`_layer`), so a new position costs the pieces it changed
    plus the paste and the encoding. The pixels are those of the whole document
    (`render_whole`): a piece's box holds nothing else (tests/pbem/test_boardmap.py).
    """
    parts = layers(board)
    canvas = _layer(parts.constant, None).copy()
    for piece in parts.pieces:
        canvas.paste(_layer(piece.markup, piece.box), piece.box[:2])
    return _encode(canvas)


def render_whole(board: MapBoard) -> bytes:
    """The whole document drawn in one resvg pass, same encoding (the reference; no cache)."""
    return _encode(_rasterise(svg(board)))


@lru_cache(maxsize=4096)  # a piece is at most 46 x 46 .. 490 x 72 px: a few MB in all
def _layer(markup: str, box: tuple[int, int, int, int] | None) -> Image.Image:
    return _rasterise(document(markup, box))


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
    """A 64-colour palette PNG: a third of the RGBA bytes, same look.

    The picture is flat colours and anti-aliased text, so 64 colours lose nothing visible;
    this keeps the whole mail well under the size budget (docs: HTML < 100 KB, mail < 300 KB).
    """
    from PIL import Image

    q = canvas.quantize(colors=64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    q.save(out, "PNG")
    return out.getvalue()


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
