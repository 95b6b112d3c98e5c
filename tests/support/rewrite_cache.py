"""pytest's rewritten test modules written once per checkout, before the xdist workers start.

pytest rewrites each test module's ``assert`` statements when it first imports it and keeps
the result beside the source (``__pycache__/*-pytest-<version>.pyc``). In a fresh checkout no
module has one yet, and the workers, which start together and collect the same modules in
the same order, each rewrite every module: measured on two cores, collection took 4.3 to 4.9
s of CPU in a process with the rewritten modules kept and 7.6 to 8.5 s without, so a clean
clone's three workers spent about 10 s of CPU rewriting what one pass could have written.
:func:`write_rewritten_modules` is that pass, run by the xdist controller before it starts
the workers, the modules shared among as many processes as there are cores; each worker
then finds every module rewritten, as in a checkout that has run its tests before.

It calls pytest's own rewriting (``_pytest.assertion.rewrite``), which pytest does not
promise as an API: where that fails in any way, nothing is written and the workers rewrite
as they always did, so the tests run the same either way; only their speed changes.
"""

from __future__ import annotations

import fnmatch
import multiprocessing
import os
import sys
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

__all__ = ["stale_modules", "write_rewritten_modules"]

_CONFIG: pytest.Config | None = None
"""The controller's configuration, which the forked writers inherit (it does not pickle)."""


def stale_modules(config: pytest.Config, folders: Iterable[Path]) -> list[Path]:
    """The test modules under ``folders`` (named as ``python_files`` names them) whose
    rewritten form pytest would not find up to date, and so would rewrite on import."""
    from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, get_cache_dir

    patterns: Sequence[str] = config.getini("python_files")
    stale = []
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            if not any(fnmatch.fnmatch(path.name, pattern) for pattern in patterns):
                continue
            if _read_pyc(path, get_cache_dir(path) / (path.name[:-3] + PYC_TAIL)) is None:
                stale.append(path)
    return stale


def _write(paths: Sequence[Path]) -> int:
    """Rewrite ``paths`` as pytest would on import and keep each where pytest looks; the
    number written. A module that does not compile is left for its import to report."""
    from _pytest.assertion.rewrite import (
        PYC_TAIL,
        _rewrite_test,
        _write_pyc,
        assertstate_key,
        get_cache_dir,
        try_makedirs,
    )

    assert _CONFIG is not None
    state = _CONFIG.stash[assertstate_key]
    written = 0
    for path in paths:
        cache = get_cache_dir(path)
        if not try_makedirs(cache):
            continue
        try:
            # The first item is what pytest 8.0 calls source_stat and pytest 9 source_hash:
            # either way _write_pyc takes it as it came.
            source, code = _rewrite_test(path, _CONFIG)
        except SyntaxError:
            continue
        written += _write_pyc(state, code, source, cache / (path.name[:-3] + PYC_TAIL))
    return written


def write_rewritten_modules(
    config: pytest.Config, folders: Iterable[Path], processes: int | None = None
) -> int:
    """Write the rewritten form of every stale test module under ``folders``, in
    ``processes`` forked processes (one per core when ``None``; ``1``: in this one), and
    return how many were written. Nothing is written, and 0 returned, where pytest does
    not rewrite (``--assert=plain``, ``PYTHONDONTWRITEBYTECODE``) or its rewriting is not
    what this was written against."""
    global _CONFIG
    if sys.dont_write_bytecode or config.getoption("assertmode") != "rewrite":
        return 0
    _CONFIG = config
    try:
        stale = stale_modules(config, folders)
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
        processes = min(processes or cores, len(stale))
        if processes <= 1:
            return _write(stale)
        shares = [stale[start::processes] for start in range(processes)]
        with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("fork")) as pool:
            return sum(pool.map(_write, shares))
    except Exception:  # pytest's private rewriting changed: the workers rewrite as before
        return 0
    finally:
        _CONFIG = None
