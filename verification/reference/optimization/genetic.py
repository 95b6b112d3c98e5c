"""A genetic algorithm on bit strings: tournament selection, one-point crossover and bit-flip
mutation, every random draw taken from the input."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from verification.reference._inputs import finite
from verification.reference.optimization._checks import (
    as_list,
    bit_string,
    plain_draws,
    plain_number,
    uniform_draw,
)

__all__ = [
    "GenerationRecord",
    "PairRecord",
    "bit_fitness",
    "crossover_point",
    "genetic_algorithm",
    "genetic_trace",
    "tournament_index",
]


class PairRecord(NamedTuple):
    """How one pair of children was made."""

    tournaments: tuple[tuple[int, int, int], tuple[int, int, int]]
    """Per parent ``(first index, second index, winner index)``."""
    point: int
    """The crossover point: children swap tails from this bit on."""
    crossed: tuple[str, str]
    """The children before mutation."""
    flipped: tuple[tuple[int, ...], tuple[int, ...]]
    """The bits mutation flipped, per child."""
    children: tuple[str, str]


class GenerationRecord(NamedTuple):
    """One generation: the population it started from and the pairs it made."""

    population: tuple[str, ...]
    fitness: tuple[float, ...]
    pairs: tuple[PairRecord, ...]


def bit_fitness(weights: Sequence[float], individual: str) -> float:
    """The sum of the weights of the bits set to 1.

    Examples
    --------
    >>> bit_fitness([3, -2, 5], "101")
    8
    """
    total: float = 0  # an int stays an int for integer weights
    for weight, bit in zip(weights, individual, strict=True):
        if bit == "1":
            total += weight
    return total


def tournament_index(draw: float, population_size: int) -> int:
    """The population index a tournament draw names: ``floor(draw * population_size)``.

    Examples
    --------
    >>> tournament_index(0.62, 4)
    2
    """
    return math.floor(draw * population_size)


def crossover_point(draw: float, length: int) -> int:
    """The single crossover point a draw names: ``1 + floor(draw * (length - 1))``, so
    each child keeps at least its first bit from its own parent.

    Examples
    --------
    >>> crossover_point(0.5, 5)
    3
    """
    return 1 + math.floor(draw * (length - 1))


def _pair_draws(pair: Any, where: str, length: int) -> tuple[list[float], float, list[list[float]]]:
    is_mapping = type(pair) is dict or isinstance(pair, Mapping)  # a dict: no ABC check
    if not is_mapping or set(pair) != {"select", "cross", "mutate"}:
        raise ValueError(f"{where} must be an object with keys select, cross and mutate")
    select = as_list(pair["select"], "")
    if not plain_draws(select):
        select = [uniform_draw(v, f"{where}.select[{i}]") for i, v in enumerate(select)]
    if len(select) != 4:
        raise ValueError(f"{where}.select must hold 4 draws, got {len(select)}")
    cross = uniform_draw(pair["cross"], f"{where}.cross")
    mutate = as_list(pair["mutate"], f"{where}.mutate")
    if len(mutate) != 2:
        raise ValueError(f"{where}.mutate must hold 2 lists (one per child)")
    masks = []
    for c, child in enumerate(mutate):
        mask = as_list(child, "")
        if not plain_draws(mask):
            mask = [uniform_draw(v, f"{where}.mutate[{c}][{i}]") for i, v in enumerate(mask)]
        if len(mask) != length:
            raise ValueError(f"{where}.mutate[{c}] must hold {length} draws, one per bit")
        masks.append(mask)
    return select, cross, masks


def genetic_trace(
    f: Callable[[str], float] | None = None,
    *,
    population: Sequence[str],
    draws: Sequence[Sequence[Mapping[str, Any]]],
    mutation_rate: float,
    weights: Sequence[float] | None = None,
) -> tuple[list[GenerationRecord], list[str]]:
    """Every generation :func:`genetic_algorithm` runs, and the final population.

    Parameters
    ----------
    f, population, draws, mutation_rate, weights
        As for :func:`genetic_algorithm`.

    Returns
    -------
    tuple
        ``(generations, final_population)``: one :class:`GenerationRecord` per entry of
        ``draws``, and the population after the last one.

    Raises
    ------
    ValueError
        As for :func:`genetic_algorithm`.

    Examples
    --------
    >>> records, final = genetic_trace(population=["10", "01"], weights=[1, 2],
    ...     mutation_rate=0.0, draws=[[{"select": [0.1, 0.6, 0.7, 0.2], "cross": 0.5,
    ...                                 "mutate": [[0.5, 0.5], [0.5, 0.5]]}]])
    >>> records[0].pairs[0].tournaments, final
    (((0, 1, 1), (1, 0, 1)), ['01', '01'])
    """
    fitness = _fitness_function(f, weights)
    current = [bit_string(s, f"population[{i}]") for i, s in enumerate(as_list(population, "p"))]
    if not current or len(current) % 2:
        raise ValueError(f"population must hold an even number of individuals, got {len(current)}")
    length = len(current[0])
    if any(len(s) != length for s in current):
        raise ValueError("every individual must have the same number of bits")
    if weights is not None and len(weights) != length:
        raise ValueError(f"weights must hold {length} numbers, one per bit")
    rate = finite(mutation_rate, "mutation_rate")
    if not 0 <= rate <= 1:
        raise ValueError(f"mutation_rate must be in [0, 1], got {mutation_rate!r}")
    size = len(current)
    records = []
    for g, generation in enumerate(as_list(draws, "draws")):
        pairs = as_list(generation, f"draws[{g}]")
        if len(pairs) != size // 2:
            raise ValueError(f"draws[{g}] must hold {size // 2} pair objects")
        scores = [fitness(s) for s in current]
        made: list[PairRecord] = []
        children: list[str] = []
        for p, pair in enumerate(pairs):
            select, cross, masks = _pair_draws(pair, f"draws[{g}][{p}]", length)
            duels = []
            for first, second in ((select[0], select[1]), (select[2], select[3])):
                i, j = tournament_index(first, size), tournament_index(second, size)
                duels.append((i, j, j if scores[j] > scores[i] else i))
            mother, father = current[duels[0][2]], current[duels[1][2]]
            point = crossover_point(cross, length)
            crossed = (mother[:point] + father[point:], father[:point] + mother[point:])
            flipped = tuple(tuple(i for i, u in enumerate(mask) if u < rate) for mask in masks)
            pair_children = tuple(
                _flip(c, flips) for c, flips in zip(crossed, flipped, strict=True)
            )
            made.append(
                PairRecord(
                    (duels[0], duels[1]),
                    point,
                    crossed,
                    (flipped[0], flipped[1]),
                    (pair_children[0], pair_children[1]),
                )
            )
            children.extend(pair_children)
        records.append(GenerationRecord(tuple(current), tuple(scores), tuple(made)))
        current = children
    return records, current


def _flip(bits: str, flips: tuple[int, ...]) -> str:
    """``bits`` (a bit string) with the bits at ``flips`` (ascending indices) flipped."""
    if not flips:  # most children: no draw fell below the rate
        return bits
    flipped = list(bits)
    for i in flips:
        flipped[i] = "1" if flipped[i] == "0" else "0"
    return "".join(flipped)


def _fitness_function(f: Any, weights: Any) -> Callable[[str], Any]:
    if weights is not None:
        if f is not None:
            raise ValueError("give either weights or f, not both")
        values = as_list(weights, "weights")
        for i, w in enumerate(values):
            if not plain_number(w):
                finite(w, f"weights[{i}]")
        return lambda individual: bit_fitness(values, individual)
    if f is None or not callable(f):
        raise ValueError("give weights, or a callable fitness f")
    result: Callable[[str], Any] = f
    return result


def genetic_algorithm(
    f: Callable[[str], float] | None = None,
    *,
    population: Sequence[str],
    draws: Sequence[Sequence[Mapping[str, Any]]],
    mutation_rate: float,
    weights: Sequence[float] | None = None,
) -> dict[str, Any]:
    """Maximise a fitness over bit strings with a generational genetic algorithm whose
    every random draw comes from ``draws``.

    Parameters
    ----------
    f : callable, optional
        The fitness of a bit string (instead of ``weights``).
    population : list of str
        The first generation: an even number of bit strings of one length L.
    draws : list of list of dict
        One entry per generation; each a list of P/2 objects (P the population size), one
        per pair of children, ``{"select": [a1, a2, b1, b2], "cross": c, "mutate": [[L
        draws], [L draws]]}``, every draw in [0, 1).
    mutation_rate : float
        A child's bit i flips when its mutation draw is below this (in [0, 1]).
    weights : list of number, optional
        The fitness of a bit string is the sum of the weights of its 1 bits.

    Returns
    -------
    dict
        ``{"population": [...], "best_individual": str, "best_fitness": number}``: the
        population after the last generation, and its fittest member (the lowest index
        wins a tie) with its fitness.

    Raises
    ------
    ValueError
        If not exactly one of ``weights`` and ``f`` is given, the population is empty, odd
        or not bit strings of one length, ``weights`` does not match that length, a
        generation does not hold one well-formed object per pair, a draw is outside
        [0, 1), or ``mutation_rate`` is outside [0, 1].

    Examples
    --------
    >>> genetic_algorithm(population=["1100", "0011", "1010", "0101"], weights=[4, -1, 2, 3],
    ...     mutation_rate=0.1, draws=[[
    ...         {"select": [0.1, 0.6, 0.9, 0.3], "cross": 0.5,
    ...          "mutate": [[0.5, 0.05, 0.7, 0.9], [0.4, 0.6, 0.8, 0.3]]},
    ...         {"select": [0.8, 0.4, 0.2, 0.55], "cross": 0.1,
    ...          "mutate": [[0.2, 0.3, 0.4, 0.5], [0.6, 0.7, 0.8, 0.02]]}]])
    {'population': ['1111', '0010', '0010', '1010'], 'best_individual': '1111', \
'best_fitness': 8}

    Notes
    -----
    Per generation, per pair in order: two tournaments of two (``a1, a2`` for the first
    parent, ``b1, b2`` for the second): a draw names index ``floor(draw * P)``, the fitter
    of the two named wins and the first named wins a tie; single-point crossover at
    ``1 + floor(c * (L - 1))``: child 1 is the first parent's head and the second's tail,
    child 2 the reverse; then every bit of child 1 (``mutate[0]``) and child 2
    (``mutate[1]``) flips where its draw is below ``mutation_rate``. The children, pair
    by pair, replace the whole population (no elitism). O(G * P * L) work.

    References
    ----------
    .. [1] D. E. Goldberg, *Genetic Algorithms in Search, Optimization and Machine
       Learning*, Addison-Wesley, 1989.
    .. [2] M. Mitchell, *An Introduction to Genetic Algorithms*, MIT Press, 1996.
    """
    _, final = genetic_trace(
        f, population=population, draws=draws, mutation_rate=mutation_rate, weights=weights
    )
    fitness = _fitness_function(f, weights)
    scores = [fitness(s) for s in final]
    best = max(range(len(final)), key=lambda i: (scores[i], -i))
    return {"population": final, "best_individual": final[best], "best_fitness": scores[best]}
