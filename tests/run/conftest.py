"""The run tests' shared fixtures, registered here so that one instance serves every module
of a worker: the fork server that starts ``python -m verification`` as a process
(tests/support/preloaded.py)."""

from __future__ import annotations

from tests.support.preloaded import fork_server

__all__ = ["fork_server"]
