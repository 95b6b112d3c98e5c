"""Reference implementations of dynamic-programming algorithms."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["knapsack_01"]


def knapsack_01(weights: Sequence[int], values: Sequence[int], capacity: int) -> dict[str, Any]:
    """The most valuable set of items whose total weight fits the capacity (0/1 knapsack).

    Parameters
    ----------
    weights : sequence of int
        Non-negative weight of item ``i``.
    values : sequence of int
        Non-negative value of item ``i``; as many as ``weights``.
    capacity : int
        Non-negative weight limit.

    Returns
    -------
    dict
        ``{"max_value": int, "selected_items": [int, ...]}``: the best total value and the
        0-based indices of one optimal item set, ascending.

    Raises
    ------
    ValueError
        If the lists differ in length, or a weight, value or the capacity is not a
        non-negative integer.

    Examples
    --------
    >>> knapsack_01(weights=[10, 20, 30], values=[60, 100, 120], capacity=50)
    {'max_value': 220, 'selected_items': [1, 2]}
    >>> knapsack_01(weights=[2, 2], values=[3, 3], capacity=2)
    {'max_value': 3, 'selected_items': [0]}
    >>> knapsack_01(weights=[], values=[], capacity=7)
    {'max_value': 0, 'selected_items': []}

    Notes
    -----
    ``best[i][c]`` is the best value from items ``0 .. i-1`` within capacity ``c``:
    ``best[i][c] = max(best[i-1][c], best[i-1][c - w] + v)`` for item ``i - 1`` of weight
    ``w`` and value ``v`` (the second term only when ``w <= c``). O(n * capacity) time and
    space.

    Tie-break: the reconstruction walks the items from the last to the first and takes item
    ``i - 1`` only when ``best[i][c] != best[i-1][c]``, that is only when no optimal set of
    the earlier items reaches the same value without it. The set returned is therefore the
    optimal set that avoids later items: the one with the smallest ``sum(2**i)``.

    References
    ----------
    .. [1] T. H. Cormen, C. E. Leiserson, R. L. Rivest, C. Stein, "Introduction to
       Algorithms", 3rd ed., MIT Press, 2009, exercise 16.2-2.
    """
    _check(weights, values, capacity)
    best = _table(weights, values, capacity)
    selected: list[int] = []
    room = capacity
    for i in range(len(weights), 0, -1):
        if best[i][room] != best[i - 1][room]:
            selected.append(i - 1)
            room -= weights[i - 1]
    selected.reverse()
    return {"max_value": best[len(weights)][capacity], "selected_items": selected}


def _table(weights: Sequence[int], values: Sequence[int], capacity: int) -> list[list[int]]:
    best = [[0] * (capacity + 1)]
    for weight, value in zip(weights, values, strict=True):
        above = best[-1]
        best.append(
            [
                max(above[c], above[c - weight] + value) if weight <= c else above[c]
                for c in range(capacity + 1)
            ]
        )
    return best


def _check(weights: Sequence[int], values: Sequence[int], capacity: int) -> None:
    for name, items in (("weights", weights), ("values", values)):
        if isinstance(items, str) or not isinstance(items, Sequence):
            raise ValueError(f"{name} must be a list of integers, got {type(items).__name__}")
        for index, item in enumerate(items):
            if isinstance(item, bool) or not isinstance(item, int) or item < 0:
                raise ValueError(f"{name}[{index}] = {item!r} is not a non-negative integer")
    if len(weights) != len(values):
        raise ValueError(f"{len(weights)} weights but {len(values)} values")
    if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 0:
        raise ValueError(f"capacity {capacity!r} is not a non-negative integer")
