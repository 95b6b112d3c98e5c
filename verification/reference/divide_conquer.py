"""Reference divide-and-conquer algorithms: binary search, merge sort and quickselect.

Each takes the plain JSON data a test case holds (a list of numbers, a target or a rank)
and returns the answer's exact JSON shape. Where the algorithm leaves a choice open that the
answer would show (which index of a run of duplicates, which midpoint), the docstring fixes
the convention the scaffold teaches. Pure Python, no imports beyond the standard library.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

__all__ = ["binary_search", "merge_sort", "quickselect"]


def _is_number(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return not isinstance(value, float) or math.isfinite(value)


def _check_numbers(array: Any, name: str = "array") -> list[Any]:
    if not isinstance(array, list | tuple):
        raise ValueError(f"{name} must be a list of numbers, got {type(array).__name__}")
    for position, value in enumerate(array):
        if not _is_number(value):
            raise ValueError(f"{name}[{position}] must be a finite number, got {value!r}")
    return list(array)


def binary_search(array: Sequence[float], target: float) -> dict[str, Any]:
    """The leftmost index of ``target`` in a sorted array, and the indices probed.

    Parameters
    ----------
    array : list of int or float
        Sorted in non-decreasing order; duplicates are allowed; may be empty.
    target : int or float
        The value searched for.

    Returns
    -------
    dict
        ``{"index": int or None, "found": bool, "probes": [int, ...]}``: the smallest
        index ``i`` with ``array[i] == target`` (``None`` when the target is absent),
        whether it is present, and every midpoint examined, in order.

    Raises
    ------
    ValueError
        If ``array`` is not a list of finite numbers, is not sorted in non-decreasing
        order, or ``target`` is not a finite number.

    Examples
    --------
    >>> binary_search(array=[1, 3, 5, 7, 9], target=5)
    {'index': 2, 'found': True, 'probes': [2, 0, 1]}
    >>> binary_search([2, 4, 4, 4, 8], 4)
    {'index': 1, 'found': True, 'probes': [2, 0, 1]}
    >>> binary_search([2, 4, 8], 5)
    {'index': None, 'found': False, 'probes': [1, 2]}
    >>> binary_search([], 5)
    {'index': None, 'found': False, 'probes': []}

    Notes
    -----
    The lower-bound search, O(log n) probes: ``lo, hi = 0, n - 1``; while ``lo <= hi``,
    probe ``mid = (lo + hi) // 2`` (the floor); if ``array[mid] < target`` set
    ``lo = mid + 1``, otherwise (``array[mid] >= target``) remember ``mid`` when it holds the
    target and set ``hi = mid - 1``. It never stops early on a hit, so on a run of
    duplicates it ends at the run's first index, and the probe sequence is unique. The
    index is what ``bisect.bisect_left`` gives, when the value there is the target.

    References
    ----------
    .. [1] D. E. Knuth, *The Art of Computer Programming*, vol. 3, 2nd ed., section 6.2.1
       "Searching an ordered table".
    """
    values = _check_numbers(array)
    if not _is_number(target):
        raise ValueError(f"target must be a finite number, got {target!r}")
    for position in range(1, len(values)):
        if values[position - 1] > values[position]:
            raise ValueError(
                f"array must be sorted in non-decreasing order: array[{position - 1}] = "
                f"{values[position - 1]!r} > array[{position}] = {values[position]!r}"
            )
    lo, hi = 0, len(values) - 1
    probes: list[int] = []
    index: int | None = None
    while lo <= hi:
        mid = (lo + hi) // 2
        probes.append(mid)
        if values[mid] < target:
            lo = mid + 1
        else:
            if values[mid] == target:
                index = mid  # every later hit lies further left
            hi = mid - 1
    return {"index": index, "found": index is not None, "probes": probes}


def merge_sort(array: Sequence[float]) -> dict[str, Any]:
    """The array in non-decreasing order, and the inversions counted while merging.

    Parameters
    ----------
    array : list of int or float
        Any order; duplicates are allowed; may be empty.

    Returns
    -------
    dict
        ``{"sorted": [...], "inversions": int}``: the values in non-decreasing order, and
        the number of pairs ``i < j`` with ``array[i] > array[j]`` (equal values are not an
        inversion).

    Raises
    ------
    ValueError
        If ``array`` is not a list of finite numbers.

    Examples
    --------
    >>> merge_sort(array=[3, 1, 4, 1, 5])
    {'sorted': [1, 1, 3, 4, 5], 'inversions': 3}
    >>> merge_sort([2, 2, 1])
    {'sorted': [1, 2, 2], 'inversions': 2}
    >>> merge_sort([])
    {'sorted': [], 'inversions': 0}

    Notes
    -----
    Top-down merge sort, O(n log n): split at ``n // 2`` (the left half is the shorter
    one when ``n`` is odd), sort each half, merge. The merge is stable (on equal values
    it takes the left one first), and each time it takes a value from the right half while
    ``r`` values remain in the left half it adds ``r`` inversions: exactly those values
    are greater and stand before it. The sorted list and the count are unique; the split
    rule changes neither.

    References
    ----------
    .. [1] T. H. Cormen, C. E. Leiserson, R. L. Rivest, C. Stein, *Introduction to
       Algorithms*, 3rd ed., section 2.3.1 and problem 2-4 "Inversions".
    """
    values = _check_numbers(array)
    ordered, inversions = _sort_counting(values)
    return {"sorted": ordered, "inversions": inversions}


def _sort_counting(values: list[Any]) -> tuple[list[Any], int]:
    if len(values) <= 1:
        return list(values), 0
    middle = len(values) // 2
    left, left_count = _sort_counting(values[:middle])
    right, right_count = _sort_counting(values[middle:])
    merged: list[Any] = []
    count = left_count + right_count
    i = j = 0
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:
            merged.append(left[i])
            i += 1
        else:
            merged.append(right[j])
            count += len(left) - i
            j += 1
    merged.extend(left[i:])
    merged.extend(right[j:])
    return merged, count


def quickselect(array: Sequence[float], k: int) -> dict[str, Any]:
    """The ``k``-th smallest value of an array (``k`` counts from 1).

    Parameters
    ----------
    array : list of int or float
        Any order; duplicates are allowed (each copy counts); not empty.
    k : int
        The rank, ``1 <= k <= len(array)``: 1 asks for the minimum, ``len(array)`` for
        the maximum.

    Returns
    -------
    dict
        ``{"value": v}``: the value at position ``k - 1`` of the array sorted in
        non-decreasing order.

    Raises
    ------
    ValueError
        If ``array`` is not a non-empty list of finite numbers, or ``k`` is not an integer
        in ``1..len(array)``.

    Examples
    --------
    >>> quickselect(array=[7, 2, 9, 4, 4, 1], k=3)
    {'value': 4}
    >>> quickselect([7, 2, 9, 4, 4, 1], 4)
    {'value': 4}
    >>> quickselect([5], 1)
    {'value': 5}

    Notes
    -----
    Hoare's selection with a three-way partition, expected O(n): the pivot is the middle
    element ``part[len(part) // 2]``; split into the values less than, equal to and greater
    than it; keep the part that holds rank ``k`` (subtracting the sizes of the parts left
    behind from ``k``) until ``k`` falls among the equal values. The value is unique; any
    pivot rule gives the same one, and the scaffold's validator accepts it however the
    pivots fall.

    References
    ----------
    .. [1] C. A. R. Hoare, "Algorithm 65: Find", Communications of the ACM 4(7), 321-322
       (1961).
    """
    values = _check_numbers(array)
    if not values:
        raise ValueError("array must hold at least one value")
    if isinstance(k, bool) or not isinstance(k, int):
        raise ValueError(f"k must be an integer, got {k!r}")
    if not 1 <= k <= len(values):
        raise ValueError(f"k must be between 1 and {len(values)} (the array's length), got {k}")
    part, rank = values, k
    while True:
        pivot = part[len(part) // 2]
        less = [v for v in part if v < pivot]
        equal = sum(1 for v in part if v == pivot)
        if rank <= len(less):
            part = less
        elif rank <= len(less) + equal:
            return {"value": pivot}
        else:
            part = [v for v in part if v > pivot]
            rank -= len(less) + equal
