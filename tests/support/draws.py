"""Cases drawn once per test process and shared by the tests that draw the same ones.

A case is determined by its scaffold, tier, index and seed (the suites do not depend on the
hash seed: ``tests/catalog/test_scaffold_contract.py``), so a test that only reads a case
may take a copy of the one another test drew. Only the catalog's own specs at their tiers'
sizes are kept (the calibration cases several tests draw); a spec built in a test, with the
same name, or a case at a size asked for, is drawn as asked.
"""

from __future__ import annotations

from verification.cases import TestCase, Tier
from verification.catalog import default_catalog
from verification.catalog.drawing import draw_case
from verification.catalog.spec import ScaffoldSpec

__all__ = ["shared_draw"]

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
