"""The provider and cache tests' shared fixture: the fork server that starts ``python -m
verification`` as a process without a fresh interpreter's imports
(tests/support/preloaded.py), one per worker for the modules here."""

from __future__ import annotations

from tests.support.preloaded import fork_server

__all__ = ["fork_server"]
