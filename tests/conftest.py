"""Shared fixtures: an isolated environment for every test."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """No test sees the developer's keys, settings or results folder."""
    import os

    for name in list(os.environ):
        if name.startswith(("VERIFY_", "ANTHROPIC_", "OPENAI_")):
            monkeypatch.delenv(name, raising=False)
    # Under GitHub Actions, runs the tests start must not write the job's own summary.
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    monkeypatch.setenv("VERIFY_RESULTS_DIR", str(tmp_path_factory.mktemp("results")))
