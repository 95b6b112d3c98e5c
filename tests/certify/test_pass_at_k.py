"""pass@k against its definition: the share of k-subsets of the n programs holding a pass."""

from __future__ import annotations

import itertools

import pytest

from verification.certify.pass_at_k import pass_at_k, pass_at_ks


@pytest.mark.parametrize(("n", "c"), [(n, c) for n in range(1, 8) for c in range(n + 1)])
def test_pass_at_k_is_the_share_of_k_subsets_with_a_passing_program(n: int, c: int) -> None:
    programs = [True] * c + [False] * (n - c)
    for k in range(1, n + 1):
        subsets = list(itertools.combinations(programs, k))
        assert pass_at_k(n, c, k) == pytest.approx(sum(map(any, subsets)) / len(subsets))


def test_pass_at_ks_names_one_and_n_and_refuses_nonsense() -> None:
    assert list(pass_at_ks(12, 3)) == [1, 5, 10, 12]
    assert pass_at_ks(12, 3)[1] == pytest.approx(3 / 12)
    with pytest.raises(ValueError):
        pass_at_k(3, 4, 1)
