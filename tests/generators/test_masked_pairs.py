"""``MaskedPairs``, the pairs a DAG's extra edges and a cycle's back edge (topological_sort)
and a graph's edges besides its spanning tree (``pairs_with_random_tree``: kruskal) are
drawn from, is the list it stands for: the same items in the same order, so ``rng.sample``
and ``rng.choice`` draw the same from either."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from verification.generators.graph import (
    MaskedPairs,
    pairs_with_random_tree,
    random_tree_pairs,
    vertex_labels,
)


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


def test_the_pairs_with_a_random_tree_are_drawn_from_every_other_pair() -> None:
    """``pairs_with_random_tree`` samples the pairs of ``combinations(vertices, 2)`` that
    are not the tree's, sorted: as it did from that list, whatever the vertices' order."""
    rng = random.Random(27)
    for _ in range(200):
        vertices = vertex_labels(rng.choice([1, 2, 3, 5, 8, 26, 27, 40]))
        if rng.random() < 0.5:
            rng.shuffle(vertices)
        count, seed = rng.randint(0, len(vertices) ** 2), rng.random()
        pairs = pairs_with_random_tree(random.Random(seed), vertices, count)
        # The same draw from the list itself.
        listed_rng = random.Random(seed)
        tree = random_tree_pairs(listed_rng, vertices)
        joined = {frozenset(pair) for pair in tree}
        others = sorted(p for p in combinations(vertices, 2) if frozenset(p) not in joined)
        tree.update(listed_rng.sample(others, min(len(others), max(0, count - len(tree)))))
        assert pairs == sorted(tree)
