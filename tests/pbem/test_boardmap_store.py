"""The map's rasterised pieces kept between processes (`pbem.reports.boardmap.store`): a new process
reads what an earlier one drew, and the pictures are the same bytes."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.reports import boardmap
from pbem.reports.boardmap import raster, store
from pbem.reports.boardmap.palette import sample_boards


def _new_process() -> None:
    """Forget what this process drew (as a new `pbem poll` starts), and where the store is."""
    boardmap.cache_clear()
    boardmap._indexed.images.clear()
    boardmap._constant_indices.cache_clear()
    boardmap._canvas = raster.Canvas()
    store.folder.cache_clear()
    store._checked.clear()


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The documents resvg rasterised."""
    docs: list[str] = []
    real = boardmap._rasterise

    def counted(doc: str) -> object:
        docs.append(doc)
        return real(doc)

    monkeypatch.setattr(boardmap, "_rasterise", counted)
    _new_process()
    yield docs
    _new_process()


def _pictures() -> list[bytes]:
    return [boardmap.draw_png(b) for b in sample_boards()]


def test_a_new_process_reads_the_pieces_an_earlier_one_drew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, drawn: list[str]
) -> None:
    monkeypatch.setenv("PBEM_TEMPLATE_CACHE", "off")
    alone = _pictures()  # no store: what every process drew before
    assert drawn
    monkeypatch.setenv("PBEM_TEMPLATE_CACHE", str(tmp_path))
    _new_process()
    assert _pictures() == alone  # drawn, and kept
    assert len(os.listdir(tmp_path / "map-pieces")) > len(sample_boards())
    _new_process()
    drawn.clear()
    assert _pictures() == alone  # the same bytes ...
    assert drawn == []  # ... and resvg never ran


def test_a_damaged_or_short_file_is_drawn_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, drawn: list[str]
) -> None:
    monkeypatch.setenv("PBEM_TEMPLATE_CACHE", str(tmp_path))
    first = _pictures()
    kept = sorted((tmp_path / "map-pieces").iterdir())
    kept[0].write_bytes(b"not zlib")
    for f in kept[1:]:
        f.write_bytes(f.read_bytes()[:-3])  # truncated
    _new_process()
    drawn.clear()
    assert _pictures() == first
    assert drawn  # nothing read: all drawn again


def test_off_keeps_nothing_and_a_shared_folder_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, drawn: list[str]
) -> None:
    monkeypatch.setenv("PBEM_TEMPLATE_CACHE", "off")
    assert store.folder() is None
    monkeypatch.delenv("PBEM_TEMPLATE_CACHE")
    monkeypatch.setattr(store.tempfile, "gettempdir", lambda: str(tmp_path))
    shared = tmp_path / f"pbem-map-pieces-{os.getuid()}"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)  # anybody could put pixels in players' mail
    _new_process()
    assert store.folder() is None
    boardmap.draw_png(sample_boards()[0])
    assert list(shared.iterdir()) == []
    shared.rmdir()
    _new_process()
    assert store.folder() == shared  # made by this process: private
    assert shared.stat().st_mode & 0o777 == 0o700


def test_a_full_folder_is_emptied_before_it_grows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, drawn: list[str]
) -> None:
    monkeypatch.setenv("PBEM_TEMPLATE_CACHE", str(tmp_path))
    monkeypatch.setattr(store, "KEPT", 3)
    folder = tmp_path / "map-pieces"
    folder.mkdir()
    for i in range(5):
        (folder / f"old{i}").write_bytes(b"x")
    boardmap.draw_png(sample_boards()[0])
    names = os.listdir(folder)
    assert names and not any(n.startswith("old") for n in names)
