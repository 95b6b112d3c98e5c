"""The run tests' shared fixtures, registered here so that one instance serves every module
of a worker: the fork server that starts ``python -m verification`` as a process
(tests/support/preloaded.py); and, for each module, files that need not reach the disk."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.support.preloaded import fork_server

__all__ = ["fork_server", "no_fsync"]


@pytest.fixture(scope="module", autouse=True)
def no_fsync() -> Iterator[None]:
    """``os.fsync`` returns at once in this process while a module's tests run: the runs
    here write their journals, manifests and batch logs as always (written and flushed, so
    a process killed in a test leaves them as a crash does), but none waits for the disk,
    about 5 ms a call on an idle disk and 15 ms under load, three or more a run. What an
    ``fsync`` adds is only survival of a power cut or a kernel crash, which no test here
    makes; the processes the fork server starts sync as always."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(os, "fsync", lambda fd: None)
        yield
