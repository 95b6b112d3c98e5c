"""Cases drawn once per test process and shared by the tests that draw the same ones.

A case is determined by its scaffold, tier, index and seed (the suites do not depend on the
hash seed: ``tests/catalog/test_scaffold_contract.py``), so a test that only reads a case
may take a copy of the one another test drew. Only the catalog's own specs at their tiers'
sizes are kept (the calibration cases several tests draw, and ``check``'s sweep of every
size draws again at each tier's own size), and at the default seed the cases past the
standard range (the stress tests' cases, the budgets' measures, the dry runs at the top of
the stress range); a spec built in a test, with the same name, or a case at another size
or seed, is drawn as asked. :func:`sharing_draws` makes a run's planner draw through it.

:func:`draw_each_case_once` is for one test that plans the same cases several times (an
estimate, the planner asked again to check it, then the run): for the rest of that test the
planner, the envelope search and code mode's suite draw each case once, at any size, and
reuse a copy of it (only the repeated work goes); :func:`drawing_each_case_once` does the
same for a module's tests, whose runs draw the same suite over and over (the cases
:func:`shared_draw` keeps are drawn once per process, between modules too).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from verification.cases import DEFAULT_SEED, TIERS, TestCase, Tier
from verification.catalog import default_catalog
from verification.catalog.drawing import draw_case
from verification.catalog.spec import ScaffoldSpec
from verification.certify.checks import CALIBRATION_SEED

__all__ = [
    "copy_case",
    "draw_each_case_once",
    "drawing_each_case_once",
    "shared_calibration_cases",
    "shared_draw",
    "sharing_draws",
]

_DRAWN: dict[tuple[str, Tier, int, int, int | None], TestCase] = {}

_ATOMS = frozenset({int, float, str, bool, type(None)})
"""The immutable leaves of a case's plain JSON data, shared by a copy as they are."""


def _copied(data: Any) -> Any:
    """A deep copy of plain JSON data (dicts, lists, tuples of atoms): what
    :func:`copy.deepcopy` makes, a few times faster (no memo, atoms not visited); anything
    else is deep-copied as ``deepcopy`` would."""
    kind = type(data)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else _copied(v) for k, v in data.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else _copied(v) for v in data]
    if kind is tuple:
        return tuple(v if type(v) in _ATOMS else _copied(v) for v in data)
    if kind in _ATOMS:
        return data
    return copy.deepcopy(data)


def copy_case(case: TestCase) -> TestCase:
    """A copy of ``case`` sharing nothing mutable with it (what ``case.model_copy(deep=True)``
    gives: a hook changing one changes no other), its ``input`` and ``expected`` copied by
    :func:`_copied` (the runs here copy thousands of cases)."""
    copied = {"input": _copied(case.input), "expected": _copied(case.expected)}
    return case.model_copy(update=copied)


def _kept_size(spec: ScaffoldSpec, tier: Tier, seed: int, size: int | None) -> int | bool | None:
    """The size a case is kept under (None: the tier's own), or False when it is not kept:
    at the default seed, sizes from the standard maximum to the top of the stress range are
    kept too (the stress tests, the budgets' measures and the dry runs at the top draw the
    same cases there); other sizes are one test's each (``check``'s sweep of every size)."""
    if size is None or size == spec.sizes[tier]:
        return None
    stress = spec.size.stress
    if seed == DEFAULT_SEED and stress and spec.size.ranges["standard"][1] <= size <= stress[1]:
        return size
    return False


def shared_draw(
    spec: ScaffoldSpec, tier: Tier, index: int, *, seed: int, size: int | None = None
) -> TestCase:
    """:func:`~verification.catalog.drawing.draw_case`, drawn once per process for the
    catalog's own specs at their tiers' sizes (asked by default or by naming that size:
    :func:`~verification.cases.generate_case` draws the same case either way, as ``check``'s
    sweep of every size asks it) and, at the default seed, at the sizes past the standard
    range (:func:`_kept_size`); each caller gets its own deep copy (a hook that changed a
    case in place would change no other test's). A failure is never kept: it raises again
    when asked again."""
    kept = _kept_size(spec, tier, seed, size)
    if kept is False or default_catalog().get(spec.name) is not spec:
        return draw_case(spec, tier, index, seed=seed, size=size)
    key = (spec.name, tier, index, seed, kept)
    drawn = _DRAWN.get(key)
    if drawn is None:
        drawn = _DRAWN[key] = draw_case(spec, tier, index, seed=seed, size=size)
    return copy_case(drawn)


def shared_calibration_cases(spec: ScaffoldSpec, count: int) -> Iterator[TestCase]:
    """:func:`~verification.certify.checks.calibration_cases` (``count`` cases of every
    tier at the calibration seed) through :func:`shared_draw`: the same cases, each drawn
    once per process between the tests that read them."""
    for tier in TIERS:
        for index in range(count):
            yield shared_draw(spec, tier, index, seed=CALIBRATION_SEED)


_DRAWING_MODULES = (
    "verification.run.case_plan",
    "verification.run.growth",
    "verification.run.programs",
)
"""The planner, the envelope's growth and code mode's suite: the modules that draw a run's
cases."""


def sharing_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the planner, the envelope search and code mode's suite draw through
    :func:`shared_draw` for the rest of the test (undone with ``monkeypatch``)."""
    for module in _DRAWING_MODULES:
        monkeypatch.setattr(f"{module}.draw_case", shared_draw)


def draw_each_case_once(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[Any, ...], TestCase]:
    """Make the planner, the envelope search and code mode's suite draw each case once for
    the rest of the test (undone with ``monkeypatch``); the drawn cases, by what says them.
    A case :func:`shared_draw` keeps (the catalog's own specs at their tiers' sizes, and past
    the standard range at the default seed) is taken from it: drawn once per process, for
    another module's runs too (the envelope estimates of tests/run/test_envelope_climb.py
    and tests/run/test_cost_and_concurrency.py climb the same sizes of kmp); the dict holds
    the others."""
    drawn: dict[tuple[Any, ...], TestCase] = {}
    specs: list[object] = []  # kept alive: their ids key the cases

    def once(spec: Any, tier: Any, index: int, *, seed: int, size: int | None = None) -> TestCase:
        if (
            _kept_size(spec, tier, seed, size) is not False
            and default_catalog().get(spec.name) is spec
        ):  # kept for the whole process: another module's runs may draw it too
            return shared_draw(spec, tier, index, seed=seed, size=size)
        key = (id(spec), tier, index, seed, size)
        if key not in drawn:
            drawn[key] = draw_case(spec, tier, index, seed=seed, size=size)
            specs.append(spec)
        return copy_case(drawn[key])  # a hook changing one changes no other

    for module in _DRAWING_MODULES:
        monkeypatch.setattr(f"{module}.draw_case", once)
    return drawn


@contextmanager
def drawing_each_case_once() -> Iterator[dict[tuple[Any, ...], TestCase]]:
    """:func:`draw_each_case_once` while the block runs (a module-scoped fixture's)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        yield draw_each_case_once(monkeypatch)
