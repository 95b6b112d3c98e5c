"""Reference implementations of dynamic-programming algorithms."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = [
    "edit_distance",
    "knapsack_01",
    "lcs_length",
    "levenshtein_distance",
    "longest_common_subsequence",
    "longest_increasing_subsequence",
    "matrix_chain_multiplication",
]


def knapsack_01(weights: Sequence[int], values: Sequence[int], capacity: int) -> dict[str, Any]:
    """The most valuable set of items whose total weight fits the capacity (0/1 knapsack).

    Parameters
    ----------
    weights : sequence of int
        Positive weight of item ``i`` (at least 1).
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
        If the lists differ in length, a weight is not a positive integer, or a value or
        the capacity is not a non-negative integer.

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
    # Weights start at 1, as the scaffold states: a weight-0 item fits a capacity of 0,
    # where the scaffold's edge case answers nothing.
    for name, items, least in (("weights", weights, 1), ("values", values, 0)):
        if isinstance(items, str) or not isinstance(items, Sequence):
            raise ValueError(f"{name} must be a list of integers, got {type(items).__name__}")
        kind = "a positive" if least else "a non-negative"
        for index, item in enumerate(items):
            if isinstance(item, bool) or not isinstance(item, int) or item < least:
                raise ValueError(f"{name}[{index}] = {item!r} is not {kind} integer")
    if len(weights) != len(values):
        raise ValueError(f"{len(weights)} weights but {len(values)} values")
    if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 0:
        raise ValueError(f"capacity {capacity!r} is not a non-negative integer")


def _check_text(name: str, text: Any) -> str:
    if not isinstance(text, str):
        raise ValueError(f"{name} must be a string, got {type(text).__name__}")
    return text


def longest_common_subsequence(a: str, b: str) -> dict[str, Any]:
    """The length of a longest common subsequence of two strings, and one such subsequence.

    A subsequence keeps some characters of a string in their order, not necessarily
    adjacent (``"ACE"`` is a subsequence of ``"ABCDE"``).

    Parameters
    ----------
    a, b : str
        The two strings (any characters; compared exactly, case-sensitive).

    Returns
    -------
    dict
        ``{"length": int, "subsequence": str}``: the LCS length and one common
        subsequence of that length (``""`` when the strings share no character).

    Raises
    ------
    ValueError
        If ``a`` or ``b`` is not a string.

    Examples
    --------
    >>> longest_common_subsequence(a="ABCBDAB", b="BDCABA")
    {'length': 4, 'subsequence': 'BCBA'}
    >>> longest_common_subsequence(a="ABC", b="ABC")
    {'length': 3, 'subsequence': 'ABC'}
    >>> longest_common_subsequence(a="", b="XYZ")
    {'length': 0, 'subsequence': ''}

    Notes
    -----
    ``L[i][j]`` is the LCS length of the prefixes ``a[:i]`` and ``b[:j]``: ``L[i-1][j-1] + 1``
    when ``a[i-1] == b[j-1]``, else ``max(L[i-1][j], L[i][j-1])``. O(len(a) * len(b)) time
    and space.

    Tie-break: the witness is read backwards from ``(len(a), len(b))``: on equal characters
    take the character and move diagonally; otherwise move up (drop ``a[i-1]``) when
    ``L[i-1][j] >= L[i][j-1]``, else left. Other witnesses of the same length are equally
    right.

    References
    ----------
    .. [1] T. H. Cormen, C. E. Leiserson, R. L. Rivest, C. Stein, *Introduction to
       Algorithms*, 3rd ed., section 15.4 "Longest common subsequence".
    """
    _check_text("a", a)
    _check_text("b", b)
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            if a[i - 1] == b[j - 1]:
                table[i][j] = table[i - 1][j - 1] + 1
            else:
                table[i][j] = max(table[i - 1][j], table[i][j - 1])
    taken: list[str] = []
    i, j = len(a), len(b)
    while i > 0 and j > 0:
        if a[i - 1] == b[j - 1]:
            taken.append(a[i - 1])
            i, j = i - 1, j - 1
        elif table[i - 1][j] >= table[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return {"length": table[len(a)][len(b)], "subsequence": "".join(reversed(taken))}


def lcs_length(a: str, b: str) -> int:
    """The length of a longest common subsequence of ``a`` and ``b``, without the table.

    Parameters
    ----------
    a, b : str
        The two strings (any characters).

    Returns
    -------
    int
        ``longest_common_subsequence(a, b)["length"]``.

    Raises
    ------
    ValueError
        If ``a`` or ``b`` is not a string.

    Examples
    --------
    >>> lcs_length("ABCBDAB", "BDCABA")
    4
    >>> lcs_length("", "ABC")
    0

    Notes
    -----
    Bit-parallel: after the first ``j`` letters of ``b``, bit ``i`` of ``v`` is 0 exactly
    when ``a[: i + 1]`` has one more letter in common with ``b[:j]`` than ``a[:i]`` has,
    so the zeros count the length. Per letter ``c`` of
    ``b``, with ``m`` the bits of ``a``'s positions holding ``c``: ``u = v & m``,
    ``v = (v + u) | (v - u)``, kept to ``len(a)`` bits. O(len(b)) operations on integers of
    ``len(a)`` bits: the generators that only ask whether a pair of long strings is worth
    asking (code mode's 500 letters) need no quadratic table.

    References
    ----------
    .. [1] L. Allison, T. I. Dix, "A bit-string longest-common-subsequence algorithm",
       Information Processing Letters 23(5), 1986.
    .. [2] H. Hyyrö, "Bit-parallel LCS-length computation revisited", Proceedings of the
       15th Australasian Workshop on Combinatorial Algorithms, 2004.
    """
    _check_text("a", a)
    _check_text("b", b)
    full = (1 << len(a)) - 1
    places: dict[str, int] = {}
    for i, letter in enumerate(a):
        places[letter] = places.get(letter, 0) | 1 << i
    v = full
    for letter in b:
        u = v & places.get(letter, 0)
        v = ((v + u) | (v - u)) & full
    return len(a) - v.bit_count()


def edit_distance(a: str, b: str) -> dict[str, Any]:
    """The Levenshtein distance from ``a`` to ``b``: the fewest single-character edits.

    An edit inserts one character, deletes one character, or replaces one character by
    another; each costs 1 (unit costs; no transpositions).

    Parameters
    ----------
    a : str
        The source string.
    b : str
        The target string (the distance is symmetric).

    Returns
    -------
    dict
        ``{"distance": int}``.

    Raises
    ------
    ValueError
        If ``a`` or ``b`` is not a string.

    Examples
    --------
    >>> edit_distance(a="kitten", b="sitting")
    {'distance': 3}
    >>> edit_distance(a="", b="abc")
    {'distance': 3}
    >>> edit_distance(a="same", b="same")
    {'distance': 0}

    Notes
    -----
    ``D[i][j]`` is the distance between the prefixes ``a[:i]`` and ``b[:j]``:
    ``D[i][0] = i``, ``D[0][j] = j``, and ``D[i][j] = D[i-1][j-1]`` when ``a[i-1] == b[j-1]``,
    else ``1 + min(D[i-1][j], D[i][j-1], D[i-1][j-1])`` (delete, insert, replace). On equal
    characters the diagonal never loses: ``D[i-1][j-1] <= D[i-1][j] + 1`` and likewise for
    the left cell. O(len(a) * len(b)) time, two rows of space. The distance is unique, so
    there is no tie-break.

    References
    ----------
    .. [1] V. I. Levenshtein, "Binary codes capable of correcting deletions, insertions, and
       reversals", Soviet Physics Doklady 10(8), 707-710 (1966).
    .. [2] R. A. Wagner, M. J. Fischer, "The string-to-string correction problem", Journal
       of the ACM 21(1), 168-173 (1974).
    """
    _check_text("a", a)
    _check_text("b", b)
    above = list(range(len(b) + 1))
    for i, letter in enumerate(a, 1):
        # D[i-1][j-1], D[i-1][j] and D[i][j-1] carried along the row as it is built
        diagonal, left = above[0], i
        row = [i]
        for j, other in enumerate(b, 1):
            up = above[j]
            left = diagonal if letter == other else 1 + min(up, left, diagonal)
            row.append(left)
            diagonal = up
        above = row
    return {"distance": above[len(b)]}


def levenshtein_distance(a: str, b: str) -> int:
    """The Levenshtein distance from ``a`` to ``b``, without the table.

    Parameters
    ----------
    a, b : str
        The two strings (any characters).

    Returns
    -------
    int
        ``edit_distance(a, b)["distance"]``.

    Raises
    ------
    ValueError
        If ``a`` or ``b`` is not a string.

    Examples
    --------
    >>> levenshtein_distance("kitten", "sitting")
    3
    >>> levenshtein_distance("", "abc")
    3

    Notes
    -----
    Bit-parallel: the table's column over the prefixes of ``a`` is kept as two bit sets,
    the rows where it steps up by one (``pv``) and down by one (``mv``) from the row
    above; each letter of ``b`` moves to the next column in a few operations on integers
    of ``len(a)`` bits, the row above the first stepping up by one per column (the
    distance from the empty prefix). The distance follows the last row, from
    ``len(a)``. O(len(b)) integer operations: the generators that only ask whether a
    pair of long strings is worth asking (code mode's 500 letters) need no quadratic
    table.

    References
    ----------
    .. [1] G. Myers, "A fast bit-vector algorithm for approximate string matching based on
       dynamic programming", Journal of the ACM 46(3), 1999.
    .. [2] H. Hyyro, "Explaining and extending the bit-parallel approximate string
       matching algorithm of Myers", technical report A-2001-10, University of Tampere,
       2001.
    """
    _check_text("a", a)
    _check_text("b", b)
    m = len(a)
    if not m:
        return len(b)
    full, last = (1 << m) - 1, 1 << (m - 1)
    places: dict[str, int] = {}
    for i, letter in enumerate(a):
        places[letter] = places.get(letter, 0) | 1 << i
    pv, mv, distance = full, 0, m
    for letter in b:
        eq = places.get(letter, 0)
        xv = eq | mv
        xh = (((eq & pv) + pv) ^ pv) | eq
        ph = mv | (~(xh | pv) & full)
        mh = pv & xh
        if ph & last:
            distance += 1
        elif mh & last:
            distance -= 1
        ph = (ph << 1 | 1) & full  # the row above the first steps up by one
        mh = mh << 1 & full
        pv = mh | (~(xv | ph) & full)
        mv = ph & xv
    return distance


def longest_increasing_subsequence(sequence: Sequence[int]) -> dict[str, Any]:
    """The length of a longest strictly increasing subsequence, and one such subsequence.

    Parameters
    ----------
    sequence : sequence of int
        The numbers, in order; repeats are allowed (equal values never both belong to a
        strictly increasing subsequence).

    Returns
    -------
    dict
        ``{"length": int, "subsequence": [int, ...]}``: the LIS length and the values of one
        strictly increasing subsequence of that length, in sequence order (``[]`` for an
        empty sequence).

    Raises
    ------
    ValueError
        If ``sequence`` is not a list of integers.

    Examples
    --------
    >>> longest_increasing_subsequence(sequence=[3, 1, 4, 1, 5, 9, 2, 6])
    {'length': 4, 'subsequence': [3, 4, 5, 9]}
    >>> longest_increasing_subsequence(sequence=[5, 4, 3])
    {'length': 1, 'subsequence': [5]}
    >>> longest_increasing_subsequence(sequence=[2, 2, 2])
    {'length': 1, 'subsequence': [2]}
    >>> longest_increasing_subsequence(sequence=[])
    {'length': 0, 'subsequence': []}

    Notes
    -----
    ``L[i]`` is the length of the longest strictly increasing subsequence ending at index
    ``i``: ``1 + max(L[j])`` over ``j < i`` with ``sequence[j] < sequence[i]`` (1 when there
    is none). O(n^2) time, O(n) space.

    Tie-break: the predecessor of ``i`` is the smallest such ``j`` with the largest ``L[j]``,
    and the subsequence ends at the smallest index with the largest ``L``. Other strictly
    increasing subsequences of the same length are equally right.

    References
    ----------
    .. [1] T. H. Cormen, C. E. Leiserson, R. L. Rivest, C. Stein, *Introduction to
       Algorithms*, 3rd ed., exercise 15.4-5.
    """
    if isinstance(sequence, str) or not isinstance(sequence, Sequence):
        raise ValueError(f"sequence must be a list of integers, got {type(sequence).__name__}")
    for position, value in enumerate(sequence):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"sequence[{position}] = {value!r} is not an integer")
    n = len(sequence)
    if n == 0:
        return {"length": 0, "subsequence": []}
    ending = [1] * n
    previous: list[int | None] = [None] * n
    for i in range(n):
        for j in range(i):
            if sequence[j] < sequence[i] and ending[j] + 1 > ending[i]:
                ending[i], previous[i] = ending[j] + 1, j
    best = max(ending)
    index: int | None = ending.index(best)
    values: list[int] = []
    while index is not None:
        values.append(sequence[index])
        index = previous[index]
    return {"length": best, "subsequence": values[::-1]}


def matrix_chain_multiplication(dimensions: Sequence[int]) -> dict[str, Any]:
    """The fewest scalar multiplications to multiply a chain of matrices, and an order.

    Matrix ``Ai`` (``i = 1 .. n``) is ``dimensions[i-1] x dimensions[i]``; multiplying a
    ``p x q`` matrix by a ``q x r`` one costs ``p * q * r`` scalar multiplications.

    Parameters
    ----------
    dimensions : sequence of int
        ``n + 1`` positive integers for a chain of ``n >= 1`` matrices.

    Returns
    -------
    dict
        ``{"min_cost": int, "parenthesization": str}``. The parenthesization follows the
        grammar ``expr := "A" index | "(" expr expr ")"``, indices written in decimal
        without leading zeros: every product of two factors is wrapped in exactly one pair
        of parentheses, with no spaces or other characters (``"((A1A2)A3)"``; one matrix
        is ``"A1"``).

    Raises
    ------
    ValueError
        If ``dimensions`` is not a list of at least two positive integers.

    Examples
    --------
    >>> matrix_chain_multiplication(dimensions=[10, 30, 5, 60])
    {'min_cost': 4500, 'parenthesization': '((A1A2)A3)'}
    >>> matrix_chain_multiplication(dimensions=[40, 20, 30, 10, 30])
    {'min_cost': 26000, 'parenthesization': '((A1(A2A3))A4)'}
    >>> matrix_chain_multiplication(dimensions=[7, 3])
    {'min_cost': 0, 'parenthesization': 'A1'}

    Notes
    -----
    ``m[i][j]`` is the least cost of ``Ai .. Aj``: 0 when ``i == j``, else the minimum over
    ``k = i .. j-1`` of ``m[i][k] + m[k+1][j] + d[i-1] * d[k] * d[j]``. O(n^3) time,
    O(n^2) space.

    Tie-break: the smallest split ``k`` reaching the minimum. Other parenthesizations of the
    same cost are equally right.

    References
    ----------
    .. [1] T. H. Cormen, C. E. Leiserson, R. L. Rivest, C. Stein, *Introduction to
       Algorithms*, 3rd ed., section 15.2 "Matrix-chain multiplication".
    """
    if isinstance(dimensions, str) or not isinstance(dimensions, Sequence):
        raise ValueError(f"dimensions must be a list of integers, got {type(dimensions).__name__}")
    if len(dimensions) < 2:
        raise ValueError(f"dimensions needs at least 2 entries (one matrix), got {len(dimensions)}")
    for index, value in enumerate(dimensions):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"dimensions[{index}] = {value!r} is not a positive integer")
    d = list(dimensions)
    n = len(d) - 1
    cost = [[0] * (n + 1) for _ in range(n + 1)]
    split = [[0] * (n + 1) for _ in range(n + 1)]
    for span in range(2, n + 1):
        for i in range(1, n - span + 2):
            j = i + span - 1
            # The first k reaching the least cost (a later one only if strictly cheaper).
            row, outer = cost[i], d[i - 1]
            best_k, best = i, row[i] + cost[i + 1][j] + outer * d[i] * d[j]
            for k in range(i + 1, j):
                total = row[k] + cost[k + 1][j] + outer * d[k] * d[j]
                if total < best:
                    best_k, best = k, total
            split[i][j] = best_k
            cost[i][j] = best

    def written(i: int, j: int) -> str:
        if i == j:
            return f"A{i}"
        k = split[i][j]
        return f"({written(i, k)}{written(k + 1, j)})"

    return {"min_cost": cost[1][n], "parenthesization": written(1, n)}
