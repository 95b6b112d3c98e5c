"""The run tests' files need not reach the disk (tests/support/disk.py), for each module.
The fork server they start command lines from is registered for every folder by
tests/conftest.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.disk import unsynced

__all__ = ["no_fsync"]


@pytest.fixture(scope="module", autouse=True)
def no_fsync() -> Iterator[None]:
    """The runs here write their journals, manifests and batch logs without waiting for the
    disk (:func:`~tests.support.disk.unsynced`); the processes the fork server starts sync
    as always."""
    with unsynced():
        yield
