"""The boards the map picture's one palette is chosen from (``palette.bin``, `make_palette`).

The palette ships with the code; after a change of colours in `layout`, write it again with
``python tests/pbem/test_boardmap.py --regenerate``. The three samples together show what any board can:
every support shade of both sides with its letters, tokens on light and dark tiles, each
region panel and issue box held by either side or none, momentum and the electoral-vote bar;
so the colours a real board shows are in the palette (tests/pbem/test_boardmap.py bounds the
error on seeded boards, and a new colour in `layout` that is not would fail there).
"""

from __future__ import annotations

from typing import Any

import engine
from pbem.reports.boardmap.model import PUBLIC_KEYS, MapBoard, from_view

__all__ = ["sample_boards"]

_SHADES = (0, 1, 2, 3, 4, -1, -2, -3, -4)


def _board(support: dict[str, int], flip: int, tokens: tuple[str, str]) -> MapBoard:
    g: Any = engine.new_game(0)  # Any: the sample writes the state's tables by key
    g["states"].update(support)
    for key, values in (
        ("media", {"east": 2, "west": -1, "south": 0, "midwest": 3}),
        ("endorsements", {"south": 1, "midwest": -1, "east": 0, "west": 2}),
        ("issues", {"defense": -2, "economy": 1, "civil_rights": 0}),
    ):
        g[key].update({k: flip * v for k, v in values.items()})
    g["momentum"].update({"kennedy": 3, "nixon": 1})
    g["token"].update({"kennedy": tokens[0], "nixon": tokens[1]})
    view: Any = engine.view(g, "kennedy")
    return from_view({k: view[k] for k in PUBLIC_KEYS})


def sample_boards() -> list[MapBoard]:
    """Boards that between them show every colour the picture uses."""
    states = sorted(engine.STATES)
    cycle = {st: _SHADES[i % len(_SHADES)] for i, st in enumerate(states)}
    shifted = {st: _SHADES[(i + 4) % len(_SHADES)] for i, st in enumerate(states)}
    return [
        _board(cycle, 1, ("NY", "OH")),
        _board({st: -v for st, v in cycle.items()}, -1, ("CA", "CA")),
        _board(shifted, 1, ("TX", "MA")),
    ]
