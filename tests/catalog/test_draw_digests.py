"""The cases drawn by generators made faster are the cases drawn before: a digest of the
first two cases at every size of every tier (the stress range whole) of each such scaffold,
pinned to the digest the generator drew before it was made faster. Suites are digested and
compared across runs and machines, so a faster generator must not change one case."""

from __future__ import annotations

import hashlib
import json

import pytest

from verification.cases import DEFAULT_SEED, TIERS, Tier, generate_case
from verification.catalog.spec import STRESS_TIERS
from verification.registry import SPECS

DRAWN_BEFORE = {
    "bfs": "f994aefbddb1d4ea5a69995570a0118234c08bd031155ad0e775e77faf8dbb53",
    "bisection": "ca30d9d8075c4e78ce2bb6db8beaff4f9a4d8f30fbee9dfe192661fbe618ae06",
    "dfs": "9d33caa0950eef3e15205f7eb828c88e4b4f086dd01f8e4f2fcabef3f0f6dca3",
    "edit_distance": "3e0e5783c1b0e87827f21edbb5bade9afe79254ba31f6a128d2d9064fc6b813d",
    "floyd_warshall": "d15bc825e18374346e423179568cae4a129203f769e89492cc1dfdc7c83b231b",
    "fractional_knapsack": "77b8e1172f418bcbbb127898ed40cbad146fadc8862444a548ec14993f36692f",
    "genetic_algorithm": "5fc20a97a2b8ddeaae60984a315a0afb43fa4d2e1ad03f072f1f9edd07aa3b82",
    "gradient_descent": "1a36e5e697d8cb903c56f1212353524c78d16eb06effa8b9d6bc68de7f06fcba",
    "graph_coloring": "b1f6aad6cbae6afcf953c02fd220afe54f511c8b81a2e461edde131ca254d58c",
    "hill_climbing": "8dfd8e5e8c54ee0e9670e886595030e4cfd509efd1e94966822df5fb101174cb",
    "kmp": "c731a040b5fa81810e2c7975e7b0348090292b7856c9e7ba8c25d93c02d7e6f2",
    "kruskal": "32bfb930f195b77b119d19a40c07b6eaba9315aededb17b1b566fd16f9a76fb7",
    "matrix_chain": "8a0c65971fe6a63b8c6480a777f3594aad24f4d6b8a0d06c9bc331f4b8fbd071",
    "monte_carlo": "55165715966f7d82e8f408095f118fbc72b1ead8b04f1fe59425ddca360a00f2",
    "n_queens": "26aa5756f02b24d9488096d77081efd7389f8bacfb4b8edfb53b8623dd58901b",
    "newton_raphson": "9e10ce34522228fa728be997719ea6840e0f4cc1874f39549b9d997c38d99ade",
    "simulated_annealing": "a79b3388d30bee683b87bab92833c804ea575ecd05f71fe45c7411831337014d",
    "subset_sum": "12f1b6ad2858d66cb2b662ead9e6ddf7594ffd523eb9ac16317f996a9b8a99d6",
    "sudoku": "f43d61ae6c08389795e93d370b41eb6ac3ab54858db66193f1103f48135a10e9",
    "topological_sort": "027162d3da8390c2cf01ece5c3de1ebfe06c05967ab2b00d44071eff555aa1db",
}
"""Per scaffold, the digest of its draws before its generator was made faster."""


def draw_digest(name: str, per_size: int = 2) -> str:
    """The sha256 of the first ``per_size`` cases (input, expected answer, id) at every
    size of every tier's range and of the stress range, seed :data:`DEFAULT_SEED`."""
    spec = SPECS[name]
    cells: list[tuple[Tier, int]] = [
        (tier, size)
        for tier in TIERS
        for size in range(spec.size.ranges[tier][0], spec.size.ranges[tier][1] + 1)
    ]
    if spec.size.stress is not None:
        low, high = spec.size.stress
        cells += [(tier, size) for tier in STRESS_TIERS for size in range(low, high + 1)]
    digest = hashlib.sha256()
    for tier, size in cells:
        for index in range(per_size):
            case = generate_case(spec, tier, index, seed=DEFAULT_SEED, size=size)
            digest.update(json.dumps(case.model_dump(), sort_keys=True).encode())
    return digest.hexdigest()


@pytest.mark.slow  # every stress size drawn: 0.4 to 1.6 s a scaffold
@pytest.mark.parametrize("name", sorted(DRAWN_BEFORE))
def test_faster_generators_draw_the_same_cases(name: str) -> None:
    assert draw_digest(name) == DRAWN_BEFORE[name]
