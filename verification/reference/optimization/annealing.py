"""Simulated annealing over bit strings (or callables), every random draw taken from the input."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, NamedTuple

from verification.reference._inputs import finite
from verification.reference.optimization._checks import (
    as_list,
    bit_string,
    plain_draws,
    plain_number,
    uniform_draw,
)

__all__ = ["AnnealingStep", "annealing_trace", "simulated_annealing"]


class AnnealingStep(NamedTuple):
    """One simulated-annealing step at temperature ``temperature``."""

    step: int
    temperature: float
    state: Hashable
    candidate: Hashable
    delta: float
    """``energy(candidate) - energy(state)``."""
    probability: float | None
    """``exp(-delta / temperature)`` for an uphill move (``delta > 0``), else ``None``."""
    u: float
    accepted: bool


def _energy_table(energies: Any) -> tuple[dict[str, Any], int]:
    if not (type(energies) is dict or isinstance(energies, Mapping)) or not energies:
        raise ValueError("energies must be a non-empty object {bit string: number}")
    table: dict[str, Any] = {}
    for key, energy in energies.items():
        # The usual key and number pass in one test; the checks (and their messages) are
        # made only for the others.
        if type(key) is not str or not key or key.strip("01"):
            bit_string(key, f"energies key {key!r}")
        if not plain_number(energy):
            finite(energy, f"energies[{key!r}]")
        table[key] = energy
    width = len(next(iter(table)))
    if any(len(key) != width for key in table) or len(table) != 2**width:
        raise ValueError(f"energies must list all {2**width} bit strings of length {width}")
    return table, width


def _draw_pairs(draws: Any) -> list[tuple[float, float]]:
    pairs = []
    for k, pair in enumerate(as_list(draws, "draws")):
        if type(pair) is list and len(pair) == 2 and plain_draws(pair):
            pairs.append((pair[0], pair[1]))  # what the checks below return for it
            continue
        items = as_list(pair, f"draws[{k}]")
        if len(items) != 2:
            raise ValueError(f"draws[{k}] must be [r, u], got {pair!r}")
        pairs.append(
            (uniform_draw(items[0], f"draws[{k}][0]"), uniform_draw(items[1], f"draws[{k}][1]"))
        )
    return pairs


def annealing_trace(
    f: Callable[[Any], float] | None = None,
    neighbour: Callable[[Any, float], Any] | None = None,
    *,
    initial_state: Any,
    initial_temperature: float,
    cooling_rate: float,
    draws: Sequence[Sequence[float]],
    energies: Mapping[str, float] | None = None,
) -> list[AnnealingStep]:
    """The steps :func:`simulated_annealing` takes, one :class:`AnnealingStep` per draw pair.

    Parameters
    ----------
    f, neighbour, initial_state, initial_temperature, cooling_rate, draws, energies
        As for :func:`simulated_annealing`.

    Returns
    -------
    list of AnnealingStep
        One per pair in ``draws`` (none for no draws).

    Raises
    ------
    ValueError
        As for :func:`simulated_annealing`.

    Examples
    --------
    >>> [(s.candidate, s.accepted) for s in annealing_trace(
    ...     energies={"0": 1, "1": 0}, initial_state="0", initial_temperature=1.0,
    ...     cooling_rate=0.5, draws=[[0.3, 0.9], [0.6, 0.5]])]
    [('1', True), ('0', False)]
    """
    energy, move, state = _annealing_setup(f, neighbour, initial_state, energies)
    temperature = finite(initial_temperature, "initial_temperature")
    if temperature <= 0:
        raise ValueError(f"initial_temperature must be positive, got {initial_temperature!r}")
    cooling = finite(cooling_rate, "cooling_rate")
    if not 0 < cooling <= 1:
        raise ValueError(f"cooling_rate must be in (0, 1], got {cooling_rate!r}")
    steps: list[AnnealingStep] = []
    current = energy(state)
    for k, (r, u) in enumerate(_draw_pairs(draws), start=1):
        candidate = move(state, r)
        candidate_energy = energy(candidate)
        delta = candidate_energy - current
        if delta <= 0:
            probability, accepted = None, True
        else:
            # Cooling may underflow the temperature to 0.0 (1e-300 times 1e-9), where
            # exp(-delta / T) has the limit 0.
            probability = math.exp(-delta / temperature) if temperature > 0 else 0.0
            # exp(-delta / T) is positive even where the float underflows to 0.0, so a
            # draw of exactly 0 is always below it.
            accepted = u < probability or u == 0.0
        steps.append(
            AnnealingStep(k, temperature, state, candidate, delta, probability, u, accepted)
        )
        if accepted:
            state, current = candidate, candidate_energy
        temperature *= cooling
    return steps


def _annealing_setup(
    f: Any, neighbour: Any, initial_state: Any, energies: Any
) -> tuple[Callable[[Any], Any], Callable[[Any, float], Any], Any]:
    if energies is not None:
        if f is not None or neighbour is not None:
            raise ValueError("give either energies or f and neighbour, not both")
        table, width = _energy_table(energies)
        state = bit_string(initial_state, "initial_state")
        if len(state) != width:
            raise ValueError(f"initial_state must have {width} bits, got {initial_state!r}")

        def flip(bits: str, r: float) -> str:
            index = math.floor(r * width)
            return bits[:index] + ("1" if bits[index] == "0" else "0") + bits[index + 1 :]

        return table.__getitem__, flip, state
    if f is None or neighbour is None or not callable(f) or not callable(neighbour):
        raise ValueError("give energies, or both callables f and neighbour")
    return f, neighbour, initial_state


def simulated_annealing(
    f: Callable[[Any], float] | None = None,
    neighbour: Callable[[Any, float], Any] | None = None,
    *,
    initial_state: Any,
    initial_temperature: float,
    cooling_rate: float,
    draws: Sequence[Sequence[float]],
    energies: Mapping[str, float] | None = None,
) -> dict[str, Any]:
    """Minimise an energy by simulated annealing, with every random draw from ``draws``.

    The energy comes as data, a table over bit strings whose neighbour move flips one bit,
    or as callables ``f`` (the energy of a state) and ``neighbour(state, r)``.

    Parameters
    ----------
    f : callable, optional
        The energy of a state (with ``neighbour``; not with ``energies``).
    neighbour : callable, optional
        ``neighbour(state, r)``: the candidate move for the draw ``r``.
    initial_state : str or any
        The start; with ``energies``, a bit string of the table's length.
    initial_temperature : float
        The temperature of step 1 (positive).
    cooling_rate : float
        After every step the temperature is multiplied by this (in (0, 1]).
    draws : list of [r, u]
        One pair per step, in order: ``r`` picks the move, ``u`` decides an uphill move.
        Both in [0, 1).
    energies : dict of str to number, optional
        The energy of every bit string of one length n (all 2^n of them). The move for
        ``r`` flips bit ``floor(r * n)``, bit 0 being the leftmost character.

    Returns
    -------
    dict
        ``{"final_state", "final_energy", "best_state", "best_energy", "accepted"}``: the
        state after the last step and its energy; the lowest-energy state visited
        (``initial_state`` included; the first one reached wins a tie) and its energy;
        per step, whether the move was accepted.

    Raises
    ------
    ValueError
        If not exactly one of ``energies`` and ``f``/``neighbour`` is given, the table is
        not every bit string of one length with a finite number, ``initial_state`` is not
        one of its keys, a draw is not a pair of numbers in [0, 1), the temperature is not
        positive or ``cooling_rate`` is not in (0, 1].

    Examples
    --------
    >>> simulated_annealing(
    ...     energies={"00": 3, "01": 1, "10": 4, "11": 0}, initial_state="00",
    ...     initial_temperature=2.0, cooling_rate=0.5,
    ...     draws=[[0.2, 0.5], [0.7, 0.9], [0.3, 0.5]])
    {'final_state': '11', 'final_energy': 0, 'best_state': '11', 'best_energy': 0, \
'accepted': [True, True, False]}

    Notes
    -----
    Step k runs at ``T_k = initial_temperature * cooling_rate**(k - 1)``: the candidate is
    ``neighbour(state, r_k)``, ``delta = energy(candidate) - energy(state)``; a move with
    ``delta <= 0`` is always accepted (``u_k`` unused); an uphill move is accepted when
    ``u_k < exp(-delta / T_k)`` (the Metropolis rule). The best state only changes on a
    strictly lower energy. O(1) work per step with a table.

    References
    ----------
    .. [1] S. Kirkpatrick, C. D. Gelatt, M. P. Vecchi, "Optimization by simulated
       annealing", Science 220, 671-680 (1983).
    """
    steps = annealing_trace(
        f,
        neighbour,
        initial_state=initial_state,
        initial_temperature=initial_temperature,
        cooling_rate=cooling_rate,
        draws=draws,
        energies=energies,
    )
    energy, _, state = _annealing_setup(f, neighbour, initial_state, energies)
    current = energy(state)
    best, best_energy = state, current
    for step in steps:
        if step.accepted:
            state, current = step.candidate, energy(step.candidate)
            if current < best_energy:
                best, best_energy = state, current
    return {
        "final_state": state,
        "final_energy": current,
        "best_state": best,
        "best_energy": best_energy,
        "accepted": [step.accepted for step in steps],
    }
