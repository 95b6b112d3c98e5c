"""Shared fixtures: an isolated environment for every test, and the scaffold tests'
oracles."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

CATALOG_TESTS = Path(__file__).parent / "catalog"


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


@pytest.fixture(scope="session")
def scaffold_tests() -> dict[str, ModuleType]:
    """Each packaged scaffold's test module ``tests/catalog/test_<name>.py``, by name.

    Each holds the scaffold's ``oracle(input, answer)``, written from the scaffold and
    independent of its validator and reference, which other tests reuse. All are loaded
    at once, before any test body runs: each declares hypothesis tests, which hypothesis
    refuses to build inside a running one.
    """
    from verification.catalog import default_catalog

    modules = {}
    for name in default_catalog():
        path = CATALOG_TESTS / f"test_{name}.py"
        if not path.is_file():  # a plugin's scaffold: its tests live with the plugin
            continue
        spec = importlib.util.spec_from_file_location(f"_scaffold_test_of_{name}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        modules[name] = module
    return modules
