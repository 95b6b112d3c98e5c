"""A fork server (:mod:`tests.support.preloaded`) that has not imported the model SDK: for
command lines that never ask a model (a dry run, ``check``, ``list``, ``cache``, a command
refused before it runs), whose children need not inherit it, and whose server then starts
in about a second of CPU rather than five (the SDK's import is most of a full server's)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.support.preloaded import PRELOAD, ForkServer, session_fork_server

__all__ = ["LIGHT_PRELOAD", "SDK_MODULES", "light_fork_server"]

SDK_MODULES = ("anthropic", "anyio", "httpcore2", "truststore", "verification.llm.")
"""What a dry run or ``check`` never imports: the model SDK and its client's modules."""

LIGHT_PRELOAD = tuple(name for name in PRELOAD if not name.startswith(SDK_MODULES))
""":data:`~tests.support.preloaded.PRELOAD` without :data:`SDK_MODULES`."""


@contextmanager
def light_fork_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ForkServer]:
    """A :class:`~tests.support.preloaded.ForkServer` of :data:`LIGHT_PRELOAD` for a
    fixture of ``request``'s session: its xdist workers share one
    (:func:`~tests.support.preloaded.session_fork_server`)."""
    with session_fork_server(request, tmp_path_factory, LIGHT_PRELOAD) as server:
        yield server
