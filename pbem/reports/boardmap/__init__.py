"""The map picture of every HTML report: SVG drawn from the public board, rendered to PNG.

``picture(view)`` is the entry point: it builds the `MapBoard` from the view's
public keys only (`model.PUBLIC_KEYS`), draws it as SVG (`draw.svg`) and
renders it with resvg (the ``resvg-py`` wheel: no system library, no
browser). Text is set in a subset of DejaVu Sans Condensed that ships in
``fonts/`` (Bitstream Vera licence, see docs/DATA.md); system fonts are never
loaded, so the same board gives the same pixels on every machine. The PNG is
written with a palette of 256 colours (Pillow's quantizer, no dithering): the picture is flat
colours and anti-aliased text, so it looks the same at less than half the bytes of RGB, which
keeps a report mail well inside its size budget (HTML < 100 KB, mail < 300 KB).

Both players' reports of a move (and the observers') show the same public board: the last few
pictures are kept (`PICTURES_KEPT`), so a move's board is drawn once. A report carries it as
two halves (`halves`).
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import resvg_py
from PIL import Image

from pbem.reports.boardmap.draw import HALF, WIDTH, height, svg
from pbem.reports.boardmap.model import PUBLIC_KEYS, MapBoard, from_view

__all__ = [
    "PUBLIC_KEYS",
    "WIDTH",
    "MapBoard",
    "Picture",
    "alt_text",
    "from_view",
    "halves",
    "picture",
    "png",
    "svg",
]

FONT_DIR = Path(__file__).resolve().parent / "fonts"
_FONTS = sorted(str(p) for p in FONT_DIR.glob("*.ttf"))
PICTURES_KEPT = 8  # a move's reports (both seats, observers) ask for its board one after another


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
    return _picture(from_view({k: view[k] for k in PUBLIC_KEYS}))


@lru_cache(maxsize=PICTURES_KEPT)
def _picture(board: MapBoard) -> Picture:
    data = png(board)
    return Picture(
        png=data,
        cid=f"board-{hashlib.sha256(data).hexdigest()[:24]}@1960.pbem",
        alt=alt_text(board),
        width=WIDTH,
        height=height(),
    )


def png(board: MapBoard) -> bytes:
    """PNG bytes of ``board``: the SVG rendered by resvg (the bundled fonts only), written
    with 256 colours."""
    data = resvg_py.svg_to_bytes(
        svg_string=svg(board),
        skip_system_fonts=True,
        font_files=_FONTS,
        font_family="DejaVu Sans Condensed",
        sans_serif_family="DejaVu Sans Condensed",
    )
    with Image.open(io.BytesIO(bytes(data))) as im:
        rgb = im.convert("RGB")
    colours = rgb.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    colours.save(out, "PNG")
    return out.getvalue()


@lru_cache(maxsize=PICTURES_KEPT)
def halves(pic: Picture) -> tuple[Picture, Picture]:
    """``pic`` cut at `draw.HALF` into its west and east halves (the same pixels).

    The HTML shows the two side by side where the mail is 600 px wide or more (the whole
    map, as drawn) and one above the other on a phone, each at its own width: twice the size
    of the whole map shrunk to the screen, with no CSS media query (which mail programs
    honour unevenly). Nothing written on the map crosses the cut (`draw.HALF`).
    """
    out = []
    with Image.open(io.BytesIO(pic.png)) as whole:  # 256 colours: each half keeps the palette
        for side, box in (
            ("west", (0, 0, HALF, pic.height)),
            ("east", (HALF, 0, WIDTH, pic.height)),
        ):
            buf = io.BytesIO()
            whole.crop(box).save(buf, "PNG")
            data = buf.getvalue()
            out.append(
                Picture(
                    png=data,
                    cid=f"board-{side}-{hashlib.sha256(data).hexdigest()[:24]}@1960.pbem",
                    alt=pic.alt if side == "west" else "(the map's eastern half)",
                    width=box[2] - box[0],
                    height=pic.height,
                    filename=f"board-{side}.png",
                )
            )
    return out[0], out[1]


def alt_text(board: MapBoard) -> str:
    """A one-paragraph description for mail clients that block images and screen readers."""
    lead = {s: [t.abbr for t in board.states if t.side == s] for s in ("kennedy", "nixon")}
    return (
        f"Map of the board, turn {board.turn}: Kennedy leads in {len(lead['kennedy'])} states "
        f"({board.ev_kennedy} electoral votes), Nixon in {len(lead['nixon'])} "
        f"({board.ev_nixon}); {board.ev_total // 2 + 1} win. The same board is written out "
        f"as text below the picture."
    )
