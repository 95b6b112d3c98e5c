"""Shared input-generator helpers for graph scaffolds: labelled vertices, deep spanning
trees, connected and cut-off graphs, JSON edge lists.

Every helper is a pure function of the ``random.Random`` it is handed. Labels are ``"A"``,
``"B"``, ...; edge lists come out shuffled and undirected edges randomly oriented, so their
order gives no hint of the answer.
"""

from __future__ import annotations

import bisect
import random
import string
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import accumulate
from typing import Any, overload

__all__ = [
    "MAX_ATTEMPTS",
    "MaskedPairs",
    "Pair",
    "connected_pairs",
    "count_vertices",
    "cut_off_pairs",
    "deep_tree_pairs",
    "edge_list",
    "extra_pairs",
    "far_count",
    "has_unique_minimum_spanning_forest",
    "hop_counts",
    "in_edges_only_pairs",
    "ordered_pair",
    "pairs_with_random_tree",
    "random_tree_pairs",
    "source_input",
    "split_unreachable",
    "tree_path_indices",
    "vertex_labels",
]

Pair = tuple[str, str]
MAX_ATTEMPTS = 500


class MaskedPairs(Sequence[Pair]):
    """The pairs ``(labels[i], labels[j])`` for each set bit ``j`` of ``masks[i]``, in the
    order of ``i``, then ``j`` (``flip``: ``(labels[j], labels[i])``), without listing them.
    ``rng.sample`` and ``rng.choice`` read only a population's length and the items they
    pick, so what they draw from this is what they drew from the list, which, for a choice
    among the pairs of 1,000 vertices, was most of a draw's time."""

    def __init__(self, labels: Sequence[str], masks: Sequence[int], *, flip: bool = False) -> None:
        self._labels, self._masks, self._flip = labels, masks, flip
        self._ends = list(accumulate(mask.bit_count() for mask in masks))

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    @overload
    def __getitem__(self, index: int) -> Pair: ...
    @overload
    def __getitem__(self, index: slice) -> list[Pair]: ...
    def __getitem__(self, index: int | slice) -> Pair | list[Pair]:
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("pair index out of range")
        row = bisect.bisect_right(self._ends, index)
        mask, rank = self._masks[row], index - (self._ends[row - 1] if row else 0)
        low, high = 0, mask.bit_length() - 1
        while low < high:  # the lowest bit with more than ``rank`` set bits at or below it
            middle = (low + high) // 2
            if (mask & ((2 << middle) - 1)).bit_count() > rank:
                high = middle
            else:
                low = middle + 1
        u, v = self._labels[row], self._labels[low]
        return (v, u) if self._flip else (u, v)

    def __iter__(self) -> Iterator[Pair]:
        # rng.sample lists a small population (list(...) reads every item): in order, at
        # once, instead of a bisection per item through Sequence's __iter__.
        labels, flip = self._labels, self._flip
        for u, mask in zip(labels, self._masks, strict=False):
            while mask:
                low = mask & -mask
                v = labels[low.bit_length() - 1]
                yield (v, u) if flip else (u, v)
                mask ^= low


def count_vertices(test_input: Mapping[str, Any]) -> int:
    """A graph input's size (``SizeAxis.measure``): its number of vertices."""
    return len(test_input["vertices"])


MAX_VERTICES = 5000
"""The most vertices a graph generator draws (code mode's size ladder goes to 1,000)."""


def vertex_labels(size: int, least: int = 1) -> list[str]:
    """``"A"``, ``"B"``, ..., ``"Z"``, then ``"AA"``, ``"AB"``, ... (spreadsheet columns) for
    ``size`` vertices; a size outside ``least..MAX_VERTICES`` is an error. A trace-mode size
    range stays within 26, one letter per vertex.

    Examples
    --------
    >>> vertex_labels(3)
    ['A', 'B', 'C']
    >>> vertex_labels(28)[25:]
    ['Z', 'AA', 'AB']
    """
    if not least <= size <= MAX_VERTICES:
        raise ValueError(f"size must be between {least} and {MAX_VERTICES} vertices, got {size}")
    letters = string.ascii_uppercase
    labels = []
    for number in range(1, size + 1):
        label = ""
        while number:
            number, digit = divmod(number - 1, 26)
            label = letters[digit] + label
        labels.append(label)
    return labels


def deep_tree_pairs(rng: random.Random, labels: list[str], source: str) -> list[Pair]:
    """A random tree grown from ``source``, oriented away from it.

    Each new vertex hangs off one of the two latest ones, so trees are deep: targets sit
    several hops away.
    """
    rest = [v for v in labels if v != source]
    rng.shuffle(rest)
    grown = [source]
    pairs: list[Pair] = []
    for v in rest:
        pairs.append((rng.choice(grown[-2:]), v))
        grown.append(v)
    return pairs


class _FreePairs(Sequence[Pair]):
    """The pairs ``(labels[i], labels[j])``, ``i < j``, not joined either way, in that
    order, without listing them: the list of a thousand vertices holds half a million pairs
    of which a draw samples a few. Item ``k`` is found by bisection over the joined pairs'
    places in the full order, so ``rng.sample`` picks the very pairs it picked from the list."""

    def __init__(self, labels: list[str], joined: Iterable[Pair]) -> None:
        self._labels = labels
        n = len(labels)
        where = {label: i for i, label in enumerate(labels)}
        # Where row i (the pairs of labels[i] with a later label) starts in the full order.
        self._rows = [i * n - i * (i + 1) // 2 for i in range(n)]
        places = set()
        for u, v in joined:
            if u not in where or v not in where:
                continue  # joins no two of these labels
            i, j = sorted((where[u], where[v]))
            if i != j:
                places.add(self._rows[i] + j - i - 1)
        taken = sorted(places)
        self._taken = taken
        # Free pairs before each joined one: item k lies past those joined with <= k before.
        self._before = [place - t for t, place in enumerate(taken)]
        self._len = n * (n - 1) // 2 - len(taken)

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, k: int) -> Pair:  # type: ignore[override]
        if not 0 <= k < self._len:
            raise IndexError(k)
        place = k + bisect.bisect_right(self._before, k)
        i = bisect.bisect_right(self._rows, place) - 1
        return self._labels[i], self._labels[place - self._rows[i] + i + 1]

    def __iter__(self) -> Iterator[Pair]:
        # rng.sample lists a small population (list(...) reads every item): in order, at
        # once, instead of two bisections per item through Sequence's __iter__.
        labels = self._labels
        joined = iter(self._taken)
        skip = next(joined, -1)
        place = 0
        for i, u in enumerate(labels):
            for v in labels[i + 1 :]:
                if place == skip:
                    skip = next(joined, -1)
                else:
                    yield u, v
                place += 1


_LISTED_LABELS = 16
"""Up to this many labels (120 pairs), :func:`extra_pairs` lists the free pairs."""


def extra_pairs(rng: random.Random, labels: list[str], taken: list[Pair], count: int) -> list[Pair]:
    """Up to ``count`` new pairs joining vertices not yet joined either way."""
    free: Sequence[Pair]
    if len(labels) <= _LISTED_LABELS and len(set(labels)) == len(labels):
        # A small population, which rng.sample lists anyway: listed at once (the same
        # pairs in the same order as _FreePairs, whose making would cost more).
        ends = {(u, v) for u, v in taken}
        free = [
            (u, v)
            for i, u in enumerate(labels)
            for v in labels[i + 1 :]
            if (u, v) not in ends and (v, u) not in ends
        ]
    else:
        free = _FreePairs(labels, taken)
    if len(set(labels)) != len(labels):  # a label twice: the pairs as listed, by position
        joined = {frozenset(p) for p in taken}
        free = [
            (u, v) for i, u in enumerate(labels) for v in labels[i + 1 :] if {u, v} not in joined
        ]
    chosen = rng.sample(free, min(count, len(free)))
    return [(v, u) if rng.random() < 0.5 else (u, v) for u, v in chosen]


def connected_pairs(rng: random.Random, labels: list[str], source: str, extra: int) -> list[Pair]:
    """Every vertex reachable from ``source`` even when the pairs are read as directed."""
    tree = deep_tree_pairs(rng, labels, source)
    return tree + extra_pairs(rng, labels, tree, extra)


def tree_path_indices(pairs: list[Pair], source: str, goal: str) -> list[int]:
    """Indices of the spanning-tree pairs of a :func:`connected_pairs` list leading from
    ``source`` to ``goal``, from the goal back: the list opens with its tree, each pair
    oriented away from ``source``."""
    tree = pairs[: len({v for pair in pairs for v in pair}) - 1]
    into = {v: (index, u) for index, (u, v) in enumerate(tree)}
    indices: list[int] = []
    while goal != source and goal in into:
        index, goal = into[goal]
        indices.append(index)
    return indices


def edge_list(
    rng: random.Random, pairs: list[Pair], directed: bool, weights: list[int] | None = None
) -> list[list[Any]]:
    """Pairs as JSON edges, shuffled; undirected ones in a random orientation."""
    edges: list[list[Any]] = []
    for index, (u, v) in enumerate(pairs):
        if not directed and rng.random() < 0.5:
            u, v = v, u
        edges.append([u, v] if weights is None else [u, v, weights[index]])
    rng.shuffle(edges)
    return edges


def source_input(
    rng: random.Random,
    labels: list[str],
    pairs: list[Pair],
    source: str,
    directed: bool,
    weights: list[int] | None = None,
) -> dict[str, Any]:
    """The input of a search from ``source`` (bfs, dfs, dijkstra, bellman_ford; astar's
    adds a goal and a heuristic): the vertices, the pairs as shuffled JSON edges
    (:func:`edge_list`, weighted when ``weights`` are given), ``directed`` and ``source``."""
    return {
        "vertices": labels,
        "edges": edge_list(rng, pairs, directed, weights),
        "directed": directed,
        "source": source,
    }


def hop_counts(labels: list[str], pairs: list[Pair], source: str, directed: bool) -> dict[str, Any]:
    """Each vertex's hop count from ``source`` (``None`` when unreachable): what the
    reference :func:`~verification.reference.graph.bfs` gives as ``distances``, without its
    input checks and visiting order, which the generators' own pairs do not need (the
    standard graph tiers ask this several times per case)."""
    neighbours: dict[str, list[str]] = {label: [] for label in labels}
    for u, v in pairs:
        neighbours[u].append(v)
        if not directed:
            neighbours[v].append(u)
    hops: dict[str, Any] = {label: None for label in labels}
    hops[source] = 0
    frontier = [source]
    while frontier:
        following = []
        for u in frontier:
            for v in neighbours[u]:
                if hops[v] is None:
                    hops[v] = hops[u] + 1
                    following.append(v)
        frontier = following
    return hops


def far_count(hops: dict[str, Any], least: int = 3) -> int:
    """How many vertices lie at least ``least`` hops away."""
    return sum(1 for h in hops.values() if h is not None and h >= least)


def split_unreachable(
    rng: random.Random, labels: list[str], source: str
) -> tuple[list[str], list[str]]:
    """The reachable side (with ``source``) and a non-empty side no path from it enters."""
    others = [v for v in labels if v != source]
    rng.shuffle(others)
    cut = rng.randint(0, len(others) - 1)
    return [source, *others[:cut]], others[cut:]


def cut_off_pairs(
    rng: random.Random, near: list[str], far: list[str], source: str, directed: bool
) -> list[Pair]:
    """Connected ``near`` side, a ``far`` side; directed graphs add edges far -> near only."""
    pairs = deep_tree_pairs(rng, near, source) if len(near) > 1 else []
    if len(far) > 1:
        pairs += deep_tree_pairs(rng, far, far[0])
    if directed:
        # Edges into the reachable side tempt an answer that ignores direction.
        pairs += [(rng.choice(far), rng.choice(near)) for _ in range(rng.randint(1, 2))]
        pairs = list(dict.fromkeys(pairs))
    return pairs


def in_edges_only_pairs(rng: random.Random, labels: list[str], source: str) -> list[Pair]:
    """A directed graph whose every edge at ``source`` points into it."""
    others = [v for v in labels if v != source]
    into = rng.sample(others, rng.randint(1, len(others)))
    pairs = [(v, source) for v in sorted(into)]
    pairs += extra_pairs(rng, others, [], rng.randint(0, len(others) - 1))
    return pairs


def ordered_pair(u: str, v: str) -> Pair:
    """An undirected pair with its ends in label order."""
    return (u, v) if u < v else (v, u)


def random_tree_pairs(rng: random.Random, vertices: list[str]) -> set[Pair]:
    """The pairs of a uniformly grown random spanning tree: each vertex joins one placed
    before it (shallower than :func:`deep_tree_pairs`)."""
    order = list(vertices)
    rng.shuffle(order)
    return {
        ordered_pair(vertex, rng.choice(order[:index]))
        for index, vertex in enumerate(order)
        if index > 0
    }


def pairs_with_random_tree(rng: random.Random, vertices: list[str], count: int) -> list[Pair]:
    """``count`` distinct pairs (capped at all pairs) that include a spanning tree, sorted."""
    pairs = random_tree_pairs(rng, vertices)
    # The pairs ``combinations(vertices, 2)`` gives but the tree's, sorted, by index: row u
    # (label order) holds the vertices after u in ``vertices``, less u's tree neighbours
    # there (past Z a tree pair's ends, in string order, may come in the other order).
    labels = sorted(vertices)
    column = {v: i for i, v in enumerate(labels)}
    position = {v: i for i, v in enumerate(vertices)}
    masks, after = [0] * len(labels), 0
    for vertex in reversed(vertices):
        masks[column[vertex]] = after
        after |= 1 << column[vertex]
    for pair in pairs:
        first, second = sorted(pair, key=position.__getitem__)
        masks[column[first]] &= ~(1 << column[second])
    others = MaskedPairs(labels, masks)
    pairs.update(rng.sample(others, min(len(others), max(0, count - len(pairs)))))
    return sorted(pairs)


def has_unique_minimum_spanning_forest(edges: Iterable[Sequence[Any]]) -> bool:
    """Whether an undirected graph's ``[u, v, weight]`` edges have one minimum spanning forest.

    Kruskal by weight class: the forest is unique exactly when, within every class, each edge
    that joins two components as the class begins is still joining two when its turn comes
    (else an equal edge of the class could take its place).

    >>> has_unique_minimum_spanning_forest([["A", "B", 1], ["B", "C", 2], ["A", "C", 2]])
    False
    >>> has_unique_minimum_spanning_forest([["A", "B", 2], ["B", "C", 2], ["A", "C", 3]])
    True
    """
    parent: dict[Any, Any] = {}

    def find(x: Any) -> Any:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    ordered = sorted((edge[2], edge[0], edge[1]) for edge in edges)
    start = 0
    while start < len(ordered):
        end = start
        while end < len(ordered) and ordered[end][0] == ordered[start][0]:
            end += 1
        group = ordered[start:end]
        candidates = sum(find(u) != find(v) for _, u, v in group)
        joined = 0
        for _, u, v in group:
            root_u, root_v = find(u), find(v)
            if root_u != root_v:
                parent[root_u] = root_v
                joined += 1
        if joined != candidates:
            return False
        start = end
    return True
