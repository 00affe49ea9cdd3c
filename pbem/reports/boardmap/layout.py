"""Where each state sits on the map picture, and the colours that say who leads.

The map is a tile grid: one equal square per state, so the small north-eastern
states are as legible as Texas. Rows and columns follow the usual US tile-grid
layout, nudged so that each of the game's four regions (R1.2: West, Midwest,
South, East) is one connected block; Alaska and Hawaii sit apart at the lower
left, as on the game board. Support colours grow darker with the cube count;
the side's letter and the count are always written too (colour is never the
only signal).
"""

from __future__ import annotations

# (row, column) of each state on a 12 x 8 grid
GRID: dict[str, tuple[int, int]] = {
    "ME": (0, 11),
    "VT": (1, 10),
    "NH": (1, 11),
    "WA": (2, 1),
    "ID": (2, 2),
    "MT": (2, 3),
    "ND": (2, 4),
    "MN": (2, 5),
    "IL": (2, 6),
    "WI": (2, 7),
    "MI": (2, 8),
    "NY": (2, 9),
    "RI": (2, 10),
    "MA": (2, 11),
    "OR": (3, 1),
    "NV": (3, 2),
    "WY": (3, 3),
    "SD": (3, 4),
    "IA": (3, 5),
    "IN": (3, 6),
    "OH": (3, 7),
    "PA": (3, 8),
    "NJ": (3, 9),
    "CT": (3, 10),
    "CA": (4, 1),
    "UT": (4, 2),
    "CO": (4, 3),
    "NE": (4, 4),
    "MO": (4, 5),
    "KY": (4, 6),
    "VA": (4, 7),
    "WV": (4, 8),
    "MD": (4, 9),
    "DE": (4, 10),
    "AZ": (5, 2),
    "NM": (5, 3),
    "KS": (5, 4),
    "AR": (5, 5),
    "TN": (5, 6),
    "NC": (5, 7),
    "SC": (5, 8),
    "OK": (6, 3),
    "TX": (6, 4),
    "LA": (6, 5),
    "MS": (6, 6),
    "AL": (6, 7),
    "GA": (6, 8),
    "AK": (6, 0),
    "HI": (7, 0),
    "FL": (7, 8),
}
COLUMNS = 12
ROWS = 8
ISLANDS = ("AK", "HI")  # drawn apart from the mainland, in their own frames

# fill colours by side and cube count (1, 2, 3, 4+): light to dark
SHADES: dict[str, tuple[str, str, str, str]] = {
    "kennedy": ("#dbeafe", "#93c5fd", "#3b82f6", "#1e3a8a"),
    "nixon": ("#fee2e2", "#fca5a5", "#ef4444", "#7f1d1d"),
}
EMPTY = "#f3f4f6"
INK = {"kennedy": "#1d4ed8", "nixon": "#b91c1c", None: "#6b7280"}
LETTER = {"kennedy": "K", "nixon": "N"}
REGION_EDGE = "#111827"


def fill(side: str | None, cubes: int) -> str:
    """The tile colour for ``cubes`` of ``side``'s support (R6: one colour per space)."""
    if not side or cubes <= 0:
        return EMPTY
    return SHADES[side][min(cubes, 4) - 1]


def text_colour(side: str | None, cubes: int) -> str:
    """Dark text on light tiles, white on the two darkest shades."""
    if side and cubes >= 3:
        return "#ffffff"
    return "#111827"


def label(side: str | None, cubes: int) -> str:
    """``K3`` / ``N1``; ``–`` for an empty space."""
    if not side or cubes <= 0:
        return "\u2013"
    return f"{LETTER[side]}{cubes}"
