"""The scripts of ``benchmarks/``, loaded as modules by the tests that hold their figures and
rules: a benchmark is a script, not a package module, so it is loaded from its path."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["BENCHMARKS", "load_benchmark"]

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
"""The repository's ``benchmarks/`` folder."""


def load_benchmark(name: str) -> ModuleType:
    """``benchmarks/<name>.py`` as the module ``name`` (registered in ``sys.modules``, where
    its dataclasses look their module up); loaded once per process."""
    path = BENCHMARKS / f"{name}.py"
    loaded = sys.modules.get(name)
    if loaded is not None and getattr(loaded, "__file__", None) == str(path):
        return loaded
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, f"no benchmark {name}"
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
