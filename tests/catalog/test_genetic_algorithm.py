"""genetic_algorithm against an independent numpy replay of the stated trace rules,
properties of every run, and edge and bad inputs."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

from tests.support.per_input import per_input
from tests.support.stress import stress_case, stress_cells
from verification.cases import TIERS, Tier
from verification.catalog.optimization.genetic_algorithm import SPEC, generate_genetic_algorithm
from verification.reference.optimization import genetic_algorithm

SEEDS = range(200)


def _replay(test_input: dict[str, Any]) -> dict[str, Any]:
    """Individuals as rows of a 0/1 matrix, fitness as a matrix product, crossover by
    concatenating slices, mutation as an XOR with ``draws < rate``."""
    weights = np.asarray(test_input["weights"])
    population = np.array([[int(b) for b in s] for s in test_input["population"]], dtype=int)
    size, length = population.shape
    rate = test_input["mutation_rate"]
    for generation in test_input["draws"]:
        fitness = population @ weights
        children = []
        for pair in generation:
            a1, a2, b1, b2 = (int(u * size) for u in pair["select"])
            first = a2 if fitness[a2] > fitness[a1] else a1
            second = b2 if fitness[b2] > fitness[b1] else b1
            point = 1 + int(pair["cross"] * (length - 1))
            mother, father = population[first], population[second]
            for head, tail, mask in (
                (mother, father, pair["mutate"][0]),
                (father, mother, pair["mutate"][1]),
            ):
                child = np.concatenate([head[:point], tail[point:]])
                children.append(child ^ (np.asarray(mask) < rate).astype(int))
        population = np.array(children)
    fitness = population @ weights
    best = int(np.argmax(fitness))  # the first maximum: the lowest index wins a tie
    names = ["".join(map(str, row)) for row in population.tolist()]
    return {"population": names, "best_individual": names[best], "best_fitness": int(fitness[best])}


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset({"population", "best_individual"})


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """True when ``answer`` is exactly the replayed run (one run is right: every draw is
    in the input), with a JSON integer fitness."""
    fitness = answer.get("best_fitness")
    if isinstance(fitness, bool) or not isinstance(fitness, int):
        return False
    return answer == per_input(
        "test_genetic_algorithm._replay", test_input, lambda: _replay(test_input)
    )


def _random_input(seed: int) -> dict[str, Any]:
    rng = random.Random(f"genetic_algorithm:{seed}")
    size = rng.choice((2, 4, 4, 6))
    length = rng.randint(1, 7)
    weights = [rng.randint(-5, 9) for _ in range(length)]
    if rng.random() < 0.1:
        weights = [0] * length
    population = ["".join(rng.choice("01") for _ in range(length)) for _ in range(size)]
    rate = rng.choice((0.0, 0.1, 0.2, 0.5, 1.0))

    def u() -> float:
        return rng.randrange(100) / 100

    draws = [
        [
            {
                "select": [u() for _ in range(4)],
                "cross": u(),
                "mutate": [[u() for _ in range(length)] for _ in range(2)],
            }
            for _ in range(size // 2)
        ]
        for _ in range(rng.randint(0, 3))
    ]
    return {"population": population, "weights": weights, "mutation_rate": rate, "draws": draws}


def test_reference_matches_an_independent_replay() -> None:
    for seed in SEEDS:
        test_input = _random_input(seed)
        answer = genetic_algorithm(**test_input)
        assert oracle(test_input, answer), (test_input, answer)


def test_run_properties() -> None:
    for seed in range(100):
        test_input = _random_input(seed)
        answer = genetic_algorithm(**test_input)
        population, weights = answer["population"], test_input["weights"]
        assert len(population) == len(test_input["population"])
        assert {len(s) for s in population} == {len(weights)}

        def fitness(s: str, weights: list[int] = weights) -> int:
            return sum(w for w, b in zip(weights, s, strict=True) if b == "1")

        assert (
            answer["best_fitness"]
            == max(map(fitness, population))
            == fitness(answer["best_individual"])
        )
        assert population.index(answer["best_individual"]) == min(
            i for i, s in enumerate(population) if fitness(s) == answer["best_fitness"]
        )
        if not test_input["draws"]:
            assert population == test_input["population"]


def test_a_uniform_population_without_mutation_stays_put() -> None:
    for seed in range(30):
        test_input = _random_input(seed)
        same = [test_input["population"][0]] * len(test_input["population"])
        answer = genetic_algorithm(**{**test_input, "population": same, "mutation_rate": 0.0})
        assert answer["population"] == same


def test_full_mutation_flips_every_bit_of_a_uniform_population() -> None:
    for seed in range(30):
        test_input = _random_input(seed)
        if len(test_input["draws"]) != 1:
            continue
        same = [test_input["population"][0]] * len(test_input["population"])
        answer = genetic_algorithm(**{**test_input, "population": same, "mutation_rate": 1.0})
        flipped = "".join("1" if b == "0" else "0" for b in same[0])
        assert answer["population"] == [flipped] * len(same)


def test_callable_fitness_agrees_with_weights() -> None:
    for seed in range(60):
        test_input = _random_input(seed)
        weights = test_input["weights"]
        data = {k: v for k, v in test_input.items() if k != "weights"}
        answer = genetic_algorithm(
            f=lambda s, w=weights: sum(x for x, b in zip(w, s, strict=True) if b == "1"), **data
        )
        assert answer == genetic_algorithm(**test_input)


def test_oracle_rejects_near_misses() -> None:
    test_input = _random_input(11)
    answer = genetic_algorithm(**test_input)
    assert oracle(test_input, answer)
    population = answer["population"]
    flipped = ("1" if population[0][0] == "0" else "0") + population[0][1:]
    assert not oracle(test_input, {**answer, "population": [flipped, *population[1:]]})
    assert not oracle(test_input, {**answer, "best_fitness": answer["best_fitness"] + 1})
    assert not oracle(test_input, {**answer, "best_fitness": float(answer["best_fitness"])})


_PAIR = {"select": [0.1, 0.2, 0.3, 0.4], "cross": 0.5, "mutate": [[0.5, 0.5], [0.5, 0.5]]}
_GOOD: dict[str, Any] = {
    "population": ["01", "10"],
    "weights": [1, 2],
    "mutation_rate": 0.1,
    "draws": [[_PAIR]],
}


@pytest.mark.parametrize(
    "change",
    [
        {"population": []},
        {"population": ["01", "10", "11"]},
        {"population": ["01", "1"]},
        {"population": ["01", "12"]},
        {"weights": [1]},
        {"weights": [1, "2"]},
        {"mutation_rate": 1.5},
        {"mutation_rate": -0.1},
        {"draws": [[]]},
        {"draws": [[{**_PAIR, "select": [0.1, 0.2, 0.3]}]]},
        {"draws": [[{**_PAIR, "cross": 1.0}]]},
        {"draws": [[{**_PAIR, "mutate": [[0.5, 0.5]]}]]},
        {"draws": [[{**_PAIR, "mutate": [[0.5], [0.5, 0.5]]}]]},
        {"draws": [[{"select": [0.1, 0.2, 0.3, 0.4], "cross": 0.5}]]},
        {"f": len},
    ],
)
def test_bad_inputs_raise_value_error(change: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        genetic_algorithm(**{**_GOOD, **change})


@pytest.mark.parametrize("tier", TIERS)
def test_generated_cases_agree_with_the_oracle_and_keep_their_margins(tier: Tier) -> None:
    low, high = SPEC.size.ranges[tier]
    for size in range(low, high + 1):
        for seed in range(8):
            test_input = generate_genetic_algorithm(random.Random(f"ga:{tier}:{seed}"), tier, size)
            answer = genetic_algorithm(**test_input)
            assert oracle(test_input, answer), test_input
            population, rate = test_input["population"], test_input["mutation_rate"]
            p, length = len(population), len(population[0])
            for generation in test_input["draws"]:
                for pair in generation:
                    # Every floor is clear and every mutation test is far from the rate.
                    assert all(0.1 - 1e-9 <= (u * p) % 1 <= 0.9 + 1e-9 for u in pair["select"])
                    assert (
                        0.1 - 1e-9 <= (pair["cross"] * (length - 1)) % 1 <= 0.9 + 1e-9
                        or length == 2
                    )
                    assert all(abs(u - rate) >= 0.03 for m in pair["mutate"] for u in m)
            if tier != "edge":
                fitness = [
                    sum(w for w, b in zip(test_input["weights"], s, strict=True) if b == "1")
                    for s in answer["population"]
                ]
                best = [
                    s
                    for s, f in zip(answer["population"], fitness, strict=True)
                    if f == max(fitness)
                ]
                assert len(set(best)) == 1  # one fittest string


def test_the_prompt_shows_the_input_as_json_one_pair_per_line() -> None:
    for seed in range(20):
        test_input = generate_genetic_algorithm(random.Random(seed), "standard", 2)
        text = SPEC.format_input(test_input)
        assert text.startswith("```json\n") and text.endswith("\n```")
        assert json.loads(text[len("```json\n") : -len("\n```")]) == test_input
        pairs = sum(len(generation) for generation in test_input["draws"])
        assert sum(line.strip().startswith('{"select"') for line in text.splitlines()) == pairs


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("genetic_algorithm"))
def test_the_reference_agrees_with_the_oracle_at_stress_sizes(
    tier: Tier, size: int, index: int
) -> None:
    case = stress_case("genetic_algorithm", tier, size, index)
    assert len(case.input["draws"]) == size
    assert oracle(case.input, case.expected), case.id
