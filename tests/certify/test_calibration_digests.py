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
    "astar": "2f7aaa3c37695f34e75f2880577e8ac490837d16a703d73a869b174624d00696",
    "bellman_ford": "4511efd1db51a90bd528504db566e27a7303df0146c9fe5d220784523fe69f31",
    "bfs": "c812f644ee725adc1e867e480ee6c50bf166ea96a1287f9781b6e179789b3b84",
    "binary_search": "88f9a9a99e965ccd6a69bdf6ef43100cd024e07ecb17ceb1c8266b89fdf503df",
    "bisection": "c04da552da870675ec8514ae986690e1c0328383c32af0028d1a8fe9c4ad4210",
    "dfs": "9c0aa235599035541a13c8cb353a049bea0a1305bf8812f9a040a6d7d57650e6",
    "dijkstra": "6e2ebabe3196464a067fa7011b8e940089c540d8ee9f740f39888c49ea72c92a",
    "edit_distance": "59840f365e93008204087d98641f16a96201987c0e7024296ef5b49ded3a6a1d",
    "floyd_warshall": "33a60ca0beccefc57d90bc9ea475a14135174780bc75315d7fa1fdd2b7ea4869",
    "fractional_knapsack": "a6e4d40c02be9fa1a1e0c3cc38be179db5a489ed79d2819f24953d9f4968c82b",
    "genetic_algorithm": "fc4e92dbd375e4e949519f6f5d156c28d6b71291506f1a8ca3ca9a5992f9c100",
    "gradient_descent": "3e1707c509e13bb615f3a34b2132445d65dc69721253cee674c78087936cac17",
    "graph_coloring": "365339f22c68a1114cc53ce3f6f360e825eb3bbd675cb018d2fd1217134c189c",
    "hill_climbing": "a4e451b64381660010f3dc1ce3464751e5a7e0bf715c4882f0101e8ef07c866b",
    "huffman": "71a4e2fbc0fb284696c76010a8c25f7e975ec4944e5f252cd31ce75a3fe9ad1e",
    "kmp": "2429a120c9e29a2e9b06338403fb0a7c1f1edc7d337b237a186a20fe1197d936",
    "knapsack_01": "dfce938ec237c61fbec7c82efe3b657d6c228288bb6541445f13323bddbca6f5",
    "kruskal": "4fd8703edfbdee4d0ddcfb7acbe71c55ac71278c9a01c6561d50952db2970363",
    "lcs": "239fb2061abea3ed366902c908e1db8a73f86793489030220642c7173c12c3ef",
    "lis": "05c83be0943f08e5e98f496103ad277b2e5ac9264ce629fc81d248ff701dca0c",
    "matrix_chain": "11e6e838ffac1dc11ee159f91ed7626fa7af6a400e91059cef5ab2f0e5764b80",
    "merge_sort": "6809f4c29a3d85a1ea73987f89b74d1f933c3fc08fccf92828ecd13d5eb07a44",
    "monte_carlo": "00c67f81f795f9b2276a6cdd60e22e1f9ee7924b8e95560a0f76f8967a712e09",
    "n_queens": "4967b90212ef5179c740a2a8e07cb29fc440a7dbfa9cf2d9a6dce9138fa5060b",
    "newton_raphson": "3f9b4f34c3b67e7caea84b8f17046c79e98a1a1628d19cdcd518835487c00db7",
    "quickselect": "f940d59fd356ec8e9e9a5d5c90e47da01cef2e3517701054178d757a997f498c",
    "rabin_karp": "5515eecbfa92c1e3363f37285c6286034c98306332a19dfbecda24359740d22c",
    "simulated_annealing": "b185ff028d3f49aab03dc36fef0b894b93eef065361f507ea42fd1bb10a77801",
    "subset_sum": "e6ef1ba2bd7a7c7b0a8c0122c605b8a2bf34fcbc581b34b6704fff2577ae21d8",
    "sudoku": "d13d1c83f9ebc14ebda305999abd8a9da5911fc1d81f4e601eb617c08952dbbe",
    "topological_sort": "75ae6f07c3416c485966db68773424a6774b371b9cfafed67120e3e011517969",
    "trie": "245522bca47e73999e69e43b51bbf9f061c79644157a547872c432c8e407d389",
}
"""Per scaffold, the digest of its calibration before it was made faster; pinned again for
18 scaffolds when their reasons were reworded (hunts oo and pp: JSON's words, rows counted
from 1, labels quoted), after checking every answer's verdict and form rule against the
code before the rewording: no verdict changed, only matrix_chain's form rule's words."""


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
