"""A generational genetic algorithm on bit strings with every draw given: the
``genetic_algorithm`` scaffold."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.calibration import LazyHook, each_distinct
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.generators.optimization import away_choices, index_choices
from verification.generators.string_algo import random_word
from verification.reference.optimization import bit_fitness, genetic_algorithm, genetic_trace
from verification.validators.base import CompositeValidator
from verification.validators.exact_match import ExactMatchValidator, PathMatchValidator

__all__ = [
    "EDGE_KINDS_GENETIC_ALGORITHM",
    "MUTATION_MARGIN",
    "SPEC",
    "GeneticAlgorithmAnswer",
    "count_generations",
    "format_genetic_input",
    "generate_genetic_algorithm",
]


class GeneticAlgorithmAnswer(AnswerSchema):
    """``{"population": [str, ...], "best_individual": str, "best_fitness": int}``."""

    population: list[str]
    """The final population, in the order the pairs made it."""
    best_individual: str
    best_fitness: int


MUTATION_MARGIN = 0.03
"""Every mutation draw is at least this far from the mutation rate."""

EDGE_KINDS_GENETIC_ALGORITHM = (
    "zero_generations",
    "uniform_population",
    "zero_weights",
    "no_mutation",
    "full_mutation",
    "negative_weights",
)
"""The degenerate instances the edge tier draws from."""

_MAX_TRIES = 5_000


def _draws(
    rng: random.Random, size: int, length: int, rate: float, generations: int
) -> list[list[dict[str, Any]]]:
    """Draws whose every ``floor`` is clear and every mutation test is
    :data:`MUTATION_MARGIN` from ``rate``."""
    if generations < 1 or size < 2:  # no draw made, none checked
        return [[] for _ in range(generations)]
    # index_draw and draw_away_from are rng.choice of these tables (checked here in the
    # order the first pair's draws would check them): one call per draw, not three.
    select, cross = index_choices(size), index_choices(length - 1)
    mutate = away_choices(rate, MUTATION_MARGIN)
    choice = rng.choice
    return [
        [
            {
                "select": [choice(select) for _ in range(4)],
                "cross": choice(cross),
                "mutate": [[choice(mutate) for _ in range(length)] for _ in range(2)],
            }
            for _ in range(size // 2)
        ]
        for _ in range(generations)
    ]


def _random_population(rng: random.Random, size: int, length: int) -> list[str]:
    # random_word draws what "".join(rng.choice("01") ...) draws, many letters at a time
    return [random_word(rng, "01", length) for _ in range(size)]


def _case(
    population: list[str], weights: list[int], rate: float, draws: list[Any]
) -> dict[str, Any]:
    return {"population": population, "weights": weights, "mutation_rate": rate, "draws": draws}


def _worth_asking(test_input: dict[str, Any]) -> bool:
    """No tournament between different strings of equal fitness, at least one tournament
    won by its second draw and one bit flipped per generation, and one fittest string in
    the final population."""
    weights = test_input["weights"]
    records, final = genetic_trace(**test_input)
    second_wins = 0
    for record in records:
        population, fitness = record.population, record.fitness
        for pair in record.pairs:
            for i, j, winner in pair.tournaments:
                if population[i] != population[j] and fitness[i] == fitness[j]:
                    return False
                second_wins += winner == j != i
        if not any(flips for pair in record.pairs for flips in pair.flipped):
            return False
    scores = [bit_fitness(weights, s) for s in final]
    fittest = {s for s, score in zip(final, scores, strict=True) if score == max(scores)}
    return second_wins >= 1 and len(fittest) == 1


def _regular(
    rng: random.Random, sizes: Sequence[int], lengths: Sequence[int], generations: int
) -> dict[str, Any]:
    for _ in range(_MAX_TRIES):
        size, length = rng.choice(sizes), rng.choice(lengths)
        weights = [rng.choice([w for w in range(-5, 10) if w != 0]) for _ in range(length)]
        population = _random_population(rng, size, length)
        if len(set(population)) < size:
            continue
        rate = rng.choice((0.1, 0.15, 0.2))
        candidate = _case(population, weights, rate, _draws(rng, size, length, rate, generations))
        if _worth_asking(candidate):
            return candidate
    raise RuntimeError(f"could not draw a genetic_algorithm run of {generations} generations")


def _edge(rng: random.Random, generations: int) -> dict[str, Any]:
    kind = rng.choice(EDGE_KINDS_GENETIC_ALGORITHM)
    size, length = 4, 4
    weights = [rng.choice([w for w in range(-5, 10) if w != 0]) for _ in range(length)]
    population = _random_population(rng, size, length)
    rate = rng.choice((0.1, 0.2))
    if kind == "zero_generations":
        generations = 0
    elif kind == "uniform_population":
        population = [population[0]] * size
    elif kind == "zero_weights":
        weights = [0] * length
    elif kind == "no_mutation":
        rate = 0.0
    elif kind == "full_mutation":
        rate = 1.0
    else:
        weights = [-rng.randint(1, 5) for _ in range(length)]
    return _case(population, weights, rate, _draws(rng, size, length, rate, generations))


def generate_genetic_algorithm(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """A genetic-algorithm input: a ``population`` of bit strings, integer ``weights`` (the
    fitness sums the weights of the 1 bits), a ``mutation_rate`` and the ``draws`` of
    ``size`` generations.

    Every draw has two decimals; a draw that names an index by ``floor`` stays 0.1 from a
    whole number after scaling, and every mutation draw stays :data:`MUTATION_MARGIN` from
    the rate. ``simple``: 4 distinct strings of 4 bits. ``standard``: 4 or 6 distinct
    strings of 5 or 6 bits. Both: non-zero weights -5 to 9, rate 0.1 to 0.2, no tournament
    between different strings of equal fitness, at least one tournament won by its second
    draw, at least one bit flipped per generation, one fittest string at the end.
    ``edge``: 4 strings of 4 bits, one of :data:`EDGE_KINDS_GENETIC_ALGORITHM`: no
    generations, a population of copies, all weights zero (every tournament a tie),
    rate 0 (nothing flips), rate 1 (everything flips), all weights negative.
    """
    if size < 0:
        raise ValueError(f"genetic_algorithm needs a generation count >= 0, got {size}")
    if tier == "simple":
        return _regular(rng, (4,), (4,), max(size, 1))
    if tier == "standard":
        return _regular(rng, (4, 6), (5, 6), max(size, 1))
    if tier == "edge":
        return _edge(rng, size)
    raise ValueError(f"unknown tier {tier!r}")


def count_generations(test_input: Mapping[str, Any]) -> int:
    """An input's size: its number of generations."""
    return len(test_input["draws"])


def format_genetic_input(test_input: Mapping[str, Any]) -> str:
    """The input as a JSON block with one pair object per line, generations bracketed
    apart, so a reader sees which draws belong to which pair."""
    lines = [
        f"  {json.dumps(key)}: {json.dumps(value, allow_nan=False)}"
        for key, value in test_input.items()
        if key != "draws"
    ]
    generations = [
        "    [\n"
        + ",\n".join(f"      {json.dumps(pair, allow_nan=False)}" for pair in generation)
        + "\n    ]"
        for generation in test_input["draws"]
    ]
    draws = "[\n" + ",\n".join(generations) + "\n  ]" if generations else "[]"
    lines.append(f'  "draws": {draws}')
    return "```json\n{\n" + ",\n".join(lines) + "\n}\n```"


def _answer(population: Sequence[str], weights: Sequence[int]) -> dict[str, Any]:
    scores = [bit_fitness(weights, s) for s in population]
    best = scores.index(max(scores))
    return {
        "population": list(population),
        "best_individual": population[best],
        "best_fitness": scores[best],
    }


@LazyHook
def genetic_algorithm_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """A bit flipped in one member, a pair's children swapped, the second-fittest string
    reported as the best, the fitness one off, the population a generation short, the last
    generation's mutations missed."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more (the
    # last two replay the whole run).
    expected, weights = case.expected, case.input["weights"]
    population: list[str] = expected["population"]
    yield {**expected, "best_fitness": expected["best_fitness"] + rng.choice((-1, 1))}
    member = rng.randrange(len(population))
    bit = rng.randrange(len(population[member]))
    changed = population[member]
    changed = changed[:bit] + ("1" if changed[bit] == "0" else "0") + changed[bit + 1 :]
    yield {**expected, "population": [*population[:member], changed, *population[member + 1 :]]}
    for pair in range(0, len(population), 2):
        if population[pair] != population[pair + 1]:
            swapped = list(population)
            swapped[pair], swapped[pair + 1] = swapped[pair + 1], swapped[pair]
            yield {**expected, "population": swapped}
            break
    others = [s for s in population if s != expected["best_individual"]]
    if others:
        runner_up = max(others, key=lambda s: bit_fitness(weights, s))
        yield {
            **expected,
            "best_individual": runner_up,
            "best_fitness": bit_fitness(weights, runner_up),
        }
    records, _ = genetic_trace(**case.input)
    if records:
        yield _answer(records[-1].population, weights)
        unmutated = [child for pair in records[-1].pairs for child in pair.crossed]
        yield _answer(unmutated, weights)


SPEC = ScaffoldSpec(
    name="genetic_algorithm",
    category="optimization",
    title="Genetic algorithm",
    description="tournaments, one-point crossover and mutation on bit strings with given draws",
    graded_conventions={
        "selection index": "names individual floor(draw · p)",
        "tournament tie": "the one named by a1 on a tie",
        "crossover point": "t = 1 + floor(c · (l \u2212 1))",
        "mutation": "flips when mutate[0][j] is below mutation_rate",
        "population order": "child 1 then child 2 of each pair in order",
        "best tie": "on a tie, the first in the population list",
    },
    reference=genetic_algorithm,
    generator=generate_genetic_algorithm,
    answer_schema=GeneticAlgorithmAnswer,
    format_input=format_genetic_input,
    # Every draw is in the input and every comparison is kept from its threshold, so
    # exactly one final population is right: compared exactly, in order.
    validator=CompositeValidator(
        [
            PathMatchValidator(field="population"),
            ExactMatchValidator(field="best_individual"),
            ExactMatchValidator(field="best_fitness"),
        ]
    ),
    sizes={"simple": 1, "standard": 2, "edge": 1},
    size=SizeAxis(
        unit="generations",
        measure=count_generations,
        ranges={"simple": (1, 2), "standard": (1, 3), "edge": (0, 2)},
        stress=(4, 12),
    ),
    mutants=genetic_algorithm_mutants,
    max_output_tokens=6144,
    # Per generation the fitness list and a line per pair (benchmarks/stress_budgets.py):
    # 594 tokens at 3 generations, 2,249 at 12; the flat budget holds the standard maximum,
    # each generation past it 1.5x its work (8,632 at 12).
    output_budget=OutputBudget(per_unit=276, base=5320),
    code_rules={
        "population": (
            "the final population in the scaffold's order (pair 1's child 1, pair 1's child"
            " 2, pair 2's child 1, ...), each draw used exactly where the scaffold's steps "
            "use it"
        ),
        "best_individual": "the fittest string of that final population, the first in its "
        "order on a tie",
    },
    code_sizes=(3, 10, 20),
    code_size_limit=(
        "the size is generations, each a set of given draws: drawing takes 0.9 s at 30 "
        "generations and grows with them"
    ),
)
