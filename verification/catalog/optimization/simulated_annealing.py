"""Simulated annealing over bit strings with every draw given: the
``simulated_annealing`` scaffold."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator, Mapping
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.calibration import LazyHook, each_distinct
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.generators.optimization import draw_away_from, index_draw, uniform_draw
from verification.reference.optimization import annealing_trace, simulated_annealing
from verification.validators.base import CompositeValidator
from verification.validators.exact_match import ExactMatchValidator, PathMatchValidator

__all__ = [
    "ACCEPT_MARGIN",
    "EDGE_KINDS_SIMULATED_ANNEALING",
    "SPEC",
    "SimulatedAnnealingAnswer",
    "count_steps",
    "generate_simulated_annealing",
]


class SimulatedAnnealingAnswer(AnswerSchema):
    """``{"final_state", "final_energy", "best_state", "best_energy", "accepted"}``."""

    final_state: str
    final_energy: int
    best_state: str
    best_energy: int
    accepted: list[bool]
    """One decision per pair of draws, in order."""


ACCEPT_MARGIN = 0.05
"""Every uphill step's ``u`` is at least this far from ``exp(-delta / T)``: two correct
decimals of the probability decide the step."""

EDGE_KINDS_SIMULATED_ANNEALING = (
    "no_draws",
    "flat",
    "cold",
    "hot",
    "start_at_minimum",
    "best_tie",
    "level_moves",
)
"""The degenerate instances the edge tier draws from."""

_TEMPERATURES = (2.0, 4.0, 5.0, 10.0)
_COOLING = (0.5, 0.8, 0.9)
_MAX_TRIES = 5_000


def _bit_strings(n: int) -> list[str]:
    return ["".join(bits) for bits in itertools.product("01", repeat=n)]


def _draws(
    rng: random.Random,
    energies: Mapping[str, int],
    start: str,
    temperature: float,
    cooling: float,
    steps: int,
    tally: list[int] | None = None,
) -> list[list[float]]:
    """Draw pairs for ``steps`` steps, each ``u`` of an uphill step kept
    :data:`ACCEPT_MARGIN` from its acceptance probability; ``tally`` counts the steps
    downhill or level, uphill accepted and uphill rejected, as the reference's trace of the
    run does (the run here takes the same branches: no ``u`` lies near its threshold)."""
    tally = [0, 0, 0] if tally is None else tally
    n = len(start)
    state, draws = start, []
    for _ in range(steps):
        r = index_draw(rng, n)
        i = int(r * n)
        candidate = state[:i] + ("1" if state[i] == "0" else "0") + state[i + 1 :]
        delta = energies[candidate] - energies[state]
        if delta > 0:
            u = draw_away_from(rng, math.exp(-delta / temperature), ACCEPT_MARGIN)
            accepted = u < math.exp(-delta / temperature)
            if accepted:
                state = candidate
            tally[1 if accepted else 2] += 1
        else:
            u = uniform_draw(rng)
            state = candidate
            tally[0] += 1
        draws.append([r, u])
        temperature *= cooling
    return draws


def _case(
    rng: random.Random,
    energies: dict[str, int],
    start: str,
    temperature: float,
    cooling: float,
    steps: int,
    tally: list[int] | None = None,
) -> dict[str, Any]:
    return {
        "energies": energies,
        "initial_state": start,
        "initial_temperature": temperature,
        "cooling_rate": cooling,
        "draws": _draws(rng, energies, start, temperature, cooling, steps, tally),
    }


def _distinct_run(rng: random.Random, n: int, steps: int, top: int, uphill: int) -> dict[str, Any]:
    for _ in range(_MAX_TRIES):
        keys = _bit_strings(n)
        energies = dict(zip(keys, rng.sample(range(top + 1), len(keys)), strict=True))
        tally = [0, 0, 0]  # the run's steps: downhill or level, uphill accepted, rejected
        start, heat, cooling = rng.choice(keys), rng.choice(_TEMPERATURES), rng.choice(_COOLING)
        candidate = _case(rng, energies, start, heat, cooling, steps, tally)
        down, up, rejected = tally
        if down >= 1 and up >= uphill and rejected >= 1:
            return candidate
    raise RuntimeError(f"could not draw a simulated_annealing run of {steps} steps")


def _edge(rng: random.Random, steps: int) -> dict[str, Any]:
    kind = rng.choice(EDGE_KINDS_SIMULATED_ANNEALING)
    if steps == 0:
        kind = "no_draws"  # with no step to take, every kind is this one
    n = 3
    keys = _bit_strings(n)
    for _ in range(_MAX_TRIES):
        energies = dict(zip(keys, rng.sample(range(21), len(keys)), strict=True))
        start, temperature = rng.choice(keys), rng.choice(_TEMPERATURES)
        count = steps
        if kind == "no_draws":
            count = 0
        elif kind == "flat":
            level = rng.randint(0, 20)
            energies = dict.fromkeys(keys, level)
        elif kind == "cold":
            temperature = 0.01
        elif kind == "hot":
            temperature = 1000.0
        elif kind == "start_at_minimum":
            start = min(keys, key=energies.__getitem__)
        else:  # best_tie, level_moves: a few energies repeat
            values = [rng.randint(0, 6) for _ in keys]
            energies = dict(zip(keys, values, strict=True))
        candidate = _case(rng, energies, start, temperature, rng.choice(_COOLING), count)
        if kind == "best_tie" and not _has_best_tie(candidate):
            continue
        if kind == "level_moves" and not any(s.delta == 0 for s in annealing_trace(**candidate)):
            continue
        return candidate
    raise RuntimeError(f"could not draw a {kind} simulated_annealing run of {steps} steps")


def _has_best_tie(test_input: dict[str, Any]) -> bool:
    """Whether a later accepted state ties the best energy without being the best state."""
    answer = simulated_annealing(**test_input)
    energies = test_input["energies"]
    return any(
        step.accepted
        and step.candidate != answer["best_state"]
        and energies[step.candidate] == answer["best_energy"]
        for step in annealing_trace(**test_input)
    )


def generate_simulated_annealing(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """A simulated-annealing input: ``energies`` of every bit string of length n,
    ``initial_state``, ``initial_temperature``, ``cooling_rate`` and ``size`` draw pairs.

    Every draw has two decimals; ``r * n`` stays 0.1 from a whole number (the flipped bit is
    clear) and every uphill step's ``u`` stays :data:`ACCEPT_MARGIN` from
    ``exp(-delta / T)``. ``simple``: 3 bits, distinct energies 0 to 20, at least one
    downhill step, one accepted uphill step and one rejected. ``standard``: 4 bits,
    distinct energies 0 to 30, at least one downhill step, two accepted uphill steps and
    one rejected. Distinct energies make the best state unique. Temperatures 2 to 10,
    cooling 0.5 to 0.9. ``edge``: 3 bits, one of :data:`EDGE_KINDS_SIMULATED_ANNEALING`:
    no draws, all energies equal, a temperature of 0.01 or of 1000, a start at the lowest
    energy, a later state tying the best energy, level moves (``delta = 0``).
    """
    if size < 0:
        raise ValueError(f"simulated_annealing needs a step count of at least 0, got {size}")
    if tier == "simple":
        return _distinct_run(rng, 3, max(size, 3), 20, 1)
    if tier == "standard":
        return _distinct_run(rng, 4, max(size, 3), 30, 2)
    if tier == "edge":
        return _edge(rng, size)
    raise ValueError(f"unknown tier {tier!r}")


def count_steps(test_input: Mapping[str, Any]) -> int:
    """An input's size: its number of steps (draw pairs)."""
    return len(test_input["draws"])


def _replay_flipped(test_input: Mapping[str, Any], flip: int) -> dict[str, Any]:
    """The run with decision ``flip`` (0-based) inverted and the rest followed as the
    rules say: the answer of a hand trace that takes one wrong branch."""
    energies = test_input["energies"]
    n = len(test_input["initial_state"])
    state = best = test_input["initial_state"]
    temperature = test_input["initial_temperature"]
    decisions = []
    for k, (r, u) in enumerate(test_input["draws"]):
        i = int(r * n)
        candidate = state[:i] + ("1" if state[i] == "0" else "0") + state[i + 1 :]
        delta = energies[candidate] - energies[state]
        accept = delta <= 0 or u < math.exp(-delta / temperature)
        if k == flip:
            accept = not accept
        decisions.append(accept)
        if accept:
            state = candidate
            if energies[state] < energies[best]:
                best = state
        temperature *= test_input["cooling_rate"]
    return {
        "final_state": state,
        "final_energy": energies[state],
        "best_state": best,
        "best_energy": energies[best],
        "accepted": decisions,
    }


@LazyHook
def simulated_annealing_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """One wrong branch followed through, one decision flipped alone, the last decision
    dropped, the final state reported as the best, an energy one off, and a later state
    tying the best reported instead of the first."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    expected, test_input = case.expected, case.input
    accepted = expected["accepted"]
    yield {**expected, "final_energy": expected["final_energy"] + rng.choice((-1, 1))}
    yield {**expected, "best_energy": expected["best_energy"] + rng.choice((-1, 1))}
    if accepted:
        k = rng.randrange(len(accepted))
        yield _replay_flipped(test_input, k)
        flipped = list(accepted)
        flipped[k] = not flipped[k]
        yield {**expected, "accepted": flipped}
        yield {**expected, "accepted": accepted[:-1]}
    if expected["final_state"] != expected["best_state"]:
        yield {
            **expected,
            "best_state": expected["final_state"],
            "best_energy": expected["final_energy"],
        }
    energies = test_input["energies"]
    for step in annealing_trace(**test_input):
        if (
            step.accepted
            and step.candidate != expected["best_state"]
            and energies[step.candidate] == expected["best_energy"]
        ):
            yield {**expected, "best_state": step.candidate}


SPEC = ScaffoldSpec(
    name="simulated_annealing",
    category="optimization",
    title="Simulated annealing",
    description="annealing over bit strings with given draws: final and best state, decisions",
    graded_conventions={
        "move rule": "bit i = floor(r · n) flipped",
        "bit order": "the leftmost bit is index 0",
        "downhill": "if delta ≤ 0 the move is accepted (u is not used)",
        "uphill": "accepted if u < exp(\u2212delta / T)",
        "best state": "replaced only by an accepted state of strictly lower energy",
        "cooling": "multiplied by cooling_rate after every step",
    },
    reference=simulated_annealing,
    generator=generate_simulated_annealing,
    answer_schema=SimulatedAnnealingAnswer,
    # Every draw is in the input and every acceptance test is kept ACCEPT_MARGIN from its
    # threshold, so exactly one run is right: compared exactly.
    validator=CompositeValidator(
        [
            PathMatchValidator(field="accepted"),
            ExactMatchValidator(field="final_state"),
            ExactMatchValidator(field="final_energy"),
            ExactMatchValidator(field="best_state"),
            ExactMatchValidator(field="best_energy"),
        ]
    ),
    sizes={"simple": 6, "standard": 10, "edge": 4},
    size=SizeAxis(
        unit="steps",
        measure=count_steps,
        ranges={"simple": (4, 8), "standard": (6, 15), "edge": (0, 8)},
        stress=(16, 60),
    ),
    mutants=simulated_annealing_mutants,
    max_output_tokens=6144,
    # A line per step (benchmarks/stress_budgets.py): 769 tokens at 15 steps, 3,145 at 60;
    # the flat budget holds the standard maximum, each step past it 1.5x its work (9,800 at
    # 60).
    output_budget=OutputBudget(per_unit=80, base=5000),
    code_rules={
        "accepted": (
            "one bool per pair of `draws`, in order: accept when `delta <= 0`, else when `u"
            " < exp(-delta / T)` with the draw `u` and the step's temperature, exactly as "
            "the scaffold's steps compute them (`math.exp`), and always when `u` is exactly "
            "0 (the probability is positive even where `math.exp` underflows to 0.0 or the "
            "temperature has cooled to 0.0, where no other uphill move is accepted)"
        ),
        "final_state": "the current state after the last step: each step proposes the "
        "current state with bit `floor(r * n)` flipped (bit 0 leftmost, `r` the pair's first "
        "draw, `n` the number of bits) and moves there when it accepts",
        "best_state": "`initial_state`, replaced only by an accepted state of strictly lower "
        "energy",
    },
    code_sizes=(30, 100, 300, 1000),
)
