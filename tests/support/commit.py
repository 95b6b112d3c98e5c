"""The commit a run's manifest records, read once per test module.

Each run's manifest records :func:`~verification.store.code_version.code_version`, which runs
``git rev-parse --short HEAD`` (about 2 ms of CPU in the child and a fork of the whole test
process: 5 to 10 ms in a worker that has imported the harness). Nothing in a test commits to
the checkout the tests run from, so every run of a module records the same commit; the
modules that make many runs (tests/run, tests/reports, tests/compose, tests/certify) read it
once (:func:`commit_read_once`, imported by their conftests). ``code_version`` itself is
unchanged and is tested as it runs (tests/cli/test_cli.py), as is every process a test starts.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator

import pytest

from verification.run import manifest as run_manifest

__all__ = ["commit_read_once", "reading_the_commit_once"]


@contextlib.contextmanager
def reading_the_commit_once() -> Iterator[None]:
    """While the block runs, the manifests' ``code_version`` runs ``git`` once."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(
            run_manifest, "code_version", functools.cache(run_manifest.code_version)
        )
        yield


@pytest.fixture(scope="module", autouse=True)
def commit_read_once() -> Iterator[None]:
    """The runs of each module record the commit its first run read (one ``git rev-parse``
    per module rather than one per run)."""
    with reading_the_commit_once():
        yield
