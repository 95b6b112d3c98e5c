"""The tests' temporary folders go in memory only where files written there can run and
there is room (tests/support/memory_temp.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.memory_temp import MEMORY_TEMP_ROOM, memory_temp_fits


def _statvfs(flags: int, free_bytes: int) -> os.statvfs_result:
    block = 4096
    blocks = free_bytes // block
    return os.statvfs_result((block, block, blocks, blocks, blocks, 0, 0, 0, flags, 255))


@pytest.mark.parametrize(
    ("flags", "free", "fits"),
    [
        (0, MEMORY_TEMP_ROOM, True),
        (os.ST_NOEXEC, MEMORY_TEMP_ROOM, False),  # a script written there cannot run
        (os.ST_NOSUID | os.ST_NODEV, MEMORY_TEMP_ROOM, True),
        (0, MEMORY_TEMP_ROOM - 4096, False),
    ],
)
def test_a_folder_fits_when_files_there_run_and_it_has_room(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flags: int, free: int, fits: bool
) -> None:
    monkeypatch.setattr(os, "statvfs", lambda folder: _statvfs(flags, free))
    monkeypatch.setattr(os, "sysconf", lambda name: 2**40 if name == "SC_AVPHYS_PAGES" else 1)
    assert memory_temp_fits(tmp_path) is fits


def test_a_folder_does_not_fit_without_the_memory_to_back_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "statvfs", lambda folder: _statvfs(0, 2 * MEMORY_TEMP_ROOM))
    pages = {"SC_AVPHYS_PAGES": MEMORY_TEMP_ROOM // 4096 - 1, "SC_PAGE_SIZE": 4096}
    monkeypatch.setattr(os, "sysconf", pages.__getitem__)
    assert not memory_temp_fits(tmp_path)


def test_a_folder_that_is_not_there_does_not_fit(tmp_path: Path) -> None:
    assert not memory_temp_fits(tmp_path / "missing")
