"""Cases drawn once per test process and shared by the tests that draw the same ones.

A case is determined by its scaffold, tier, index and seed (the suites do not depend on the
hash seed: ``tests/catalog/test_scaffold_contract.py``), so a test that only reads a case
may take a copy of the one another test drew. Only the catalog's own specs at their tiers'
sizes are kept (the calibration cases several tests draw); a spec built in a test, with the
same name, or a case at a size asked for, is drawn as asked.

:func:`draw_each_case_once` is for one test that plans the same cases several times (an
estimate, the planner asked again to check it, then the run): for the rest of that test the
planner and the envelope search draw each case once, at any size, and reuse it (a
``TestCase`` is frozen; only the repeated work goes).
"""

from __future__ import annotations

from typing import Any

import pytest

from verification.cases import TestCase, Tier
from verification.catalog import default_catalog
from verification.catalog.drawing import draw_case
from verification.catalog.spec import ScaffoldSpec

__all__ = ["draw_each_case_once", "shared_draw"]

_DRAWN: dict[tuple[str, Tier, int, int], TestCase] = {}


def shared_draw(
    spec: ScaffoldSpec, tier: Tier, index: int, *, seed: int, size: int | None = None
) -> TestCase:
    """:func:`~verification.catalog.drawing.draw_case`, drawn once per process for the
    catalog's own specs at their tiers' sizes; each caller gets its own deep copy (a hook
    that changed a case in place would change no other test's). A failure is never kept:
    it raises again when asked again."""
    if size is not None or default_catalog().get(spec.name) is not spec:
        return draw_case(spec, tier, index, seed=seed, size=size)
    key = (spec.name, tier, index, seed)
    drawn = _DRAWN.get(key)
    if drawn is None:
        drawn = _DRAWN[key] = draw_case(spec, tier, index, seed=seed)
    return drawn.model_copy(deep=True)


_DRAWING_MODULES = ("verification.run.plan", "verification.run.growth")
"""The planner and the envelope's growth: the modules that draw a run's cases."""


def draw_each_case_once(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[Any, ...], TestCase]:
    """Make the planner and the envelope search draw each case once for the rest of the
    test (undone with ``monkeypatch``); the drawn cases, by what says them."""
    drawn: dict[tuple[Any, ...], TestCase] = {}
    specs: list[object] = []  # kept alive: their ids key the cases

    def once(spec: Any, tier: Any, index: int, *, seed: int, size: int | None = None) -> TestCase:
        key = (id(spec), tier, index, seed, size)
        if key not in drawn:
            drawn[key] = draw_case(spec, tier, index, seed=seed, size=size)
            specs.append(spec)
        return drawn[key]

    for module in _DRAWING_MODULES:
        monkeypatch.setattr(f"{module}.draw_case", once)
    return drawn
