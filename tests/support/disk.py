"""Files a test process writes without waiting for the disk.

:func:`unsynced` makes ``os.fsync`` return at once in this process: what the harness writes
(journals, manifests, summaries) is written and flushed as always, so a process killed in a
test leaves it as a crash does, but no call waits for the disk (about 5 ms on an idle disk,
10 to 15 under load; a run makes three or more). ``fsync`` adds only survival of a power cut
or a kernel crash, which no test makes; a test of the syncs themselves, and every process a
test starts, sync as always.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import pytest

__all__ = ["no_fsync", "unsynced"]


@contextlib.contextmanager
def unsynced() -> Iterator[None]:
    """``os.fsync`` does nothing in this process within the ``with`` block."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(os, "fsync", lambda fd: None)
        yield


@pytest.fixture(scope="module", autouse=True)
def no_fsync() -> Iterator[None]:
    """Each module's tests write without waiting for the disk (:func:`unsynced`), for the
    folders whose conftest imports it (tests/run, tests/llm, tests/store, tests/reports,
    tests/compose, tests/certify, tests/browser). A module that
    counts syncs defines a ``no_fsync`` of its own that only yields."""
    with unsynced():
        yield
