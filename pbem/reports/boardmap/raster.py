"""Pixels and PNG bytes of the map picture: the fast path the server draws with.

`Canvas` keeps the last picture drawn, as palette indices, and draws a new board by pasting
only the pieces that differ from the last one (a piece's box holds nothing else, `draw.Piece`).
Each distinct piece is rasterised once and mapped to the shipped palette once (`Indexed`):
mapping is per pixel (nearest palette colour, no dithering), so a piece mapped alone has the
indices it has in the whole picture and the picture is never mapped again. The pieces a new
board lacks are drawn in one resvg pass, packed in a small sheet (`sheet`), since a pass costs
~0.3 ms plus ~50 ns per pixel (resvg encodes the PNG it returns). `png_bytes` writes the PNG
itself from the indices (zlib level 3, as Pillow's encoder at ``compress_level=3``: the same
bytes, without Pillow's row filter pass); tests/pbem/test_boardmap.py checks all of it against
the whole document drawn in one pass.
"""

from __future__ import annotations

import io
import struct
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PIL import Image

from pbem.reports.boardmap.draw import Piece

if TYPE_CHECKING:
    from PIL import Image

LEVEL = 3  # zlib level: ~2 ms per picture; 6 costs twice that for ~12 % fewer bytes
SHEET_WIDTH = 600  # the packed sheet's width (pieces are at most 600 px wide)
GAP = 2  # px between packed pieces
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
IDAT_MAX = 65536  # Pillow writes IDAT chunks of at most this (ImageFile.MAXBLOCK): the same bytes


def chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data))
        + kind
        + data
        + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))
    )


def png_bytes(rows: bytes, width: int, height: int, palette: bytes) -> bytes:
    """An 8-bit palette PNG of ``rows``: per row a filter byte (0) then ``width`` indices."""
    z = zlib.compressobj(LEVEL, zlib.DEFLATED, 15, 9)
    data = z.compress(rows) + z.flush()
    head = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    idat = b"".join(chunk(b"IDAT", data[i : i + IDAT_MAX]) for i in range(0, len(data), IDAT_MAX))
    return (
        PNG_SIGNATURE + chunk(b"IHDR", head) + chunk(b"PLTE", palette) + idat + chunk(b"IEND", b"")
    )


def indices(rgb: Image.Image, palette: Image.Image) -> Image.Image:
    """``rgb`` mapped to ``palette`` (nearest colour, no dithering) as an "L" image of indices."""
    q = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    return Image.frombytes("L", q.size, q.tobytes())


def sheet(pieces: Sequence[Piece]) -> tuple[tuple[int, int], list[tuple[int, int] | None]]:
    """Pack ``pieces`` in rows (shelves) on a sheet at most ``SHEET_WIDTH`` wide: the sheet's
    size and each piece's top-left corner on it, in the order given (``None``: it did not fit).

    A piece only ever moves up and to the left (its corner on the sheet is at most its box's):
    moved so, each coordinate of its drawing loses a whole number and stays as large as it
    was or smaller, which floating point does exactly; so its pixels are those it has in the
    whole document. (A move that makes coordinates larger rounds some of them: one or two
    levels of anti-aliasing differ now and then.)
    """
    order = sorted(range(len(pieces)), key=lambda i: (pieces[i].box[1], pieces[i].box[0]))
    at: list[tuple[int, int] | None] = [None] * len(pieces)
    shelves: list[list[int]] = []  # [top, height, first free x], top to bottom
    width = 0
    for i in order:
        bx, by, w, h = pieces[i].box
        for n, (top, tall, x) in enumerate(shelves):
            last = n == len(shelves) - 1
            if top <= by and x <= bx and x + w <= SHEET_WIDTH and (h <= tall or last):
                shelves[n] = [top, max(tall, h), x + w + GAP]
                break
        else:
            top = shelves[-1][0] + shelves[-1][1] + GAP if shelves else 0
            if top > by:
                continue
            x = 0
            shelves.append([top, h, w + GAP])
        at[i] = (x, top)
        width = max(width, x + w)
    return (width, shelves[-1][0] + shelves[-1][1] if shelves else 0), at


def sheet_markup(pieces: Sequence[Piece], at: Sequence[tuple[int, int]]) -> str:
    """Each piece moved to its place on the sheet (`sheet`) by a ``<g>`` translation (a nested
    ``<svg>`` with a viewBox does not keep the pixels: its transform is not a plain sum)."""
    return "".join(
        f'<g transform="translate({px - p.box[0]} {py - p.box[1]})">{p.markup}</g>'
        for p, (px, py) in zip(pieces, at, strict=True)
    )


class Indexed:
    """Each distinct piece's palette indices ("L" images), least recently used dropped."""

    def __init__(self, kept: int) -> None:
        self.kept = kept
        self.images: OrderedDict[Piece, Image.Image] = OrderedDict()

    def __contains__(self, piece: Piece) -> bool:
        return piece in self.images

    def get(self, piece: Piece) -> Image.Image:
        self.images.move_to_end(piece)
        return self.images[piece]

    def put(self, piece: Piece, image: Image.Image) -> None:
        self.images[piece] = image
        while len(self.images) > self.kept:
            self.images.popitem(last=False)


class Canvas:
    """The last picture drawn, as palette indices with a zero column in front (each row's PNG
    filter byte: ``tobytes()`` is the PNG's raw data), and which piece is in each box."""

    def __init__(self) -> None:
        self.image: Image.Image | None = None
        self.key: tuple[object, ...] = ()
        self.shown: dict[tuple[int, int, int, int], Piece] = {}

    def draw(
        self, key: tuple[object, ...], base: Image.Image, pieces: Sequence[Piece], indexed: Indexed
    ) -> bytes:
        """The raw PNG rows of ``base`` (the constant layer's indices) with ``pieces`` pasted
        on; ``key`` names the base and the boxes (another key starts from the base again)."""
        if self.image is None or key != self.key:
            w, h = base.size
            self.image = Image.new("L", (w + 1, h), 0)
            self.image.paste(base, (1, 0))
            self.key, self.shown = key, {}
        for p in pieces:
            if self.shown.get(p.box) != p:
                self.image.paste(indexed.get(p), (p.box[0] + 1, p.box[1]))
                self.shown[p.box] = p
        return self.image.tobytes()


def decode(png: bytes) -> Image.Image:

    with Image.open(io.BytesIO(png)) as im:
        return im.convert("RGB")
