"""``search_lines`` (the n_queens generator's count of the scaffold's shown search, a
bit-mask search) held to brute force: every prefix of rows the search can reach, counted
over all column tuples, on small boards with and without placed queens."""

from __future__ import annotations

import random
from itertools import product

import pytest

from verification.catalog.backtracking.n_queens import search_lines


def _attacks(r1: int, c1: int, r2: int, c2: int) -> bool:
    return c1 == c2 or abs(c1 - c2) == abs(r1 - r2)


def _brute_lines(n: int, placed: list[list[int]]) -> int:
    """The search's lines: each prefix (rows 0..k-1, k = 0..n) whose placed rows hold the
    placed queen and whose other rows hold a queen no placed queen and no earlier row
    attacks (a placed row is passed unchecked, as the scaffold passes it)."""
    fixed = {row: col for row, col in placed}
    lines = 0
    for k in range(n + 1):
        for prefix in product(range(n), repeat=k):
            lines += all(
                prefix[r] == fixed[r]
                if r in fixed
                else not any(_attacks(r, prefix[r], fr, fc) for fr, fc in fixed.items())
                and not any(_attacks(r, prefix[r], i, prefix[i]) for i in range(r))
                for r in range(k)
            )
    return lines


@pytest.mark.parametrize("n", range(1, 6))
def test_search_lines_matches_brute_force(n: int) -> None:
    rng = random.Random(f"search-lines:{n}")
    for _ in range(12):
        rows = sorted(rng.sample(range(n), rng.randint(0, min(3, n))))
        placed = [[row, rng.randrange(n)] for row in rows]
        total = _brute_lines(n, placed)
        assert search_lines(n, placed) == total, placed
        # With a limit, the count passes it exactly when the whole search does.
        for limit in (1, total - 1, total, total + 1):
            counted = search_lines(n, placed, limit)
            assert (counted > limit) == (total > limit), (placed, limit)
            if total <= limit:
                assert counted == total
