"""What each multi-answer scaffold's own words accept, as brute-force checkers.

``check(oracles, name, input, answer)`` says whether ``answer`` is right by the scaffold's
Output Format and tie rules, read from its Markdown, not from its validator: the
answer's shape as the Output Format states it, then the scaffold's oracle of
``tests/catalog/test_<name>.py`` where that oracle is brute force written from the
scaffold (it is independent of the validator), then the forms the scaffold asks for that
the oracle leaves out.

``oracles`` are the scaffold tests' modules (the ``scaffold_tests`` fixture).
"""

from __future__ import annotations

import decimal
import itertools
import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from types import ModuleType
from typing import Any

import numpy as np

from tests.support.per_input import per_input as _per_input

__all__ = ["MAX_SIZE", "SHAPES", "Oracles", "check"]


Oracles = Mapping[str, ModuleType]
"""The scaffold tests' modules by scaffold name (the ``scaffold_tests`` fixture)."""


def _oracle(oracles: Oracles, name: str, test_input: dict[str, Any], answer: Any) -> bool:
    return bool(oracles[name].oracle(test_input, answer))


# Shapes, as each Output Format words them. ---------------------------------------------


def _int(value: Any) -> bool:
    return type(value) is int


def _number(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


def _bool(value: Any) -> bool:
    return type(value) is bool


def _str(value: Any) -> bool:
    return type(value) is str


def _list_of(item: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: type(value) is list and all(item(v) for v in value)


def _dict_of(item: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: type(value) is dict and all(item(v) for v in value.values())


def _or_null(item: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: value is None or item(value)


def _edge(value: Any) -> bool:
    return (
        type(value) is list
        and len(value) == 3
        and _str(value[0])
        and _str(value[1])
        and (_int(value[2]))
    )


SHAPES: dict[str, dict[str, Callable[[Any], bool]]] = {
    "graph_coloring": {"colorable": _bool, "coloring": _or_null(_dict_of(_int))},
    "n_queens": {"solutions": _list_of(_list_of(_int)), "count": _int},
    "subset_sum": {"found": _bool, "indices": _or_null(_list_of(_int))},
    "knapsack_01": {"max_value": _int, "selected_items": _list_of(_int)},
    "lcs": {"length": _int, "subsequence": _str},
    "lis": {"length": _int, "subsequence": _list_of(_int)},
    "matrix_chain": {"min_cost": _int, "parenthesization": _str},
    "astar": {"path": _or_null(_list_of(_str)), "cost": _or_null(_int)},
    "topological_sort": {
        "order": _or_null(_list_of(_str)),
        "has_cycle": _bool,
        "cycle": _or_null(_list_of(_str)),
    },
    "activity_selection": {"selected": _list_of(_str), "count": _int},
    "fractional_knapsack": {"max_value": _number, "fractions": _list_of(_number)},
    "huffman": {"codes": _dict_of(_str), "total_bits": _int},
    "kruskal": {"edges": _list_of(_edge), "total_weight": _int},
    "bisection": {"root": _or_null(_number), "iterations": _int, "bracketed": _bool},
    "newton_raphson": {"root": _or_null(_number), "iterations": _int, "converged": _bool},
    "monte_carlo": {"estimate": _number},
    "gradient_descent": {
        "minimum": _or_null(lambda v: _number(v) or (_list_of(_number)(v) and bool(v))),
        "iterations": _int,
        "converged": _bool,
    },
}


def _shaped(name: str, answer: Any) -> bool:
    shape = SHAPES[name]
    if type(answer) is not dict or set(answer) != set(shape):
        return False
    return all(check(answer[key]) for key, check in shape.items())


# Forms the scaffolds ask for beyond what their oracles check. --------------------------


def _kruskal_in_order(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """ "write the smaller label first, and list the edges in the order you accepted them":
    Kruskal's scan accepts edges by weight, so a later edge never weighs less, and each
    joins two trees of what came before."""
    edges = answer["edges"]
    if any(u > v for u, v, _ in edges):
        return False
    return all(a[2] <= b[2] for a, b in itertools.pairwise(edges))


def _knapsack_ascending(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """ "the 0-based indices of the chosen items, in ascending order"."""
    items = answer["selected_items"]
    return items == sorted(items)


def _huffman_lone_symbol(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """ "One symbol: ... Give the symbol the code "0"."""
    if len(test_input["frequencies"]) != 1:
        return True
    return list(answer["codes"].values()) == ["0"]


def _matrix_chain_plain(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """ "no spaces, `*` or other characters": no blank, no sign of a product."""
    return not any(c.isspace() or c in "*\u00d7\u00b7\u22c5" for c in answer["parenthesization"])


EXTRA_FORMS: dict[str, Callable[[dict[str, Any], dict[str, Any]], bool]] = {
    "kruskal": _kruskal_in_order,
    "knapsack_01": _knapsack_ascending,
    "huffman": _huffman_lone_symbol,
    "matrix_chain": _matrix_chain_plain,
}


# The numerical scaffolds: the run replayed as the scaffold words it. --------------------

# What each Output Format states, word for word.
BISECTION_ROOT = Fraction("0.000001")
"""bisection.md: "accepted within 0.000001 of the exact midpoint, rounded as asked" (8
places)."""
MONTE_CARLO_ESTIMATE = Fraction("0.0001")
"""monte_carlo.md: "accepted within 0.0001 of the exact value for these draws, rounded as
asked" (6 places)."""
NEWTON_ROOT = Fraction("0.00000005")
"""newton_raphson.md: "accepted within 0.00000005 of the exact `x_new` (before
rounding)"."""
DESCENT_POINT = Fraction("0.00001")
"""gradient_descent.md: "Each number is accepted within 0.00001 of the exact point (the last
iterate in exact arithmetic, before rounding)"."""
FRACTIONAL_VALUE = Fraction("0.001")
"""fractional_knapsack.md: max_value "is accepted within 0.001 of the optimum"."""
FRACTIONAL_SHARE = Fraction("0.0001")
"""fractional_knapsack.md: "Each share is accepted within 0.0001 of its exact value"."""


def _within(value: float, truth: Fraction, places: int | None, bound: Fraction) -> bool:
    """``value`` (as written) within ``bound`` of ``truth`` rounded to ``places`` (a tie away
    from zero, as every Output Format that rounds says); "within" includes the bound itself,
    in decimals, not in binary floats."""
    target = truth if places is None else _half_away(truth, places)
    return abs(_decimal(value) - target) <= bound


def _half_away(value: Fraction, places: int) -> Fraction:
    whole = math.floor(abs(value) * 10**places + Fraction(1, 2))
    return Fraction(whole, 10**places) * (-1 if value < 0 else 1)


def _decimal(value: float) -> Fraction:
    """The number as the input writes it: ``0.1`` is one tenth, not the nearest double."""
    return Fraction(repr(value))


def _exact_bisection(
    oracles: Oracles, test_input: dict[str, Any]
) -> tuple[Fraction | None, int, bool]:
    """Steps 2 and 3 of bisection.md in exact arithmetic on the input's decimals: (root,
    iterations, bracketed), by the oracle's rational replay given those decimals."""
    exact = {key: _decimal(test_input[key]) for key in ("a", "b", "tolerance")}
    coefficients = [_decimal(c) for c in test_input["coefficients"]]
    result: tuple[Fraction | None, int, bool] = oracles["bisection"]._exact(
        {**exact, "coefficients": coefficients}
    )
    return result


def _bisection(oracles: Oracles, test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    root, iterations, bracketed = _per_input(
        "bisection", test_input, lambda: _exact_bisection(oracles, test_input)
    )
    if (answer["iterations"], answer["bracketed"]) != (iterations, bracketed):
        return False
    if root is None or answer["root"] is None:
        return root is None and answer["root"] is None
    return _within(answer["root"], root, 8, BISECTION_ROOT)


def _monte_carlo_estimate(test_input: dict[str, Any]) -> Fraction:
    a, b = _decimal(test_input["a"]), _decimal(test_input["b"])
    total = Fraction(0)
    for u in test_input["samples"]:
        x, value = a + (b - a) * _decimal(u), Fraction(0)
        for c in test_input["coefficients"]:
            value = value * x + _decimal(c)
        total += value
    return (b - a) * total / len(test_input["samples"])


def _monte_carlo(oracles: Oracles, test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    exact = _per_input("monte_carlo", test_input, lambda: _monte_carlo_estimate(test_input))
    return _within(answer["estimate"], exact, 6, MONTE_CARLO_ESTIMATE)


def _newton(oracles: Oracles, test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    root, iterations, converged = _per_input(
        "newton_raphson", test_input, lambda: oracles["newton_raphson"]._steps(test_input)
    )
    if (answer["iterations"], answer["converged"]) != (iterations, converged):
        return False
    if root is None or answer["root"] is None:
        return root is None and answer["root"] is None
    return _within(answer["root"], _decimal(root), None, NEWTON_ROOT)


def _descent(test_input: dict[str, Any]) -> tuple[list[float] | None, int, bool]:
    """Step 2 of gradient_descent.md: the last point (None when it is no longer a finite
    number), the iteration count and whether a step fell below the tolerance."""
    rate, tolerance = test_input["learning_rate"], test_input["tolerance"]
    if "coefficients" in test_input:
        c = test_input["coefficients"]
        d = len(c) - 1
        slope = [(d - i) * c[i] for i in range(d)]

        def gradient(x: np.ndarray) -> np.ndarray:
            return np.array([np.polyval(slope, x[0]) if slope else 0.0])

        x = np.array([float(test_input["x0"])])
    else:
        a, b = np.array(test_input["matrix"], float), np.array(test_input["vector"], float)

        def gradient(x: np.ndarray) -> np.ndarray:
            result: np.ndarray = a @ x + b
            return result

        x = np.array(test_input["x0"], float)
    with np.errstate(all="ignore"):
        for k in range(1, test_input["max_iterations"] + 1):
            step = rate * gradient(x)
            x = x - step
            if not np.all(np.isfinite(x)):
                # Diverged: the scaffold still counts every iteration; no point to report.
                return None, test_input["max_iterations"], False
            if float(np.linalg.norm(step)) < tolerance:
                return x.tolist(), k, True
    return x.tolist(), test_input["max_iterations"], False


def _exact_descent(test_input: dict[str, Any]) -> tuple[list[Fraction] | None, int, bool]:
    """:func:`_descent`'s iteration count and convergence, and its last point replayed "in
    exact arithmetic" as the Output Format says: the same number of steps on the input's
    decimals, carried to 80 significant digits (a float run can end 1e-5 from the exact
    point on the bound itself: ``-3 + 0.1 * 23`` is -0.6999999999999997 in doubles)."""
    point, iterations, converged = _descent(test_input)
    if point is None:
        return None, iterations, converged
    rate = decimal.Decimal(repr(test_input["learning_rate"]))
    with decimal.localcontext(prec=80):
        if "coefficients" in test_input:
            c = [decimal.Decimal(repr(v)) for v in test_input["coefficients"]]
            d = len(c) - 1
            slope = [(d - i) * c[i] for i in range(d)]
            x = [decimal.Decimal(repr(test_input["x0"]))]
            for _ in range(iterations):
                derivative = decimal.Decimal(0)
                for a in slope:
                    derivative = derivative * x[0] + a
                x = [x[0] - rate * derivative]
        else:
            a = [[decimal.Decimal(repr(v)) for v in row] for row in test_input["matrix"]]
            b = [decimal.Decimal(repr(v)) for v in test_input["vector"]]
            x = [decimal.Decimal(repr(v)) for v in test_input["x0"]]
            for _ in range(iterations):
                gradient = [
                    sum(r * v for r, v in zip(row, x, strict=True)) + bi
                    for row, bi in zip(a, b, strict=True)
                ]
                x = [v - rate * g for v, g in zip(x, gradient, strict=True)]
    return [Fraction(v) for v in x], iterations, converged


def _gradient_descent(oracles: Oracles, test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    point, iterations, converged = _per_input(
        "gradient_descent", test_input, lambda: _exact_descent(test_input)
    )
    if (answer["iterations"], answer["converged"]) != (iterations, converged):
        return False
    got = answer["minimum"]
    if point is None or got is None:
        return point is None and got is None
    if isinstance(test_input["x0"], list):
        if not isinstance(got, list) or len(got) != len(point):
            return False
        values = got
    else:
        if isinstance(got, list):
            return False
        values = [got]
    return all(_within(v, p, None, DESCENT_POINT) for v, p in zip(values, point, strict=True))


def _fractional_optima(
    test_input: dict[str, Any],
) -> tuple[Fraction, list[Fraction], list[int], Fraction, bool]:
    """Every optimal load, by the greedy rule's exchange argument: (the optimum, each item's
    forced share, or -1 in the tied group; the tied group's items; the room R left to it;
    whether the group must fill R). Items of a better value per weight than the group are
    whole, worse ones left out; the group (equally good items, or worthless ones when room
    remains) shares R in any way."""
    weights = [_decimal(w) for w in test_input["weights"]]
    values = [_decimal(v) for v in test_input["values"]]
    room = _decimal(test_input["capacity"])
    ratio = [v / w for v, w in zip(values, weights, strict=True)]
    forced: list[Fraction] = [Fraction(0)] * len(weights)
    optimum = Fraction(0)
    for r in sorted(set(ratio), reverse=True):
        group = [i for i, q in enumerate(ratio) if q == r]
        weight = sum((weights[i] for i in group), Fraction(0))
        if r == 0 or weight >= room:
            for i in group:
                forced[i] = Fraction(-1)
            optimum += r * min(room, weight)
            return optimum, forced, group, room, r > 0
        for i in group:
            forced[i] = Fraction(1)
        room -= weight
        optimum += sum((values[i] for i in group), Fraction(0))
    return optimum, forced, [], room, False


def _fractional_knapsack(
    oracles: Oracles, test_input: dict[str, Any], answer: dict[str, Any]
) -> bool:
    shares = answer["fractions"]
    if len(shares) != len(test_input["weights"]):
        return False
    optimum, forced, group, room, fills = _per_input(
        "fractional_knapsack", test_input, lambda: _fractional_optima(test_input)
    )
    if abs(_decimal(answer["max_value"]) - optimum) > FRACTIONAL_VALUE:
        return False
    written = [_decimal(x) for x in shares]
    off = [f >= 0 and abs(x - f) > FRACTIONAL_SHARE for x, f in zip(written, forced, strict=True)]
    if any(off):
        return False
    # The tied group: shares each within 0.0001 of the written one and in [0, 1] that fill
    # the room exactly (or fit in it, for worthless items).
    weights = [_decimal(test_input["weights"][i]) for i in group]
    low = [max(Fraction(0), written[i] - FRACTIONAL_SHARE) for i in group]
    high = [min(Fraction(1), written[i] + FRACTIONAL_SHARE) for i in group]
    if any(lo > hi for lo, hi in zip(low, high, strict=True)):
        return False
    least = sum((w * lo for w, lo in zip(weights, low, strict=True)), Fraction(0))
    most = sum((w * hi for w, hi in zip(weights, high, strict=True)), Fraction(0))
    return least <= room and (not fills or room <= most)


OWN_CHECKERS: dict[str, Callable[[Oracles, dict[str, Any], dict[str, Any]], bool]] = {
    "bisection": _bisection,
    "monte_carlo": _monte_carlo,
    "newton_raphson": _newton,
    "gradient_descent": _gradient_descent,
    "fractional_knapsack": _fractional_knapsack,
}


def check(oracles: Oracles, name: str, test_input: dict[str, Any], answer: Any) -> bool:
    """Whether ``answer`` is right by the words of scaffold ``name``."""
    # A scaffold with several right answers and no checker fails here, saying what to add,
    # not with a KeyError under a hypothesis dump (a helper adding one).
    assert name in SHAPES, f"{name}: add a checker from the scaffold's words to _words.py"
    if not _shaped(name, answer):
        return False
    if name in OWN_CHECKERS:
        return OWN_CHECKERS[name](oracles, test_input, answer)
    extra = EXTRA_FORMS.get(name)
    right = _oracle(oracles, name, test_input, answer)
    return right and (extra is None or extra(test_input, answer))


MAX_SIZE: dict[str, int] = {
    "n_queens": 7,
    "subset_sum": 12,
    "knapsack_01": 10,
    "activity_selection": 12,
    "lcs": 8,
    "matrix_chain": 6,
    "graph_coloring": 8,
}
"""Sizes above which a brute-force checker gets slow; others draw up to 10."""
