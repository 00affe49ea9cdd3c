"""The map's rasterised pieces kept between processes, as the compiled templates are.

Each `pbem poll` is a new process, and its first pictures rasterised the constant layer and
every piece of the board anew with resvg (about 0.3-0.6 s of CPU per process, a tenth of a
busy poll's start-up and more than its imports of the mail layer). The palette indices of
each piece (and of the constant layer) are written here once and read by later processes
(a few tens of µs a piece). A file is named by a SHA-256 of the SVG document the piece is
drawn from and of everything else its pixels depend on (`salt`: the fonts, the palette,
the zoom, resvg's and Pillow's versions, the source of the drawing code), so a hit holds the very indices this process would
compute (`pbem.reports.boardmap.draw_png` already keeps them per piece in memory, on the same
footing: a piece's pixels are the same however it is drawn, tests/pbem/test_boardmap.py).

The folder: ``PBEM_TEMPLATE_CACHE``/map-pieces when that is set (``off``: none), else a
private folder for this user in the temp folder (mode 0700 and owner checked, as Jinja2's
template cache; anything else: no cache). A file that cannot be read, or of the wrong size,
is a miss; one that cannot be written is not kept; past `KEPT` files the folder is emptied
(the pieces of a season's boards are a few thousand).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import tempfile
import zlib
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import PIL
import resvg_py

__all__ = ["KEPT", "folder", "get", "key", "put"]

FORMAT = b"pbem map pieces 1\n"
KEPT = 20_000  # files (~0.5-3 KB each); more and the folder is emptied on the next write
_checked: set[Path] = set()  # folders this process has counted (once, at its first write)


@cache
def folder() -> Path | None:
    """Where the pieces are kept, or None (no cache: every process draws its own)."""
    where = os.environ.get("PBEM_TEMPLATE_CACHE", "")
    if where.lower() == "off":
        return None
    try:
        if where:
            path = Path(where) / "map-pieces"
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
            return path
        return _private(Path(tempfile.gettempdir()) / f"pbem-map-pieces-{os.getuid()}")
    except (OSError, RuntimeError, AttributeError):
        return None


def _private(path: Path) -> Path:
    """``path`` made (0700) if missing; it must be this user's own directory, mode 0700."""
    with contextlib.suppress(FileExistsError):
        path.mkdir(mode=stat.S_IRWXU)
    st = os.lstat(path)
    if (
        st.st_uid != os.getuid()
        or not stat.S_ISDIR(st.st_mode)
        or stat.S_IMODE(st.st_mode) != stat.S_IRWXU
    ):
        raise RuntimeError(f"{path}: not a private folder of this user")
    return path


def salt(fonts: Sequence[str], palette: bytes, zoom: float, code: Sequence[str]) -> bytes:
    """What a piece's indices depend on besides its SVG document: the fonts, the palette, the
    zoom, resvg's and Pillow's versions, and the source of the ``code`` that rasterises and
    maps the pixels (a change there is a new cache, as a changed template is recompiled)."""
    h = hashlib.sha256(FORMAT)
    for name in (*fonts, *code):
        h.update(Path(name).read_bytes())
    h.update(palette)
    versions = (zoom, resvg_py.__version__, getattr(resvg_py, "__resvg_version__", ""))
    h.update(repr((*versions, PIL.__version__)).encode())
    return h.digest()


def key(salt: bytes, document: str) -> str:
    return hashlib.sha256(salt + document.encode()).hexdigest()


def get(name: str, size: int) -> bytes | None:
    """The ``size`` index bytes kept under ``name``, or None."""
    where = folder()
    if where is None:
        return None
    try:
        data = zlib.decompress((where / name).read_bytes())
    except (OSError, zlib.error):
        return None
    return data if len(data) == size else None


def put(name: str, data: bytes) -> None:
    """Keep ``data`` under ``name`` (written whole or not at all)."""
    where = folder()
    if where is None:
        return
    try:
        if where not in _checked:
            _checked.add(where)
            _trim(where)
        tmp = where / f".{name}.{os.getpid()}"
        tmp.write_bytes(zlib.compress(data, 1))
        os.replace(tmp, where / name)
    except OSError:
        return


def _trim(where: Path) -> None:
    names = os.listdir(where)
    if len(names) > KEPT:
        for n in names:
            with contextlib.suppress(OSError):
                os.unlink(where / n)
