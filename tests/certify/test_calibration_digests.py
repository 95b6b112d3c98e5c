"""Calibration made faster judges as before: per scaffold, a digest of every answer both
hooks make for its first cases of each tier (the whole lists, not only the ones judged),
each answer's verdict from the validator (passed, message, details, form rule) and the
case's calibration, pinned to the digest made before calibration's hooks, validators and
machinery were made faster. A hook must make the same answers from the same rng, a
validator give the same verdicts and messages."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from verification.cases import DEFAULT_SEED, TIERS, generate_case
from verification.certify.calibration import _SEED, calibrate_case
from verification.registry import SPECS

JUDGED_BEFORE = {
    "activity_selection": "ca7dcfe5936f07da14319ec3a8ff4331c06bc96e4d732f8148a91c880fe84ed3",
    "astar": "15c1dbe37fcbfc7a906ea9664a8fd35219f17c714969f21e9cc661ffa1ac3eb2",
    "bellman_ford": "f9d0fe21b77d762aba8c4af33fa054c90e19dd49f5e7fb519318b8c0e1850c3c",
    "bfs": "a96cb6604a595fac55adf5336f1f5b946404dcbacc29db9c17a52343d53257e5",
    "binary_search": "4f7fd03fc32deca2a55ea3ac5100f062580a9bc1b63eb63235d4c57926837dde",
    "bisection": "2c8451cc82ecf7b6be16292b5d1cba55cbb1dec907da7e4ae8928942e26700ea",
    "dfs": "0ee893d11dcae560f0da5381adbdd5c59205223ee7e200b9a2e50c0f47a39839",
    "dijkstra": "d7c73eda63a79fd3d0c7732b4fce3c98ed8d726b0596d1d86a381f0ce1b5e7fe",
    "edit_distance": "59840f365e93008204087d98641f16a96201987c0e7024296ef5b49ded3a6a1d",
    "floyd_warshall": "f2537a25f90308f68db824f6860fb0c4666a62a057b8bad807987f7713a2f4db",
    "fractional_knapsack": "a6e4d40c02be9fa1a1e0c3cc38be179db5a489ed79d2819f24953d9f4968c82b",
    "genetic_algorithm": "c3ab459099f85bbe81523a5c1d676fe8d82c0f088ab040e0ccbb9288f81cd382",
    "gradient_descent": "5e8c8e1d6713fb2519e4fa8809004e525b35abb635ae914c3ed3da8270bfc4af",
    "graph_coloring": "b1174dd315cf0511b2ec256f308fbf6f1258407be3e050c76a3607a597b194d4",
    "hill_climbing": "a4e451b64381660010f3dc1ce3464751e5a7e0bf715c4882f0101e8ef07c866b",
    "huffman": "90a9ec1b845519fc3cebe9efc869d043ea2f0913997c95c960404ab3b12be195",
    "kmp": "2429a120c9e29a2e9b06338403fb0a7c1f1edc7d337b237a186a20fe1197d936",
    "knapsack_01": "dfce938ec237c61fbec7c82efe3b657d6c228288bb6541445f13323bddbca6f5",
    "kruskal": "4fd8703edfbdee4d0ddcfb7acbe71c55ac71278c9a01c6561d50952db2970363",
    "lcs": "239fb2061abea3ed366902c908e1db8a73f86793489030220642c7173c12c3ef",
    "lis": "05c83be0943f08e5e98f496103ad277b2e5ac9264ce629fc81d248ff701dca0c",
    "matrix_chain": "81c5b87512f22840c059beb9e5cdf944a911add3e2a6dc219a4ecf5c51fde2bd",
    "merge_sort": "6809f4c29a3d85a1ea73987f89b74d1f933c3fc08fccf92828ecd13d5eb07a44",
    "monte_carlo": "00c67f81f795f9b2276a6cdd60e22e1f9ee7924b8e95560a0f76f8967a712e09",
    "n_queens": "6bab6ff44a203df0d87f5ff055077669900be31e5784d57e62421cf56f69753b",
    "newton_raphson": "9d0997ab069f3052049f047a041de7fb6bf8cfa28467be202100dd6b3ce58b85",
    "quickselect": "f940d59fd356ec8e9e9a5d5c90e47da01cef2e3517701054178d757a997f498c",
    "rabin_karp": "5515eecbfa92c1e3363f37285c6286034c98306332a19dfbecda24359740d22c",
    "simulated_annealing": "ef988a3eaccebaff4d6fabbf2538b2b7c7d1101591c38016c710c9fac72277f9",
    "subset_sum": "e6ef1ba2bd7a7c7b0a8c0122c605b8a2bf34fcbc581b34b6704fff2577ae21d8",
    "sudoku": "0781e86bf13a4fc226f4069b6dc0effcc0bfd3ad1b91a6c84a6b43005ee4cc48",
    "topological_sort": "75ae6f07c3416c485966db68773424a6774b371b9cfafed67120e3e011517969",
    "trie": "b7865236fcceb261f1da4ca72802aeccfc215c9bd21d46bebf2ba8bac401fe0e",
}
"""Per scaffold, the digest of its calibration before it was made faster."""


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


def calibration_digest(name: str, per_tier: int = 4) -> str:
    """The sha256 of both hooks' answers, their verdicts and the calibration of the first
    ``per_tier`` cases of each tier, seed :data:`DEFAULT_SEED`."""
    spec = SPECS[name]
    digest = hashlib.sha256()
    for tier in TIERS:
        for index in range(per_tier):
            case = generate_case(spec, tier, index, seed=DEFAULT_SEED)
            rng = random.Random(f"{_SEED}:{case.id}")
            for hook in ("mutants", "alternatives"):
                for answer in getattr(spec, hook)(case, rng):
                    verdict = spec.validator.validate(answer, case.expected, case=case)
                    digest.update(_text([hook, answer]).encode())
                    digest.update(
                        _text(
                            [verdict.is_valid, verdict.message, verdict.details, verdict.form_rule]
                        ).encode()
                    )
            calibrated = calibrate_case(spec, case)
            # Judged apart since the digests were made (a plugin's), never by the catalog's.
            assert (calibrated.generic_mutants, calibrated.generic_accepted) == (0, 0)
            digest.update(
                f"CaseCalibration(mutants_rejected={calibrated.mutants_rejected!r}, "
                f"mutants={calibrated.mutants!r}, "
                f"alternatives_accepted={calibrated.alternatives_accepted!r}, "
                f"alternatives={calibrated.alternatives!r}, misses={calibrated.misses!r})".encode()
            )
    return digest.hexdigest()


@pytest.mark.slow  # every scaffold's hooks and validator: about 0.8 s in all
@pytest.mark.parametrize("name", sorted(JUDGED_BEFORE))
def test_faster_calibration_judges_as_before(name: str) -> None:
    assert calibration_digest(name) == JUDGED_BEFORE[name]
