"""``MaskedPairs``, the pairs a DAG's extra edges and a cycle's back edge are drawn from
(topological_sort), is the list it stands for: the same items in the same order, so
``rng.sample`` and ``rng.choice`` draw the same from either."""

from __future__ import annotations

import random

import pytest

from verification.generators.graph import MaskedPairs


def _listed(labels: list[str], masks: list[int], *, flip: bool) -> list[tuple[str, str]]:
    return [
        (labels[j], labels[i]) if flip else (labels[i], labels[j])
        for i in range(len(labels))
        for j in range(len(labels))
        if masks[i] >> j & 1
    ]


@pytest.mark.parametrize("flip", [False, True])
def test_masked_pairs_are_the_list_they_stand_for(flip: bool) -> None:
    rng = random.Random(26)
    for _ in range(200):
        size = rng.randint(0, 12)
        labels = [f"v{i}" for i in range(size)]
        masks = [rng.getrandbits(size) for _ in range(size)]
        listed = _listed(labels, masks, flip=flip)
        pairs = MaskedPairs(labels, masks, flip=flip)
        assert len(pairs) == len(listed) and bool(pairs) == bool(listed)
        assert list(pairs) == listed and pairs[:] == listed and pairs[1::3] == listed[1::3]
        assert [pairs[-k] for k in range(1, len(listed) + 1)] == listed[::-1]
        for beyond in (len(listed), -len(listed) - 1):
            with pytest.raises(IndexError):
                pairs[beyond]
        if listed:
            count = rng.randint(0, len(listed))
            seed = rng.random()
            assert random.Random(seed).sample(pairs, count) == random.Random(seed).sample(
                listed, count
            )
            assert random.Random(seed).choice(pairs) == random.Random(seed).choice(listed)
