"""Whether the tests' temporary folders may live in memory (``tests/conftest.py``)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["MEMORY_TEMP", "MEMORY_TEMP_ROOM", "memory_temp_fits"]

MEMORY_TEMP = Path("/dev/shm")
"""A folder in memory (tmpfs) on Linux, for the tests' temporary folders when it has room."""
MEMORY_TEMP_ROOM = 4 * 2**30
"""The room, in the folder and in free memory, below which the tests keep to the system's
temp folder (pytest keeps its last three sessions' folders, a whole suite's a few hundred
megabytes)."""


def memory_temp_fits(folder: Path = MEMORY_TEMP) -> bool:
    """Whether ``folder`` can hold the tests' temporary folders: it is there, writable, lets
    files run (some tests write a script and run it: a ``noexec`` mount, as hardened hosts
    and Docker's ``--shm-size`` make, would fail them) and has :data:`MEMORY_TEMP_ROOM`
    free, in itself and in the machine's memory (a tmpfs's size is a cap, not free memory)."""
    try:
        room = os.statvfs(folder)
        free_memory = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):  # no such folder, or no such figure: not Linux
        return False
    return (
        os.access(folder, os.W_OK)
        and not room.f_flag & os.ST_NOEXEC
        and room.f_bavail * room.f_frsize >= MEMORY_TEMP_ROOM
        and free_memory >= MEMORY_TEMP_ROOM
    )
