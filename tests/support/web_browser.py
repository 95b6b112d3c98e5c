"""The browser Python's :mod:`webbrowser` starts, chosen by ``BROWSER`` in this process as a
fresh interpreter chooses it: the module reads ``BROWSER`` at its first use and keeps what it
found, so a test that names a browser empties that registry for its block (and gives it back
after) instead of starting ``python -m verification view`` in a process of its own."""

from __future__ import annotations

import webbrowser
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

__all__ = ["browser_named"]


@contextmanager
def browser_named(command: str) -> Iterator[None]:
    """While the block runs, ``webbrowser.open`` starts ``command`` (``BROWSER`` set to it,
    the module's registry of browsers empty, so it is read again at the next open)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setenv("BROWSER", command)
        monkeypatch.setattr(webbrowser, "_tryorder", None)
        monkeypatch.setattr(webbrowser, "_browsers", {})
        monkeypatch.setattr(webbrowser, "_os_preferred_browser", None)
        yield
