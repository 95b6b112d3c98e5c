"""The provider and cache tests' shared fixtures: the fork server that starts ``python -m
verification`` as a process without a fresh interpreter's imports
(tests/support/preloaded.py), one per worker for the modules here; and, for each module,
files that need not reach the disk (tests/support/disk.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.disk import unsynced
from tests.support.preloaded import fork_server

__all__ = ["fork_server", "no_fsync"]


@pytest.fixture(scope="module", autouse=True)
def no_fsync() -> Iterator[None]:
    """The runs and caches of these tests write their files without waiting for the disk
    (:func:`~tests.support.disk.unsynced`); SQLite syncs the cache file itself, as always."""
    with unsynced():
        yield
