"""Validators for unordered collections, and property validators built on them."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from verification.cases import TestCase
from verification.validators.base import FieldValidator, ValidationResult, Validator, pick

__all__ = ["MSTValidator", "SetEquivalenceValidator", "canonical"]


def canonical(value: Any) -> str:
    """A hashable, order-insensitive-for-objects key of a JSON value (tuples as lists)."""
    if isinstance(value, set | frozenset):
        value = sorted(value, key=canonical)
    return json.dumps(value, sort_keys=True, default=_default)


def _default(value: Any) -> Any:
    if isinstance(value, set | frozenset):
        return sorted(value, key=canonical)
    raise TypeError(f"not JSON data: {type(value).__name__}")


class SetEquivalenceValidator(FieldValidator):
    """Same elements in any order; a repeated element counts as a difference."""

    kind = "set"

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        got, want = self.picked(actual, expected)
        for value, role in ((got, "answer"), (want, "expected value")):
            if not isinstance(value, Iterable) or isinstance(value, str | bytes | dict):
                return ValidationResult(
                    False, f"the {role} is not a collection ({type(value).__name__})"
                )
        got_counts = Counter(canonical(item) for item in got)
        want_counts = Counter(canonical(item) for item in want)
        if got_counts == want_counts:
            return ValidationResult(True, f"same {sum(want_counts.values())} elements")
        missing = sorted((want_counts - got_counts).elements())
        extra = sorted((got_counts - want_counts).elements())
        return ValidationResult(
            False,
            f"missing {missing[:5]}, unexpected {extra[:5]}",
            {"missing": missing[:20], "unexpected": extra[:20]},
        )


def _edge_key(edge: Any, *, need_weight: bool) -> tuple[tuple[str, str], int | None] | str:
    """``((smaller, larger), weight)`` of an edge ``[u, v]`` or ``[u, v, w]``, or why not."""
    if isinstance(edge, str | bytes) or not isinstance(edge, Sequence):
        return f"edge {edge!r:.60} is not a list"
    if len(edge) not in ((3,) if need_weight else (2, 3)):
        shape = "[u, v, weight]" if need_weight else "[u, v] or [u, v, weight]"
        return f"edge {edge!r:.60} is not {shape}"
    u, v = edge[0], edge[1]
    if not isinstance(u, str) or not isinstance(v, str):
        return f"edge {edge!r:.60} has an endpoint that is not a vertex label"
    if u == v:
        return f"edge {edge!r:.60} is a self loop"
    weight = edge[2] if len(edge) == 3 else None
    if weight is not None and (isinstance(weight, bool) or not isinstance(weight, int)):
        return f"edge {edge!r:.60} has a weight that is not an integer"
    return _ordered(u, v), weight


def _root(parent: dict[str, str], label: str) -> str:
    while parent.setdefault(label, label) != label:
        parent[label] = parent[parent[label]]
        label = parent[label]
    return label


def _join(parent: dict[str, str], u: str, v: str) -> bool:
    """Merge the components of ``u`` and ``v``; false when they were one already."""
    root_u, root_v = _root(parent, u), _root(parent, v)
    if root_u == root_v:
        return False
    parent[root_v] = root_u
    return True


class MSTValidator(Validator):
    """A minimum spanning tree, or forest when the graph is disconnected: any one of them.

    With ``case``: every edge is an edge of the input with its weight, none repeats, they
    close no cycle, there are ``|V| - components`` of them, ``total_weight`` is their sum,
    and that sum is the optimum ``expected["total_weight"]``; edges in any order, endpoints
    either way round. Without ``case``: the same total and the same set of endpoint pairs
    as ``expected`` (weights compared where both sides give them).
    """

    kind = "mst"

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        edges, total = pick(actual, "edges"), pick(actual, "total_weight")
        if isinstance(edges, str | bytes) or not isinstance(edges, Sequence):
            return ValidationResult(False, f"edges: expected a list, got {type(edges).__name__}")
        if isinstance(total, bool) or not isinstance(total, int):
            return ValidationResult(
                False, f"total_weight: expected an integer, got {type(total).__name__}"
            )
        optimum = pick(expected, "total_weight")
        if case is None:
            return self._compare(edges, total, expected)
        return self._check(edges, total, optimum, case.input)

    def _check(
        self, edges: Sequence[Any], total: int, optimum: Any, graph: dict[str, Any]
    ) -> ValidationResult:
        weight_of = {_ordered(u, v): w for u, v, w in graph["edges"]}
        parent: dict[str, str] = {}
        for u, v in weight_of:
            _join(parent, u, v)
        vertices = list(graph["vertices"])
        components = len({_root(parent, label) for label in vertices})
        forest: dict[str, str] = {}
        seen: set[tuple[str, str]] = set()
        weight_sum = 0
        for edge in edges:
            key = _edge_key(edge, need_weight=True)
            if isinstance(key, str):
                return ValidationResult(False, key)
            pair, weight = key
            if pair not in weight_of:
                return ValidationResult(False, f"edge {list(edge)!r:.60} is not in the graph")
            if weight != weight_of[pair]:
                return ValidationResult(
                    False,
                    f"edge {list(edge)!r:.60} has weight {weight}, "
                    f"but the graph gives {weight_of[pair]}",
                )
            if pair in seen:
                return ValidationResult(False, f"edge {list(pair)} appears twice")
            seen.add(pair)
            if not _join(forest, *pair):
                return ValidationResult(False, f"edge {list(edge)!r:.60} closes a cycle")
            weight_sum += weight_of[pair]
        wanted = len(vertices) - components
        details = {"edges": len(seen), "edges_needed": wanted, "components": components}
        if len(seen) != wanted:
            return ValidationResult(
                False,
                f"{len(seen)} edges do not span the graph: a spanning "
                f"{'tree' if components == 1 else 'forest'} has {wanted}",
                details,
            )
        if total != weight_sum:
            return ValidationResult(
                False, f"total_weight is {total}, but the edges sum to {weight_sum}", details
            )
        if weight_sum != optimum:
            return ValidationResult(
                False,
                f"the spanning {'tree' if components == 1 else 'forest'} weighs {weight_sum}; "
                f"the minimum is {optimum}",
                details,
            )
        return ValidationResult(
            True,
            f"a minimum spanning {'tree' if components == 1 else 'forest'} "
            f"({wanted} edges, total {optimum})",
            details,
        )

    def _compare(self, edges: Sequence[Any], total: int, expected: Any) -> ValidationResult:
        note = "(no test input: compared with the expected tree only)"
        optimum = pick(expected, "total_weight")
        if total != optimum:
            return ValidationResult(False, f"total_weight is {total}, expected {optimum} {note}")
        got = _weights_by_pair(edges)
        want = _weights_by_pair(pick(expected, "edges"))
        if isinstance(got, str):
            return ValidationResult(False, f"{got} {note}")
        if isinstance(want, str):
            return ValidationResult(False, f"expected answer unusable: {want}")
        missing, extra = sorted(want.keys() - got.keys()), sorted(got.keys() - want.keys())
        if missing or extra:
            return ValidationResult(
                False,
                f"missing edges {[list(p) for p in missing][:5]}, "
                f"unexpected edges {[list(p) for p in extra][:5]} {note}",
                {"missing": missing[:20], "unexpected": extra[:20]},
            )
        for pair, weight in sorted(got.items()):
            if None not in (weight, want[pair]) and weight != want[pair]:
                return ValidationResult(
                    False, f"edge {list(pair)} has weight {weight}, expected {want[pair]} {note}"
                )
        return ValidationResult(True, f"same {len(want)} edges and total {optimum} {note}")


def _ordered(u: str, v: str) -> tuple[str, str]:
    return (u, v) if u < v else (v, u)


def _weights_by_pair(edges: Any) -> dict[tuple[str, str], int | None] | str:
    if isinstance(edges, str | bytes) or not isinstance(edges, Sequence):
        return f"edges: expected a list, got {type(edges).__name__}"
    found: dict[tuple[str, str], int | None] = {}
    for edge in edges:
        key = _edge_key(edge, need_weight=False)
        if isinstance(key, str):
            return key
        pair, weight = key
        if pair in found:
            return f"edge {list(pair)} appears twice"
        found[pair] = weight
    return found
