"""genetic_algorithm's _draws chooses from index_draw's and draw_away_from's tables with
one rng.choice per draw: the same draws, and the generator left in the same state, as a
call of those helpers per draw (kept here), and their errors for tables with no draw."""

from __future__ import annotations

import random
from typing import Any

import pytest

from verification.catalog.optimization.genetic_algorithm import MUTATION_MARGIN, _draws
from verification.generators.optimization import draw_away_from, index_draw


def _by_calls(
    rng: random.Random, size: int, length: int, rate: float, generations: int
) -> list[list[dict[str, Any]]]:
    return [
        [
            {
                "select": [index_draw(rng, size) for _ in range(4)],
                "cross": index_draw(rng, length - 1),
                "mutate": [
                    [draw_away_from(rng, rate, MUTATION_MARGIN) for _ in range(length)]
                    for _ in range(2)
                ],
            }
            for _ in range(size // 2)
        ]
        for _ in range(generations)
    ]


@pytest.mark.parametrize("rate", [0.0, 0.1, 0.15, 0.2, 1.0])
def test_draws_are_a_call_per_draw(rate: float) -> None:
    for seed in range(60):
        pick = random.Random(seed)
        size, length, generations = (
            pick.choice((0, 1, 2, 4, 6)),
            pick.randint(2, 7),
            pick.randint(0, 4),
        )
        mine, theirs = random.Random(seed), random.Random(seed)
        assert _draws(mine, size, length, rate, generations) == _by_calls(
            theirs, size, length, rate, generations
        )
        assert mine.getstate() == theirs.getstate()


def test_a_length_with_no_crossover_point_is_refused_as_before() -> None:
    with pytest.raises(ValueError, match="among at least 1, got 0"):
        _draws(random.Random(1), 4, 1, 0.1, 2)
    with pytest.raises(ValueError, match="among at least 1, got 0"):
        _by_calls(random.Random(1), 4, 1, 0.1, 2)
