"""The generators' own hop counts agree with the reference BFS they stand in for."""

from __future__ import annotations

import random

import pytest

from verification.generators.graph import hop_counts, vertex_labels
from verification.reference.graph import bfs


@pytest.mark.parametrize("seed", range(200))
def test_hop_counts_are_the_reference_bfs_distances(seed: int) -> None:
    rng = random.Random(seed)
    labels = vertex_labels(rng.randint(1, 12))
    pairs = [
        (rng.choice(labels), rng.choice(labels)) for _ in range(rng.randint(0, 2 * len(labels)))
    ]
    source, directed = rng.choice(labels), rng.random() < 0.5
    expected = bfs(labels, [list(pair) for pair in pairs], source, directed)["distances"]
    assert hop_counts(labels, pairs, source, directed) == expected
