"""Draw the public board (`MapBoard`) as SVG: the state tile grid, regions, tracks.

The picture is 600 px wide (the usual mail body width) and holds what a player
would see on the physical board (R17.1): each state's support (colour *and*
``K3``/``N1`` written in the tile) with its electoral votes, both candidate
tokens, the four regions with their media support and endorsement markers, the
issue track in order with its support, momentum, and the electoral votes each
side carries. Nothing private can reach it: its only input is `MapBoard`.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape

import engine
from pbem.reports.boardmap.layout import (
    COLUMNS,
    GRID,
    INK,
    ISLANDS,
    LETTER,
    REGION_EDGE,
    ROWS,
    SHADES,
    fill,
    label,
    text_colour,
)
from pbem.reports.boardmap.model import MapBoard, Space

WIDTH = 600
PITCH = 48  # tile + gap
TILE = 44
LEFT = (WIDTH - COLUMNS * PITCH) // 2 + 2
TOP = 6
MAP_BOTTOM = TOP + ROWS * PITCH
PANEL = 80  # height of the region panels' row
# The picture is also sent cut in two halves at HALF (`pbem.reports.boardmap.halves`), side by
# side on a wide screen and one above the other on a phone: nothing written crosses it (the
# grid's columns 5 and 6, the panels of Midwest and South, the issue track's 2nd and 3rd).
HALF = WIDTH // 2
FONT = "DejaVu Sans Condensed"
REGION_TITLE = {"west": "West", "midwest": "Midwest", "south": "South", "east": "East"}
# where each region's name is written on the map: an empty cell next to the region
REGION_LABEL_AT = {
    "west": (7.55, 2.5),
    "midwest": (1.75, 6.5),
    "east": (1.75, 9.0),
    "south": (7.55, 6.5),
}
TITLE_RIGHT, TITLE_BOTTOM = 490, 72  # the title's box: the empty north-west of the grid


@dataclass(frozen=True)
class Piece:
    """A part of the picture that follows the board, inside a pixel box (x, y, w, h).

    Nothing else is drawn inside the box (the canvas under it is white), so the piece can be
    drawn on its own and pasted over the constant layer (`pbem.reports.boardmap.png`) with the same
    pixels as the whole document; the tests check that for many boards.
    """

    box: tuple[int, int, int, int]
    markup: str


@dataclass(frozen=True)
class Layers:
    """The picture as a constant layer (markup) and the pieces that follow the board."""

    constant: str
    pieces: tuple[Piece, ...]


def svg(board: MapBoard) -> str:
    """The whole picture as an SVG document (pixel size ``WIDTH`` x `height`)."""
    parts = layers(board)
    return document(parts.constant + "".join(p.markup for p in parts.pieces))


def document(body: str, box: tuple[int, int, int, int] | None = None) -> str:
    """An SVG document of ``body`` on the white canvas: all of it, or only pixel ``box``."""
    x, y, w, h = box or (0, 0, WIDTH, height())
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="{x} {y} {w} {h}" font-family="{FONT}">'
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="#ffffff"/>{body}</svg>'
    )


def layers(board: MapBoard) -> Layers:
    """The constant layer (region edges and names, headings, legend) and the board's pieces
    (title, state tiles, region panels, issues, momentum, tokens: each drawn in its own box)."""
    y = MAP_BOTTOM + 4
    constant = [
        *_region_edges(board),
        *_region_names(),
        *_panel_frames(tuple(r.region for r in board.regions), y),
        *_track_headings(y + PANEL),
        *_legend(y + PANEL + 58),
    ]
    pieces = [
        *_title_pieces(board),
        *_tiles(board),
        *_region_panels(board, y),
        *_tracks(board, y + PANEL),
    ]
    return Layers("".join(constant), tuple(pieces))


def height() -> int:
    return MAP_BOTTOM + 4 + PANEL + 58 + 24


def _text(
    x: float,
    y: float,
    s: str,
    size: float,
    colour: str = "#111827",
    *,
    anchor: str = "start",
    bold: bool = False,
) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" fill="{colour}" '
        f'text-anchor="{anchor}"{weight}>{escape(s)}</text>'
    )


def _cell(row: float, col: float) -> tuple[float, float]:
    return LEFT + col * PITCH, TOP + row * PITCH


TITLE_SPLIT = (28, 54)  # the title's box cut in three: the heading, the bar, its caption


def _title_pieces(board: MapBoard) -> tuple[Piece, Piece, Piece]:
    """The title as three pieces (each changes alone: the turn, the votes, the total)."""
    head, *bar, caption = _title(board)
    a, b = TITLE_SPLIT
    return (
        Piece((0, 0, TITLE_RIGHT, a), head),
        Piece((0, a, TITLE_RIGHT, b - a), "".join(bar)),
        Piece((0, b, TITLE_RIGHT, TITLE_BOTTOM - b), caption),
    )


def _title(board: MapBoard) -> list[str]:
    """Turn and the electoral-vote race, in the empty north-west corner of the grid."""
    out = [
        _text(
            LEFT + 2,
            TOP + 16,
            f"1960 \u2014 turn {board.turn}: who leads each state",
            15,
            bold=True,
        )
    ]
    k, n, total = board.ev_kennedy, board.ev_nixon, board.ev_total
    x0, y0 = LEFT + 2, TOP + 28
    w = HALF - 4 - x0  # the bar ends in the left half
    kw, nw = w * k / total, w * n / total
    out.append(f'<rect x="{x0}" y="{y0}" width="{w}" height="14" fill="#f3f4f6" stroke="#9ca3af"/>')
    out.append(
        f'<rect x="{x0}" y="{y0}" width="{kw:.1f}" height="14" fill="{SHADES["kennedy"][2]}"/>'
    )
    out.append(
        f'<rect x="{x0 + w - nw:.1f}" y="{y0}" width="{nw:.1f}" height="14" '
        f'fill="{SHADES["nixon"][2]}"/>'
    )
    need = total // 2 + 1
    mid = x0 + w * need / total
    out.append(
        f'<line x1="{mid:.1f}" y1="{y0 - 3}" x2="{mid:.1f}" y2="{y0 + 17}" stroke="#111827" '
        f'stroke-width="1.5"/>'
    )
    out.append(
        _text(
            x0 + 3, y0 + 11, f"Kennedy {k}", 11, "#ffffff" if kw > 70 else INK["kennedy"], bold=True
        )
        if kw > 70
        else _text(x0 + kw + 3, y0 + 11, f"Kennedy {k}", 11, INK["kennedy"], bold=True)
    )
    out.append(
        _text(x0 + w - 3, y0 + 11, f"Nixon {n}", 11, "#ffffff", anchor="end", bold=True)
        if nw > 60
        else _text(
            x0 + w - nw - 3, y0 + 11, f"Nixon {n}", 11, INK["nixon"], anchor="end", bold=True
        )
    )
    out.append(_text(x0, y0 + 30, f"electoral votes carried; {need} of {total} win", 10, "#4b5563"))
    return out


def _tiles(board: MapBoard) -> list[Piece]:
    """One piece per state: the tile, its letters and numbers, the tokens on it."""
    pieces: list[Piece] = []
    tokens = {board.token_kennedy: "kennedy"}
    tokens_n = {board.token_nixon: "nixon"}
    for st in board.states:
        row, col = GRID[st.abbr]
        x, y = _cell(row, col)
        ink = text_colour(st.side, st.cubes)
        out = [
            f'<rect x="{x}" y="{y}" width="{TILE}" height="{TILE}" rx="3" '
            f'fill="{fill(st.side, st.cubes)}" stroke="#9ca3af" stroke-width="0.75"/>',
            _text(x + 4, y + 14, st.abbr, 13, ink, bold=True),
            _text(x + TILE - 3, y + 13, str(st.ev), 10, ink, anchor="end"),
        ]
        if st.cubes:  # an empty state shows no letters at all
            out.append(
                _text(
                    x + TILE - 4, y + 38, label(st.side, st.cubes), 15, ink, anchor="end", bold=True
                )
            )
        for side in (s for s, d in (("kennedy", tokens), ("nixon", tokens_n)) if st.abbr in d):
            dx = 9 if side == "kennedy" else 9 + (15 if board.token_kennedy == st.abbr else 0)
            out.append(
                f'<circle cx="{x + dx}" cy="{y + TILE - 9}" r="7" fill="#ffffff" '
                f'stroke="{INK[side]}" stroke-width="2"/>'
            )
            out.append(
                _text(
                    x + dx, y + TILE - 5.5, LETTER[side], 9.5, INK[side], anchor="middle", bold=True
                )
            )
        pieces.append(Piece((int(x) - 1, int(y) - 1, TILE + 2, TILE + 2), "".join(out)))
    return pieces


def _region_edges(board: MapBoard) -> list[str]:
    """A thick line wherever a tile borders another region or the sea."""
    region = {s.abbr: s.region for s in board.states}
    at = {GRID[s]: s for s in region}
    half = (PITCH - TILE) / 2
    out: list[str] = []
    for st, (row, col) in ((s, GRID[s]) for s in region):
        x, y = _cell(row, col)
        x0, y0, x1, y1 = x - half, y - half, x + TILE + half, y + TILE + half
        for (dr, dc), line in (
            ((-1, 0), (x0, y0, x1, y0)),
            ((1, 0), (x0, y1, x1, y1)),
            ((0, -1), (x0, y0, x0, y1)),
            ((0, 1), (x1, y0, x1, y1)),
        ):
            other = at.get((row + dr, col + dc))
            same_block = (st in ISLANDS) == (other in ISLANDS)
            if other is not None and region[other] == region[st] and same_block:
                continue
            out.append(
                f'<line x1="{line[0]:g}" y1="{line[1]:g}" x2="{line[2]:g}" y2="{line[3]:g}" '
                f'stroke="{REGION_EDGE}" stroke-width="2" stroke-linecap="square"/>'
            )
    return out


def _region_names() -> list[str]:
    out = []
    for region, (row, col) in REGION_LABEL_AT.items():
        x, y = _cell(row, col)
        out.append(
            _text(
                x + TILE / 2,
                y,
                REGION_TITLE[region].upper(),
                12,
                "#374151",
                anchor="middle",
                bold=True,
            )
        )
    return out


def _space_text(sp: Space) -> tuple[str, str]:
    return label(sp.side, sp.cubes), INK[sp.side]


PANEL_FILL = "#f9fafb"


def _panel_frames(regions: tuple[str, ...], y: int) -> list[str]:
    """The region panels without their values: frame, name and the two row labels."""
    out: list[str] = []
    w = (WIDTH - 2 * LEFT) // 4
    for i, region in enumerate(regions):
        x = LEFT + i * w
        out += [
            f'<rect x="{x + 1:g}" y="{y:g}" width="{w - 4:g}" height="{PANEL - 6}" rx="4" '
            f'fill="{PANEL_FILL}" stroke="{REGION_EDGE}" stroke-width="1.25"/>',
            _text(x + 8, y + 15, REGION_TITLE[region], 13, bold=True),
            _text(x + 8, y + 34, "Media", 11, "#374151"),
            _text(x + 8, y + 52, "Endorsement", 11, "#374151"),
        ]
    return out


def _on_panel(box: tuple[int, int, int, int], text: str) -> Piece:
    """A value written inside a panel: its box lies in the panel's flat fill, so the piece is
    that fill (whole pixels: exactly the panel's colour) and the text."""
    x, y, w, h = box
    return Piece(box, f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{PANEL_FILL}"/>{text}')


def _region_panels(board: MapBoard, y: int) -> list[Piece]:
    """Three pieces per region: its media support, its endorsement, the electoral votes carried
    there (the frame and labels are constant, `_panel_frames`)."""
    pieces: list[Piece] = []
    w = (WIDTH - 2 * LEFT) // 4
    for i, r in enumerate(board.regions):
        x = LEFT + i * w
        media, mc = _space_text(r.media)
        endo, ec = _space_text(r.endorsement)
        ev = f"EV K {r.ev_kennedy} \u00b7 N {r.ev_nixon} of {r.ev_total}"
        pieces += [
            _on_panel(
                (x + w - 44, y + 21, 36, 18),
                _text(x + w - 12, y + 34, media, 13, mc, anchor="end", bold=True),
            ),
            _on_panel(
                (x + w - 44, y + 39, 36, 18),
                _text(x + w - 12, y + 52, endo, 13, ec, anchor="end", bold=True),
            ),
            _on_panel((x + 6, y + 57, w - 15, 15), _text(x + 8, y + 68, ev, 10, "#4b5563")),
        ]
    return pieces


ISSUE_BOX = 118  # width of an issue's box on the track


def _issue_x(i: int) -> int:
    """Where the ``i``-th issue box starts: two in the left half, the third in the right."""
    return LEFT + i * (ISSUE_BOX + 4) if i < 2 else HALF + 2


_TRACKS_X = HALF + 2 + ISSUE_BOX + 4 + 8  # momentum, then tokens, after the third issue


def _track_headings(y: int) -> list[str]:
    x = _TRACKS_X
    return [
        _text(LEFT + 2, y + 12, "Issues, 1st to 3rd", 11, "#374151", bold=True),
        _text(x, y + 12, "Momentum", 11, "#374151", bold=True),
        _text(x + 84, y + 12, "Tokens", 11, "#374151", bold=True),
    ]


def _tracks(board: MapBoard, y: int) -> list[Piece]:
    """The issue track (1st to 3rd, with support), momentum and where the tokens are."""
    pieces: list[Piece] = []
    w = ISSUE_BOX
    for i, iss in enumerate(board.issues):
        x = _issue_x(i)
        text, colour = _space_text(iss.space)
        out = [
            f'<rect x="{x + 1}" y="{y + 18}" width="{w}" height="30" rx="4" fill="#f9fafb" '
            f'stroke="#6b7280"/>',
            _text(x + 8, y + 38, f"{i + 1}. {engine.issue_name(iss.issue)}", 12),
            _text(x + w - 6, y + 38, text, 13, colour, anchor="end", bold=True),
        ]
        pieces.append(Piece((x, y + 17, w + 2, 33), "".join(out)))
    x = _TRACKS_X
    momentum = [
        _text(x, y + 30, f"Kennedy {board.momentum_kennedy}", 12, INK["kennedy"], bold=True),
        _text(x, y + 46, f"Nixon {board.momentum_nixon}", 12, INK["nixon"], bold=True),
    ]
    pieces.append(Piece((x - 2, y + 17, 84, 34), "".join(momentum)))
    x += 84
    tokens = [
        _text(x, y + 30, f"K in {board.token_kennedy}", 12, INK["kennedy"], bold=True),
        _text(x, y + 46, f"N in {board.token_nixon}", 12, INK["nixon"], bold=True),
    ]
    pieces.append(Piece((x - 2, y + 17, WIDTH - x + 2, 34), "".join(tokens)))
    return pieces


def _legend(y: int) -> list[str]:
    out = [_text(LEFT + 2, y + 13, "Support cubes:", 10, "#4b5563")]
    for side, x in (("kennedy", LEFT + 76), ("nixon", HALF + 6)):  # one side in each half
        for n in range(1, 5):
            out.append(
                f'<rect x="{x}" y="{y + 3}" width="24" height="14" rx="2" '
                f'fill="{fill(side, n)}" stroke="#9ca3af" stroke-width="0.5"/>'
            )
            out.append(
                _text(
                    x + 12,
                    y + 14,
                    f"{LETTER[side]}{n}{'+' if n == 4 else ''}",
                    9,
                    text_colour(side, n),
                    anchor="middle",
                    bold=True,
                )
            )
            x += 27
    out.append(_text(x + 12, y + 13, "circle = candidate token", 10, "#4b5563"))
    return out
