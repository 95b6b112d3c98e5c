"""The provider and cache tests' files need not reach the disk (tests/support/disk.py), for
each module. The fork server that starts ``python -m verification`` as a process without a
fresh interpreter's imports is registered for every folder by tests/conftest.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.disk import unsynced

__all__ = ["no_fsync"]


@pytest.fixture(scope="module", autouse=True)
def no_fsync() -> Iterator[None]:
    """The runs and caches of these tests write their files without waiting for the disk
    (:func:`~tests.support.disk.unsynced`); SQLite syncs the cache file itself, as always."""
    with unsynced():
        yield
