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


def _fits(r: int, prefix: tuple[int, ...], fixed: dict[int, int]) -> bool:
    """Row ``r`` of ``prefix`` holds the placed queen (a placed row), or a queen no placed
    queen and no earlier row attacks."""
    if r in fixed:
        return prefix[r] == fixed[r]
    return not any(_attacks(r, prefix[r], fr, fc) for fr, fc in fixed.items()) and not any(
        _attacks(r, prefix[r], i, prefix[i]) for i in range(r)
    )


def _brute_lines(n: int, placed: list[list[int]]) -> int:
    """The search's lines: each prefix (rows 0..k-1, k = 0..n) whose placed rows hold the
    placed queen and whose other rows hold a queen no placed queen and no earlier row
    attacks (a placed row is passed unchecked, as the scaffold passes it). Every column
    tuple of every length is tried; one whose shorter prefix is a line needs its last row
    checked only (the other rows were, as that prefix)."""
    fixed = {row: col for row, col in placed}
    lines, shorter = 1, {()}  # the empty prefix
    for k in range(1, n + 1):
        shorter = {
            prefix
            for prefix in product(range(n), repeat=k)
            if prefix[:-1] in shorter and _fits(k - 1, prefix, fixed)
        }
        lines += len(shorter)
    return lines


def _brute_lines_by_definition(n: int, placed: list[list[int]]) -> int:
    """:func:`_brute_lines` as the definition reads: every row of every tuple checked."""
    fixed = {row: col for row, col in placed}
    return sum(
        all(_fits(r, prefix, fixed) for r in range(k))
        for k in range(n + 1)
        for prefix in product(range(n), repeat=k)
    )


def test_the_line_count_is_the_one_checked_row_by_row() -> None:
    rng = random.Random("search-lines:definition")
    for n in range(1, 5):
        for _ in range(6):
            rows = sorted(rng.sample(range(n), rng.randint(0, min(3, n))))
            placed = [[row, rng.randrange(n)] for row in rows]
            assert _brute_lines(n, placed) == _brute_lines_by_definition(n, placed), placed


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
