"""What is peculiar to ``kmp``: its oracle, a naive scan of every window.

(The reference's own cross-checks live in ``tests/reference/test_string_algo.py``.)
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.stress import assert_holds_at_stress, stress_cells
from verification.cases import Tier

# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset({"positions"})


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``positions`` lists every window equal to the pattern, ascending."""
    text, pattern = test_input["text"], test_input["pattern"]
    windows = range(len(text) - len(pattern) + 1) if pattern else range(0)
    return answer == {"positions": [i for i in windows if text[i : i + len(pattern)] == pattern]}


def test_the_oracle_counts_overlapping_matches() -> None:
    assert oracle({"text": "AAA", "pattern": "AA"}, {"positions": [0, 1]})
    assert not oracle({"text": "AAA", "pattern": "AA"}, {"positions": [0]})


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("kmp"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    assert_holds_at_stress("kmp", oracle, tier, size, index)
