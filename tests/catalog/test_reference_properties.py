"""The reference's property test, from the spec (issue 27 item 15): for every registered
scaffold, hypothesis draws inputs over every tier and every size of the tier's declared range
(a seed and a case index), and the scaffold's oracle, ``oracle(input, answer)`` in
``tests/catalog/test_<name>.py``, says the reference's answer is right.

So a new scaffold's reference is held to its independent oracle on drawn inputs by being
registered: no test file per reference is needed (``tests/reference/`` keeps what a generator
never draws: ties, zero widths, exact roots, bad input).
"""

from __future__ import annotations

from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verification.cases import TIERS, Tier, generate_case
from verification.catalog import default_catalog

CATALOG = default_catalog()
OWN = [name for name in CATALOG if CATALOG.origins[name].startswith("verification.catalog.")]
"""The package's own scaffolds (an installed plugin brings its own tests)."""


@st.composite
def drawn_cases(draw: st.DrawFn, name: str) -> tuple[Tier, int, int, int]:
    """A tier, a size of its declared range, a seed and a case index."""
    spec = CATALOG[name]
    tier = draw(st.sampled_from(TIERS))
    low, high = spec.size.ranges[tier]
    return (
        tier,
        draw(st.integers(low, high)),
        draw(st.integers(0, 2**32 - 1)),
        draw(st.integers(0, 999)),
    )


@pytest.mark.slow  # every scaffold, up to each range's largest size
@pytest.mark.parametrize("name", OWN)
def test_the_reference_answers_what_the_oracle_accepts(
    name: str, scaffold_tests: dict[str, ModuleType]
) -> None:
    spec, oracle = CATALOG[name], scaffold_tests[name].oracle

    @settings(
        max_examples=15,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(drawn_cases(name))
    def holds(drawn: tuple[Tier, int, int, int]) -> None:
        tier, size, seed, index = drawn
        case = generate_case(spec, tier, index, seed=seed, size=size)
        assert oracle(case.input, case.expected), (case.id, seed, case.input, case.expected)

    holds()
