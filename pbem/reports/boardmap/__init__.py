"""The map picture of every HTML report: SVG drawn from the public board, rendered to PNG.

``picture(view)`` is the entry point: it builds the `MapBoard` from the view's
public keys only (`model.PUBLIC_KEYS`), draws it as SVG (`draw.svg`) and
renders PNG bytes with resvg (the ``resvg-py`` wheel: no system library, no
browser). Text is set in a subset of DejaVu Sans Condensed that ships in
``fonts/`` (Bitstream Vera licence, see docs/DATA.md); system fonts are never
loaded, so the same board gives the same pixels on every machine.

Rendering is cached on the `MapBoard` (frozen, hashable), and `picture` finds it by the view's
public values first (`view_key`): both players' reports of one move show the same public board,
so it is drawn once per move. A new board is drawn by `draw_png`: the constant layer and each
distinct piece are rasterised once and kept as palette indices (`raster`), so it costs the
pieces the board changed and the PNG encoding (benchmarks/bench_picture.py). Those indices are
also kept on disk for the next process (`store`): a new `pbem poll` reads the pieces earlier
ones drew instead of rasterising them again.
"""

from __future__ import annotations

import hashlib
import io
import re
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import resvg_py
from PIL import Image

from pbem.reports.boardmap import raster, store
from pbem.reports.boardmap.draw import HALF, WIDTH, Piece, document, height, layers, svg
from pbem.reports.boardmap.model import PUBLIC_KEYS, MapBoard, from_view
from pbem.reports.boardmap.palette import sample_boards

if TYPE_CHECKING:
    from PIL import Image

__all__ = [
    "PUBLIC_KEYS",
    "WIDTH",
    "MapBoard",
    "Picture",
    "alt_text",
    "from_view",
    "halves",
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
# Pictures kept (`picture`, `png`). A game's next report often shows the same public board,
# but a poll interleaves the games: the boards of every other active game come in between
# (bench_mail's 40 games, one report a move: 111 boards drawn for 200 reports with 32 kept,
# 88 — each distinct board once — with 64 or more). ~60 KB a picture.
PICTURES_KEPT = 128


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


@lru_cache(maxsize=PICTURES_KEPT)
def _png(board: MapBoard) -> bytes:
    return draw_png(board)


def cache_clear() -> None:
    """Forget the pictures drawn (`picture`'s and `png`'s caches; the pieces are kept)."""
    _png.cache_clear()
    _pictures.clear()


def draw_png(board: MapBoard) -> bytes:
    """Draw ``board``: the constant layer with each piece pasted on, as a palette PNG.

    The constant layer is drawn and mapped to the palette once per process, each distinct
    piece (a state's tile, a region's panel, ...) too, and the last picture is kept: a new
    board costs the pieces it changed (one resvg pass for all of them, `raster.sheet`), pasting
    the pieces that differ from the last board's, and the encoding (`raster`). The pixels are
    those of the whole document (`render_whole`): a piece's box holds nothing else
    (tests/pbem/test_boardmap.py).
    """
    parts = layers(board)
    with _lock:
        missing = [p for p in parts.pieces if p not in _indexed]
        if missing:
            _draw_pieces(missing)
        key = (parts.constant, tuple(p.box for p in parts.pieces))
        rows = _canvas.draw(key, _constant_indices(parts.constant), parts.pieces, _indexed)
    return raster.png_bytes(rows, WIDTH, height(), _palette_bytes())


def _draw_pieces(missing: list[Piece]) -> None:
    """Rasterise the pieces missing from `_indexed` and not kept by an earlier process
    (`store`): those `raster.sheet` packs in one resvg pass, any other alone; each mapped to
    the palette and kept (in memory and on disk)."""
    missing = [p for p in missing if not _load(p)]
    if not missing:
        return
    (w, h), at = raster.sheet(missing)
    packed = [(p, xy) for p, xy in zip(missing, at, strict=True) if xy is not None]
    if packed:
        pieces, corners = zip(*packed, strict=True)
        pixels = _rasterise(document(raster.sheet_markup(pieces, corners), (0, 0, w, h)))
        for p, (x, y) in packed:
            crop = pixels.crop((x, y, x + p.box[2], y + p.box[3]))
            _keep_indices(p, raster.indices(crop, _palette()))
    for p in (p for p, xy in zip(missing, at, strict=True) if xy is None):
        _keep_indices(p, raster.indices(_rasterise(document(p.markup, p.box)), _palette()))


def _load(piece: Piece) -> bool:
    """``piece``'s indices from the disk (`store`) into `_indexed`, if an earlier process kept
    them (named by the document the piece is drawn from alone: its pixels are the same)."""
    w, h = piece.box[2], piece.box[3]
    data = store.get(store.key(_salt(), document(piece.markup, piece.box)), w * h)
    if data is None:
        return False
    _indexed.put(piece, Image.frombytes("L", (w, h), data))
    return True


def _keep_indices(piece: Piece, image: Image.Image) -> None:
    _indexed.put(piece, image)
    store.put(store.key(_salt(), document(piece.markup, piece.box)), image.tobytes())


@lru_cache(maxsize=1)
def _salt() -> bytes:
    return store.salt(_FONTS, _palette_bytes(), ZOOM, (__file__, raster.__file__))


_lock = threading.Lock()  # the canvas and the caches of pieces are shared
_indexed = raster.Indexed(4096)  # pieces are 46 x 46 .. 490 x 72 px, one byte a pixel
_canvas = raster.Canvas()


@lru_cache(maxsize=2)
def _constant_indices(markup: str) -> Image.Image:

    name = store.key(_salt(), document(markup))
    size = (WIDTH, height())
    data = store.get(name, size[0] * size[1])
    if data is not None:
        return Image.frombytes("L", size, data)
    image = raster.indices(_constant(markup), _palette())
    store.put(name, image.tobytes())
    return image


@lru_cache(maxsize=1)
def _palette_bytes() -> bytes:
    return PALETTE_FILE.read_bytes().ljust(768, b"\0")[:768]


PIECES_KEPT = 4096  # pieces are 46 x 46 .. 490 x 72 px: at most a few tens of MB
BATCH = 6  # more new pieces than this are drawn in one resvg pass and cut apart
# `_compose`: the picture in RGB the way it was drawn before the fast path (`draw_png`), kept
# for `make_palette` and as the tests' reference
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
    zlib level 3: ~2 ms instead of ~4 at the default 6, for ~15 % more bytes. The bytes are
    those Pillow writes (`encode_pillow`; `raster.png_bytes` skips its row filter pass).
    """
    w, h = canvas.size
    rows = Image.new("L", (w + 1, h), 0)
    rows.paste(raster.indices(canvas, _palette()), (1, 0))
    return raster.png_bytes(rows.tobytes(), w, h, _palette_bytes())


def encode_pillow(canvas: Image.Image) -> bytes:
    """`_encode` by Pillow's PNG encoder (how it was done before; the tests' reference)."""
    q = canvas.quantize(palette=_palette(), dither=Image.Dither.NONE)
    out = io.BytesIO()
    q.save(out, "PNG", compress_level=raster.LEVEL)
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
        sheet.paste(_compose(board), (0, i * height()))
    q = sheet.quantize(
        colors=256 - len(exact), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    rest = bytes(q.getpalette() or [])
    found = [rest[i : i + 3] for i in range(0, len(rest), 3)]
    colours = list(dict.fromkeys([*exact, *found]))[:256]
    return b"".join(colours).ljust(768, b"\0")


def picture(view: Mapping[str, Any]) -> Picture:
    """The map picture for the report built from ``view`` (public keys only).

    Served from a cache keyed by the view's public values (`view_key`) when it can: both
    seats' reports (and the observers') of a move ask for the same board, and building the
    `MapBoard` to look it up cost more than the key.
    """
    key = view_key(view)
    with _lock:
        pic = _pictures.get(key)
        if pic is not None:
            _pictures.move_to_end(key)
            STATS["cached"] += 1
            return pic
    board = from_view({k: view[k] for k in PUBLIC_KEYS})
    data = png(board)
    digest = hashlib.sha256(data).hexdigest()
    pic = Picture(
        png=data,
        cid=f"board-{digest[:24]}@1960.pbem",
        alt=alt_text(board),
        width=WIDTH,
        height=height(),
    )
    with _lock:
        _pictures[key] = pic
        while len(_pictures) > PICTURES_KEPT:
            _pictures.popitem(last=False)
    return pic


_pictures: OrderedDict[tuple[Any, ...], Picture] = OrderedDict()


@lru_cache(maxsize=PICTURES_KEPT)
def halves(pic: Picture) -> tuple[Picture, Picture]:
    """``pic`` cut at `draw.HALF` into its west and east halves (the same pixels).

    The HTML shows the two side by side where the mail is 600 px wide or more (the whole
    map, as drawn) and one above the other on a phone, each at its own width: twice the size
    of the whole map shrunk to the screen, with no CSS media query (which mail programs
    honour unevenly). Nothing written on the map crosses the cut (`draw.HALF`).
    """
    with Image.open(io.BytesIO(pic.png)) as whole:  # palette indices of `_encode`'s palette
        indices = Image.frombytes("L", whole.size, whole.tobytes())
    out = []
    for side, box in (("west", (0, 0, HALF, pic.height)), ("east", (HALF, 0, WIDTH, pic.height))):
        w, h = box[2] - box[0], box[3]
        rows = Image.new("L", (w + 1, h), 0)  # each row led by its filter byte (none)
        rows.paste(indices.crop(box), (1, 0))
        data = raster.png_bytes(rows.tobytes(), w, h, _palette_bytes())
        out.append(
            Picture(
                png=data,
                cid=f"board-{side}-{hashlib.sha256(data).hexdigest()[:24]}@1960.pbem",
                alt=pic.alt if side == "west" else "(the map's eastern half)",
                width=HALF,
                height=pic.height,
                filename=f"board-{side}.png",
            )
        )
    return out[0], out[1]


def view_key(v: Mapping[str, Any]) -> tuple[Any, ...]:
    """Every value of ``v`` that `from_view` reads (so equal keys give equal boards)."""
    return (
        v["turn"],
        tuple(
            (s, d["region"], d["ev"], d.get("side"), d.get("cubes")) for s, d in v["states"].items()
        ),
        tuple((r, d.get("side"), d.get("cubes")) for r, d in v["media"].items()),
        tuple((r, d.get("side"), d.get("cubes")) for r, d in v["endorsements"].items()),
        tuple((i["issue"], i.get("side"), i.get("cubes")) for i in v["issues"]),
        tuple(v["momentum"].items()),
        tuple(v["tokens"].items()),
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
