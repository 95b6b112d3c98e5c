"""hill_climbing's landscape draws each cell's noise as Random.uniform's formula on
rng.random() when the generator's uniform is Random's: the same grid as calling uniform
per cell, which a generator with a uniform of its own still gets."""

from __future__ import annotations

import random

import pytest

from verification.catalog.optimization.hill_climbing import landscape


class _Counted(random.Random):
    """Random's uniform, called and counted: the path that calls uniform for every cell."""

    calls = 0

    def uniform(self, a: float, b: float) -> float:
        self.calls += 1
        return super().uniform(a, b)


@pytest.mark.parametrize(("rows", "columns", "peaks"), [(1, 1, 1), (3, 3, 2), (5, 4, 3), (9, 9, 2)])
def test_the_noise_is_uniforms(rows: int, columns: int, peaks: int) -> None:
    for seed in range(40):
        plain, counted = random.Random(seed), _Counted(seed)
        assert landscape(plain, rows, columns, peaks) == landscape(counted, rows, columns, peaks)
        assert plain.getstate() == counted.getstate()
        assert counted.calls == peaks + rows * columns
