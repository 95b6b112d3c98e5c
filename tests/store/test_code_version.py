"""The version a run records is read once per process."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

from verification.store import code_version as module


def test_the_commit_is_asked_of_git_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[Any] = []
    real = subprocess.run

    def counted(*args: Any, **kwargs: Any) -> Any:
        asked.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(subprocess, "run", counted)
    module.code_version.cache_clear()
    try:
        first = module.code_version()
        assert [module.code_version() for _ in range(3)] == [first] * 3
        assert len(asked) <= 1  # none when the package runs from no checkout of its own
        assert first.startswith(module.installed_version())
    finally:
        module.code_version.cache_clear()
