"""Reference implementations of greedy algorithms."""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from verification.reference._inputs import is_real, label_order, vertex_labels

__all__ = [
    "FRACTIONAL_KNAPSACK_DECIMALS",
    "activity_selection",
    "fractional_knapsack",
    "huffman_coding",
    "kruskal_mst",
]

FRACTIONAL_KNAPSACK_DECIMALS = 4
"""``fractional_knapsack`` rounds the value and every fraction to this many decimals."""


def kruskal_mst(
    vertices: Sequence[str], edges: Sequence[Sequence[Any]], directed: bool = False
) -> dict[str, Any]:
    """Minimum spanning tree (or forest) of an undirected weighted graph by Kruskal's method.

    Parameters
    ----------
    vertices : sequence of str
        The distinct vertex labels.
    edges : sequence of [str, str, int]
        Undirected edges ``[u, v, weight]`` between two different listed vertices; integer
        weights, which may be zero or negative; at most one edge per pair of vertices.
    directed : bool, default False
        Must be false: a spanning tree of a directed graph is an arborescence, another problem.

    Returns
    -------
    dict
        ``{"edges": [[u, v, weight], ...], "total_weight": int}``: the edges of a minimum
        spanning tree, or of a minimum spanning forest (one tree per connected component)
        when the graph is disconnected, in the order Kruskal's method accepts them, each
        written with the smaller label first.

    Raises
    ------
    ValueError
        If the graph is directed, a label repeats or is not a string, an edge is not
        ``[u, v, int]``, names an unknown vertex, is a self loop, or repeats a pair.

    Examples
    --------
    >>> kruskal_mst(
    ...     vertices=["A", "B", "C", "D"],
    ...     edges=[["A", "B", 1], ["B", "C", 2], ["A", "C", 2], ["C", "D", 3]],
    ... )
    {'edges': [['A', 'B', 1], ['A', 'C', 2], ['C', 'D', 3]], 'total_weight': 6}
    >>> kruskal_mst(vertices=["A", "B", "C"], edges=[["B", "A", 5]])
    {'edges': [['A', 'B', 5]], 'total_weight': 5}

    Notes
    -----
    Edges are sorted by ``(weight, smaller label, larger label)`` (labels in ascending
    label order: a shorter label first, then alphabetically, so ``Z`` before ``AA``), so
    among tied minimum spanning forests the one accepted is the one whose
    sorted edge keys come first; an edge is accepted when its endpoints lie in different
    components. Components are a union-find with path compression and union by rank:
    O(E log E) for the sort and O(E alpha(V)) for the finds. The scan stops early once
    ``|V| - 1`` edges are accepted.

    References
    ----------
    .. [1] J. B. Kruskal, "On the shortest spanning subtree of a graph and the traveling
       salesman problem", Proc. AMS 7(1), 1956, pp. 48-50.
    .. [2] R. E. Tarjan, "Efficiency of a good but not linear set union algorithm",
       J. ACM 22(2), 1975, pp. 215-225.
    """
    if directed:
        raise ValueError("kruskal_mst needs an undirected graph; got directed=True")
    labels = vertex_labels(vertices)
    keyed = sorted(
        _check_edges(edges, labels),
        key=lambda edge: (edge[0], label_order(edge[1]), label_order(edge[2])),
    )

    parent = {label: label for label in labels}
    rank = dict.fromkeys(labels, 0)

    def find(label: str) -> str:
        root = label
        while parent[root] != root:
            root = parent[root]
        while parent[label] != root:
            parent[label], label = root, parent[label]
        return root

    accepted: list[list[Any]] = []
    for weight, u, v in keyed:
        if len(accepted) == len(labels) - 1:
            break
        root_u, root_v = find(u), find(v)
        if root_u == root_v:
            continue
        if rank[root_u] < rank[root_v]:
            root_u, root_v = root_v, root_u
        parent[root_v] = root_u
        if rank[root_u] == rank[root_v]:
            rank[root_u] += 1
        accepted.append([u, v, weight])
    return {"edges": accepted, "total_weight": sum(edge[2] for edge in accepted)}


def _check_edges(edges: Sequence[Sequence[Any]], labels: list[str]) -> list[tuple[int, str, str]]:
    """``(weight, smaller label, larger label)`` per edge (in ascending label order)."""
    known = set(labels)
    seen: set[tuple[str, str]] = set()
    keyed: list[tuple[int, str, str]] = []
    for edge in edges:
        plain = type(edge) is list or type(edge) is tuple  # no ABC check for these
        is_sequence = plain or (not isinstance(edge, str) and isinstance(edge, Sequence))
        if not is_sequence or len(edge) != 3:
            raise ValueError(f"edge {edge!r} is not [u, v, weight]")
        u, v, weight = edge
        if isinstance(weight, bool) or not isinstance(weight, int):
            raise ValueError(f"edge {list(edge)!r} has a weight that is not an integer")
        for end in (u, v):
            if not isinstance(end, str) or end not in known:
                raise ValueError(f"edge {list(edge)!r} names an unknown vertex {end!r}")
        if u == v:
            raise ValueError(f"edge {list(edge)!r} is a self loop")
        pair = (u, v) if label_order(u) < label_order(v) else (v, u)
        if pair in seen:
            raise ValueError(f"edge {list(edge)!r} repeats the pair {list(pair)!r}")
        seen.add(pair)
        keyed.append((weight, *pair))
    return keyed


def _exact(value: Any, name: str) -> Fraction:
    """``value`` as an exact fraction (a float's exact binary value), refusing non-numbers
    and non-finite floats."""
    if not is_real(value):
        raise ValueError(f"{name} must be a number, got {value!r:.40}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return Fraction(value)


def _sequence(value: Any, name: str) -> list[Any]:
    plain = type(value) is list or type(value) is tuple  # no ABC check for these
    if not plain and (isinstance(value, str | bytes) or not isinstance(value, Sequence)):
        raise ValueError(f"{name} must be a list, got {type(value).__name__}")
    return list(value)


def activity_selection(activities: Sequence[Sequence[Any]]) -> dict[str, Any]:
    """A largest set of mutually compatible activities, by the earliest-finish greedy rule.

    Parameters
    ----------
    activities : sequence of [label, start, finish] or of [start, finish]
        Each activity occupies the half-open time interval ``[start, finish)``: start and
        finish are finite numbers with ``start < finish``. Either every activity carries a
        unique string label first, or none does (the API reference's form).

    Returns
    -------
    dict
        ``{"selected": [...], "count": int}``: the chosen activities in the order they are
        chosen (ascending finish time), each as its label, or as ``[start, finish]`` when the
        activities carry no labels; ``count`` is their number, the largest possible. Two
        activities are compatible when one finishes no later than the other starts, so
        touching activities (one finishes exactly when the next starts) are compatible.

    Raises
    ------
    ValueError
        If ``activities`` is not a list, an activity is not ``[label, start, finish]`` or
        ``[start, finish]`` (or the two forms are mixed), a label is not a string or
        repeats, a time is not a finite number, or an activity does not finish after it
        starts.

    Examples
    --------
    >>> activity_selection([["A", 1, 4], ["B", 3, 5], ["C", 4, 7], ["D", 5, 9], ["E", 7, 8]])
    {'selected': ['A', 'C', 'E'], 'count': 3}
    >>> activity_selection([(1, 4), (3, 5), (0, 6), (5, 7), (3, 9), (5, 9), (6, 10)])
    {'selected': [[1, 4], [5, 7]], 'count': 2}
    >>> activity_selection([])
    {'selected': [], 'count': 0}

    Notes
    -----
    Sort by finish time and scan, taking each activity that starts no earlier than the
    finish of the last one taken: O(n log n). The sort is stable, so among activities that
    finish together the one listed first is taken (the others overlap it). Any maximum set
    is right; this is the one the greedy rule picks. In the API reference's example,
    ``(5, 7)`` and ``(6, 10)`` overlap, so its three-activity answer is not compatible; the
    optimum there is two.

    References
    ----------
    .. [1] T. H. Cormen, C. E. Leiserson, R. L. Rivest and C. Stein, *Introduction to
       Algorithms*, 3rd ed., MIT Press, 2009, section 16.1.
    """
    items = _sequence(activities, "activities")
    labelled: bool | None = None
    parsed: list[tuple[Fraction, Fraction, Any]] = []
    seen: set[str] = set()
    for index, activity in enumerate(items):
        plain = type(activity) is list or type(activity) is tuple  # no ABC check for these
        if not plain and (isinstance(activity, str | bytes) or not isinstance(activity, Sequence)):
            raise ValueError(
                f"activities[{index}] must be [label, start, finish], got {activity!r}"
            )
        if len(activity) not in (2, 3):
            raise ValueError(
                f"activities[{index}] must be [label, start, finish] or [start, finish], "
                f"got {list(activity)!r}"
            )
        has_label = len(activity) == 3
        if labelled is None:
            labelled = has_label
        elif labelled != has_label:
            raise ValueError("either every activity has a label or none does")
        if has_label:
            label, start, finish = activity
            if not isinstance(label, str):
                raise ValueError(f"activities[{index}]: label {label!r} is not a string")
            if label in seen:
                raise ValueError(f"activity label {label!r} repeats")
            seen.add(label)
            name: Any = label
        else:
            start, finish = activity
            name = [start, finish]
        low = _exact(start, f"activities[{index}] start")
        high = _exact(finish, f"activities[{index}] finish")
        if not low < high:
            raise ValueError(f"activities[{index}] must finish after it starts, got {name!r}")
        parsed.append((high, low, name))

    selected: list[Any] = []
    free_from: Fraction | None = None
    # Stable sort on the finish alone: ties keep the input order.
    for finish_time, start_time, name in sorted(parsed, key=lambda item: item[0]):
        if free_from is None or start_time >= free_from:
            selected.append(name)
            free_from = finish_time
    return {"selected": selected, "count": len(selected)}


def _frequency_table(symbols: Any, frequencies: Any) -> list[tuple[str, int]]:
    if isinstance(frequencies, Mapping) and symbols is None:
        pairs = list(frequencies.items())
    elif isinstance(symbols, Mapping) and frequencies is None:
        pairs = list(symbols.items())
    else:
        names = _sequence(symbols, "symbols")
        counts = _sequence(frequencies, "frequencies")
        if len(names) != len(counts):
            raise ValueError(
                f"symbols and frequencies differ in length: {len(names)} and {len(counts)}"
            )
        pairs = list(zip(names, counts, strict=True))
    seen: set[str] = set()
    for symbol, count in pairs:
        if not isinstance(symbol, str) or not symbol:
            raise ValueError(f"symbol {symbol!r} is not a non-empty string")
        if symbol in seen:
            raise ValueError(f"symbol {symbol!r} repeats")
        seen.add(symbol)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError(f"frequency of {symbol!r} must be a positive integer, got {count!r}")
    return pairs


def huffman_coding(
    symbols: Sequence[str] | Mapping[str, int] | None = None,
    frequencies: Sequence[int] | Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """An optimal prefix-free binary code by Huffman's algorithm.

    Parameters
    ----------
    symbols : sequence of str, or mapping of str to int, optional
        The distinct symbols, with ``frequencies`` listing their counts in the same order;
        or a whole frequency table ``{symbol: count}`` (then ``frequencies`` is omitted).
    frequencies : sequence of int, or mapping of str to int, optional
        The positive integer count of each symbol; or a frequency table ``{symbol: count}``
        (then ``symbols`` is omitted). The table's order is the symbols' order.

    Returns
    -------
    dict
        ``{"codes": {symbol: code}, "total_bits": int}``: a codeword of ``"0"``/``"1"``
        characters per symbol, in the symbols' order, no codeword a prefix of another;
        ``total_bits`` is the sum of frequency times codeword length, the smallest any
        prefix-free code reaches. A lone symbol gets the code ``"0"`` (one bit per
        occurrence); no symbols give ``{"codes": {}, "total_bits": 0}``.

    Raises
    ------
    ValueError
        If a symbol is not a non-empty string or repeats, a frequency is not a positive
        integer, the two lists differ in length, or neither form of input is given.

    Examples
    --------
    >>> huffman_coding(["A", "B", "C", "D"], [5, 1, 2, 1])
    {'codes': {'A': '1', 'B': '010', 'C': '00', 'D': '011'}, 'total_bits': 15}
    >>> huffman_coding(frequencies={"x": 3, "y": 3})
    {'codes': {'x': '0', 'y': '1'}, 'total_bits': 6}
    >>> huffman_coding(frequencies={"z": 7})
    {'codes': {'z': '0'}, 'total_bits': 7}

    Notes
    -----
    Repeatedly merge the two lightest trees; the first taken becomes the ``0`` branch of
    the merged tree, the second the ``1`` branch. Ties between equal weights go to the tree
    made first: the leaves in the symbols' order, then the merged trees in the order they
    were made. A binary heap makes it O(n log n). Every optimal code has the same
    ``total_bits``; the codewords themselves depend on the tie-breaking and branch labels.

    References
    ----------
    .. [1] D. A. Huffman, "A method for the construction of minimum-redundancy codes",
       Proc. IRE 40(9), 1952, pp. 1098-1101.
    """
    if symbols is None and frequencies is None:
        raise ValueError("huffman_coding needs symbols and frequencies, or a frequency table")
    table = _frequency_table(symbols, frequencies)
    if not table:
        return {"codes": {}, "total_bits": 0}
    if len(table) == 1:
        symbol, count = table[0]
        return {"codes": {symbol: "0"}, "total_bits": count}

    # A tree is a symbol (a leaf) or a pair of trees (the 0 and the 1 branch).
    made = itertools.count()
    heap: list[tuple[int, int, Any]] = [(count, next(made), symbol) for symbol, count in table]
    heapq.heapify(heap)
    while len(heap) > 1:
        first_weight, _, first = heapq.heappop(heap)
        second_weight, _, second = heapq.heappop(heap)
        heapq.heappush(heap, (first_weight + second_weight, next(made), (first, second)))

    found: dict[str, str] = {}
    stack: list[tuple[Any, str]] = [(heap[0][2], "")]
    while stack:
        tree, prefix = stack.pop()
        if isinstance(tree, str):
            found[tree] = prefix
        else:
            stack.append((tree[0], prefix + "0"))
            stack.append((tree[1], prefix + "1"))
    codes = {symbol: found[symbol] for symbol, _ in table}
    total = sum(count * len(codes[symbol]) for symbol, count in table)
    return {"codes": codes, "total_bits": total}


def fractional_knapsack(
    weights: Sequence[float], values: Sequence[float], capacity: float
) -> dict[str, Any]:
    """The most valuable load of a knapsack when items may be cut, by the greedy ratio rule.

    Parameters
    ----------
    weights : sequence of numbers
        The weight of each item, positive and finite.
    values : sequence of numbers
        The value of each item (same length), non-negative and finite.
    capacity : number
        The most weight the knapsack holds, non-negative and finite.

    Returns
    -------
    dict
        ``{"max_value": float, "fractions": [float, ...]}``: the largest total value, and
        per item (in input order) the share of it taken, from ``0.0`` (left out) to ``1.0``
        (taken whole). Both are rounded to :data:`FRACTIONAL_KNAPSACK_DECIMALS` decimals
        after an exact computation, so they are exact when every fraction is a decimal of
        that many places (weights dividing 10**4, integer capacity and values).

    Raises
    ------
    ValueError
        If the lists are not lists of numbers of the same length, a weight is not
        positive, a value is negative, the capacity is negative, or any number is not
        finite.

    Examples
    --------
    >>> fractional_knapsack(weights=[10, 20, 30], values=[60, 100, 120], capacity=50)
    {'max_value': 240.0, 'fractions': [1.0, 1.0, 0.6667]}
    >>> fractional_knapsack(weights=[4, 5, 8], values=[10, 20, 12], capacity=6)
    {'max_value': 22.5, 'fractions': [0.25, 1.0, 0.0]}
    >>> fractional_knapsack(weights=[4, 5], values=[10, 20], capacity=0)
    {'max_value': 0.0, 'fractions': [0.0, 0.0]}

    Notes
    -----
    Sort the items by value per unit of weight, highest first, and take each whole while
    it fits, then the fitting share of the next one; the rest stay out. O(n log n). Ratios
    are compared exactly (as fractions); equal ratios keep the input order. When the split
    falls inside a group of equal ratios, several fraction lists reach the same value; this
    is the one the rule gives.

    References
    ----------
    .. [1] G. B. Dantzig, "Discrete-variable extremum problems", Operations Research 5(2),
       1957, pp. 266-288.
    """
    weight_list = _sequence(weights, "weights")
    value_list = _sequence(values, "values")
    if len(weight_list) != len(value_list):
        raise ValueError(
            f"weights and values differ in length: {len(weight_list)} and {len(value_list)}"
        )
    exact_weights = [_exact(w, f"weights[{i}]") for i, w in enumerate(weight_list)]
    exact_values = [_exact(v, f"values[{i}]") for i, v in enumerate(value_list)]
    room = _exact(capacity, "capacity")
    for index, weight in enumerate(exact_weights):
        if weight <= 0:
            raise ValueError(f"weights[{index}] must be positive, got {weight_list[index]!r}")
    for index, value in enumerate(exact_values):
        if value < 0:
            raise ValueError(f"values[{index}] must not be negative, got {value_list[index]!r}")
    if room < 0:
        raise ValueError(f"capacity must not be negative, got {capacity!r}")

    taken = [Fraction(0)] * len(exact_weights)
    total = Fraction(0)
    # Stable sort on the exact ratio: equal ratios keep the input order.
    for index in sorted(
        range(len(exact_weights)), key=lambda i: -exact_values[i] / exact_weights[i]
    ):
        if room == 0:
            break
        share = min(Fraction(1), room / exact_weights[index])
        taken[index] = share
        total += share * exact_values[index]
        room -= share * exact_weights[index]
    places = FRACTIONAL_KNAPSACK_DECIMALS
    return {
        "max_value": round(float(total), places),
        "fractions": [round(float(share), places) for share in taken],
    }
