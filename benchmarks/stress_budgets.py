"""The work a scaffold's own format asks for at a size, against its output budget
(issue 25 item 1: the budget of a stress size is derived from that work, with a margin).

Run: ``python benchmarks/stress_budgets.py [NAME ...] [--cases 5]``. For each scaffold, cases
of the simple and standard tiers are drawn at its standard maximum and across its stress
range; each is written out as a careful answer in the scaffold's format (the per-step lines
its Scaffold Instructions ask, rendered from the reference's own steps, then the answer's
JSON block), and its length counted as tokens at :data:`CHARS_PER_TOKEN` characters each
(labels, digits and arrows tokenise densely: 3, not the 4 of prose).

The rule each graph spec's budget follows: the flat ``max_output_tokens`` holds the work at
the standard maximum with room for the reply's prose and re-checks; a larger size adds its
extra work times :data:`MARGIN` (:func:`required_tokens`). Printed per size: the longest
rendering's tokens, what the rule requires there, the budget the spec declares, and the
``OutputBudget`` the rule fits (``--exponent 2`` for work that grows with the square of the
size). The specs are fitted over ``--cases 20`` (a reply's length varies from case to case:
a negative cycle makes bellman_ford run every round); ``tests/catalog/test_graph_stress_budgets.py``
holds every declared budget to the rule over the first five.
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from verification.cases import DEFAULT_SEED, generate_case
from verification.catalog import default_catalog
from verification.catalog.spec import STRESS_TIERS, OutputBudget, ScaffoldSpec
from verification.reference.numerical import bisection_trace, newton_trace
from verification.reference.optimization import annealing_trace, descent_trace, genetic_trace

__all__ = [
    "CHARS_PER_TOKEN",
    "MARGIN",
    "RENDERERS",
    "fitted_budget",
    "main",
    "required_tokens",
    "stress_points",
    "work_tokens",
]

CHARS_PER_TOKEN = 3.0
"""Characters per token of a worked graph answer (labels, numbers, arrows: denser than
prose's 4)."""
MARGIN = 1.5
"""How much more than the rendered work a declared budget gives: a model's reply carries
prose and re-checks beside the lines the scaffold asks."""

Renderer = Callable[[dict[str, Any], dict[str, Any]], str]


def _answer(expected: dict[str, Any]) -> str:
    return "```json\n" + json.dumps(expected) + "\n```\n"


def _arcs(test_input: dict[str, Any]) -> dict[str, dict[str, int]]:
    """The lightest weight of each arc, both ways when undirected."""
    arcs: dict[str, dict[str, int]] = {v: {} for v in test_input["vertices"]}
    for u, v, w in test_input["edges"]:
        ends = [(u, v)] if test_input["directed"] else [(u, v), (v, u)]
        for a, b in ends:
            arcs[a][b] = min(w, arcs[a].get(b, w))
    return arcs


def _neighbour_lists(arcs: dict[str, dict[str, int]]) -> list[str]:
    return [
        f"- {u}: " + (", ".join(f"{v} ({w})" for v, w in out.items()) or "none")
        for u, out in arcs.items()
    ]


def _dijkstra(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """Neighbour lists, one ``Settle C (1): B 4 -> 3, D inf -> 9`` line per settled vertex,
    a one-line check per reached vertex, the answer."""
    arcs = _arcs(test_input)
    lines = _neighbour_lists(arcs)
    source = test_input["source"]
    lines.append(f"Start: {source} = 0, all others inf.")
    best: dict[str, int] = {source: 0}
    settled: set[str] = set()
    heap = [(0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        if u in settled:
            continue
        settled.add(u)
        changes = []
        for v, w in arcs[u].items():
            if v not in settled and d + w < best.get(v, math.inf):
                changes.append(f"{v} {best.get(v, 'inf')} -> {d + w}")
                best[v] = d + w
                heapq.heappush(heap, (d + w, v))
        lines.append(f"- Settle {u} ({d}): " + (", ".join(changes) or "nothing changes") + ".")
    lines.append("Check: " + ", ".join(f"{v} {d} ok" for v, d in best.items()) + ".")
    return "\n".join(lines) + "\n" + _answer(expected)


def _label_key(label: str) -> tuple[int, str]:
    return len(label), label


def _sorted_lists(test_input: dict[str, Any], loops: bool = True) -> dict[str, list[str]]:
    out: dict[str, set[str]] = {v: set() for v in test_input["vertices"]}
    for u, v in test_input["edges"]:
        if u == v and not loops:
            continue
        out[u].add(v)
        if not test_input["directed"]:
            out[v].add(u)
    return {u: sorted(vs, key=_label_key) for u, vs in out.items()}


def _plain_lists(out: dict[str, list[str]]) -> list[str]:
    return [f"- {u}: " + (", ".join(vs) or "none") for u, vs in out.items()]


def _bfs(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """Sorted neighbour lists, one ``Take B (1): neighbours A, E -> add E (2). Queue: [D, E]``
    line per vertex taken out, the answer."""
    out = _sorted_lists(test_input)
    lines = _plain_lists(out)
    source = test_input["source"]
    hops = {source: 0}
    queue = [source]
    while queue:
        u = queue.pop(0)
        added = [v for v in out[u] if v not in hops]
        for v in added:
            hops[v] = hops[u] + 1
        queue += added
        news = ", ".join(f"{v} ({hops[v]})" for v in added) or "nothing"
        lines.append(
            f"- Take {u} ({hops[u]}): neighbours {', '.join(out[u]) or 'none'} -> add {news}."
            f" Queue: [{', '.join(queue)}]"
        )
    return "\n".join(lines) + "\n" + _answer(expected)


def _dfs(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """Sorted neighbour lists, one ``At E (stack A B E): B visited -> go to D`` line per
    step, the answer."""
    out = _sorted_lists(test_input, loops=False)
    lines = _plain_lists(out)
    source = test_input["source"]
    visited, stack, at = {source}, [source], {source: 0}
    while stack:
        u = stack[-1]
        skipped = []
        while at[u] < len(out[u]) and out[u][at[u]] in visited:
            skipped.append(out[u][at[u]])
            at[u] += 1
        said = f"- At {u} (stack {' '.join(stack)}): " + "".join(f"{v} visited, " for v in skipped)
        if at[u] == len(out[u]):
            stack.pop()
            lines.append(said + f"nothing left -> finish {u}")
            continue
        v = out[u][at[u]]
        at[u] += 1
        visited.add(v)
        at[v] = 0
        stack.append(v)
        lines.append(said + f"-> go to {v}")
    return "\n".join(lines) + "\n" + _answer(expected)


def _topological_sort(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The in-degree table, one ``Place C: A 1->0, E 1->0. Free: A, E, G. Order: B C`` line
    per placed vertex, the backward walk when stuck, the answer."""
    pairs = {(u, v) for u, v in test_input["edges"]}
    successors: dict[str, list[str]] = {v: [] for v in test_input["vertices"]}
    waiting = dict.fromkeys(test_input["vertices"], 0)
    for u, v in sorted(pairs):
        successors[u].append(v)
        waiting[v] += 1
    lines = [
        f"- {u}: in {waiting[u]}, out " + (", ".join(vs) or "none") for u, vs in successors.items()
    ]
    free = sorted((v for v, count in waiting.items() if count == 0), key=_label_key)
    lines.append(f"Free: {', '.join(free)}.")
    order: list[str] = []
    while free:
        u = free.pop(0)
        order.append(u)
        changes = []
        for v in successors[u]:
            changes.append(f"{v} {waiting[v]}->{waiting[v] - 1}")
            waiting[v] -= 1
            if waiting[v] == 0:
                free.append(v)
        free.sort(key=_label_key)
        lines.append(
            f"- Place {u}: {', '.join(changes) or 'no successors'}. "
            f"Free: {', '.join(free) or 'empty'}. Order: {' '.join(order)}."
        )
    if expected["has_cycle"]:
        unplaced = [v for v in test_input["vertices"] if v not in order]
        lines.append(f"Stuck: {', '.join(unplaced)} unplaced. Walk back: ")
        lines.append(" <- ".join([*expected["cycle"][::-1], expected["cycle"][-1]]))
    return "\n".join(lines) + "\n" + _answer(expected)


def _bellman_ford(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The arc list, one ``Round 2: C 10 -> -1 (via B), D inf -> 2 (via C)`` line per round,
    the negative-cycle test when the rounds run out, a check line, the answer."""
    arcs = []
    for u, v, w in test_input["edges"]:
        arcs.append((u, v, w))
        if not test_input["directed"]:
            arcs.append((v, u, w))
    lines = [f"- {u} -> {v} ({w})" for u, v, w in arcs]
    best: dict[str, int] = {test_input["source"]: 0}
    rounds = max(1, len(test_input["vertices"]) - 1)
    for number in range(1, rounds + 1):
        changes = []
        for u, v, w in arcs:
            if u in best and best[u] + w < best.get(v, best[u] + w + 1):
                changes.append(f"{v} {best.get(v, 'inf')} -> {best[u] + w} (via {u})")
                best[v] = best[u] + w
        lines.append(f"Round {number}: " + (", ".join(changes) or "no change -> stop"))
        if not changes:
            break
    else:
        lines.append("Negative-cycle test: " + ", ".join(f"{u} -> {v} ok" for u, v, _ in arcs))
    lines.append("Check: " + ", ".join(f"{v} {d} ok" for v, d in best.items()) + ".")
    return "\n".join(lines) + "\n" + _answer(expected)


def _floyd_warshall(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The initial table, one ``k = B: A->C 3 -> 2 (4 + -2)`` line per round, the final
    table and the diagonal test, the answer."""
    labels = test_input["vertices"]
    d: dict[str, dict[str, float]] = {
        u: {v: 0 if u == v else math.inf for v in labels} for u in labels
    }
    for u, v, w in test_input["edges"]:
        for a, b in [(u, v)] if test_input["directed"] else [(u, v), (v, u)]:
            if a != b or w < 0:
                d[a][b] = min(d[a][b], w)

    def table() -> list[str]:
        cell = {math.inf: "inf"}
        return [f"{u}: " + " ".join(cell.get(x, str(x)) for x in d[u].values()) for u in labels]

    lines = ["Initial:", *table()]
    for k in labels:
        changes = []
        for u in labels:
            for v in labels:
                through = d[u][k] + d[k][v]
                if through < d[u][v]:
                    was = "inf" if d[u][v] == math.inf else d[u][v]
                    changes.append(f"{u}->{v} {was} -> {through} ({d[u][k]} + {d[k][v]})")
                    d[u][v] = through
        lines.append(f"k = {k}: " + (", ".join(changes) or "no change"))
    lines += ["Final:", *table(), "Diagonal: " + " ".join(str(d[v][v]) for v in labels)]
    return "\n".join(lines) + "\n" + _answer(expected)


def _astar(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """Neighbour lists, one ``Expand B (g=6, f=13): A g 18 -> 8 (f 13, parent B); open: A
    (13)`` line per expansion, the path read back with its sum, the answer."""
    arcs = _arcs(test_input)
    h = test_input["heuristic"]
    lines = _neighbour_lists(arcs)
    source, goal = test_input["source"], test_input["goal"]
    g, closed = {source: 0}, set()
    open_ = {source}
    while open_:
        u = min(open_, key=lambda v: (g[v] + h[v], _label_key(v)))
        open_.remove(u)
        said = f"- Expand {u} (g={g[u]}, f={g[u] + h[u]})"
        if u == goal:
            lines.append(said + ": the goal.")
            break
        closed.add(u)
        changes = []
        for v, w in arcs[u].items():
            if v not in closed and g[u] + w < g.get(v, math.inf):
                was = f"g {g[v]} -> " if v in g else "g="
                g[v] = g[u] + w
                open_.add(v)
                changes.append(f"{v} {was}{g[v]} (f {g[v] + h[v]}, parent {u})")
        listed = ", ".join(f"{v} ({g[v] + h[v]})" for v in sorted(open_, key=_label_key))
        lines.append(said + ": " + (", ".join(changes) or "nothing") + f"; open: {listed}")
    if expected["path"] is not None:
        lines.append("Path: " + " -> ".join(expected["path"]) + f", cost {expected['cost']}.")
    return "\n".join(lines) + "\n" + _answer(expected)


def _kruskal(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The normalised edges, the sorted numbered list, one ``4. [A, B, 4]: comp(A)=A,
    comp(B)=A -> reject (cycle)`` line per scanned edge with the components after each
    merge, the check, the answer."""
    edges = [[*sorted((u, v), key=_label_key), w] for u, v, w in test_input["edges"]]
    lines = ["Normalised: " + ", ".join(f"[{u}, {v}, {w}]" for u, v, w in edges)]
    edges.sort(key=lambda e: (e[2], _label_key(e[0]), _label_key(e[1])))
    lines += [f"{i}. [{u}, {v}, {w}]" for i, (u, v, w) in enumerate(edges, 1)]
    comp = {v: v for v in test_input["vertices"]}
    accepted = 0
    for i, (u, v, w) in enumerate(edges, 1):
        if accepted == len(comp) - 1:
            break
        said = f"{i}. [{u}, {v}, {w}]: comp({u})={comp[u]}, comp({v})={comp[v]}"
        if comp[u] == comp[v]:
            lines.append(said + " -> reject (cycle)")
            continue
        accepted += 1
        keep, gone = sorted((comp[u], comp[v]), key=_label_key)
        for x, name in comp.items():
            if name == gone:
                comp[x] = keep
        groups: dict[str, list[str]] = {}
        for x, name in comp.items():
            groups.setdefault(name, []).append(x)
        listed = " | ".join(" ".join(group) for group in groups.values())
        lines.append(said + f" -> accept. Components: {listed}")
    total = " + ".join(str(w) for _, _, w in expected["edges"])
    lines.append(f"Check: {accepted} edges; total {total} = {expected['total_weight']}.")
    return "\n".join(lines) + "\n" + _answer(expected)


def _graph_coloring(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """Neighbour lists, one ``D: colored neighbours A=1 -> free 2, 3 -> D=2`` line per
    colour given and one per dead end, in search order, the answer."""
    vertices, k = test_input["vertices"], test_input["num_colors"]
    out: dict[str, list[str]] = {v: [] for v in vertices}
    for u, v in test_input["edges"]:
        out[u].append(v)
        out[v].append(u)
    lines = _plain_lists(out)
    colour: dict[str, int] = {}

    def assign(index: int) -> bool:
        if index == len(vertices):
            return True
        v = vertices[index]
        seen = [f"{u}={colour[u]}" for u in out[v] if u in colour]
        free = [c for c in range(1, k + 1) if c not in {colour[u] for u in out[v] if u in colour}]
        said = f"{v}: colored neighbours {', '.join(seen) or 'none'} -> free "
        for c in free:
            colour[v] = c
            lines.append(said + f"{', '.join(map(str, free))} -> {v}={c}")
            if assign(index + 1):
                return True
            del colour[v]
        lines.append(said + "none left -> back")
        return False

    assign(0)
    return "\n".join(lines) + "\n" + _answer(expected)


RENDERERS: dict[str, Renderer] = {
    "astar": _astar,
    "bellman_ford": _bellman_ford,
    "bfs": _bfs,
    "dfs": _dfs,
    "dijkstra": _dijkstra,
    "floyd_warshall": _floyd_warshall,
    "graph_coloring": _graph_coloring,
    "kruskal": _kruskal,
    "topological_sort": _topological_sort,
}
"""Per scaffold, a careful answer in its format from its input and right answer."""


def _exact(value: Fraction) -> str:
    """A terminating fraction in all its decimal digits (``Fraction(-7, 4)`` -> ``-1.75``)."""
    sign, value = ("-" if value < 0 else ""), abs(value)
    whole, rest = divmod(value.numerator, value.denominator)
    digits = ""
    while rest and len(digits) < 40:
        digit, rest = divmod(rest * 10, value.denominator)
        digits += str(digit)
    return f"{sign}{whole}" + (f".{digits}" if digits else "")


def _monte_carlo(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """``w`` and ``N``, a row ``i | u_i | x_i | f(x_i)`` per draw (Horner's rule written
    out), the sum of every value, the mean and the estimate, the answer."""
    coefficients: list[int] = test_input["coefficients"]
    a, width = test_input["a"], test_input["b"] - test_input["a"]
    lines = [f"w = {width}, N = {len(test_input['samples'])}", "| i | u_i | x_i | f(x_i) |"]
    values = []
    for index, u in enumerate(test_input["samples"], 1):
        x = a + width * Fraction(str(u))
        value, shown = Fraction(coefficients[0]), str(coefficients[0])
        for c in coefficients[1:]:
            value = value * x + c
            shown = f"({shown})·{_exact(x)} + {c}"
        values.append(value)
        lines.append(f"| {index} | {u} | {_exact(x)} | {shown} = {_exact(value)} |")
    total = sum(values, Fraction(0))
    lines.append("S = " + " + ".join(_exact(v) for v in values) + f" = {_exact(total)}")
    lines.append(f"S / N = {float(total / len(values))}; estimate = {expected['estimate']}")
    return "\n".join(lines) + "\n" + _answer(expected)


def _horner(coefficients: list[int] | list[float], x: float) -> str:
    """Horner's rule written out: ``v = 1 -> 0.5 -> 2.25 -> 3.625``."""
    value, shown = float(coefficients[0]), [f"{coefficients[0]}"]
    for c in coefficients[1:]:
        value = value * x + c
        shown.append(f"{value:.10g}")
    return "v = " + " -> ".join(shown)


def _newton_raphson(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The derivative's coefficients, Horner's rule for ``f`` and ``f'`` at each iterate, a
    table row per iteration, the result, the answer."""
    coefficients: list[int] = test_input["coefficients"]
    degree = len(coefficients) - 1
    derivative = [c * (degree - i) for i, c in enumerate(coefficients[:-1])] or [0]
    lines = [f"f'(x) coefficients: {derivative}", "| k | x | f(x) | f'(x) | step | x_new | stop? |"]
    for step in newton_trace(**test_input):
        x = step.x
        lines.append(f"x = {x:.10g}: f: {_horner(coefficients, x)}; f': {_horner(derivative, x)}")
        if step.x_new is None:
            lines.append(f"| {step.iteration} | {x:.10g} | {step.fx:.10g} | 0 | - | - | stop |")
            continue
        change = step.x - step.x_new
        lines.append(
            f"| {step.iteration} | {x:.10g} | {step.fx:.10g} | {step.dfx:.10g} | "
            f"{change:.10g} | {step.x_new:.10g} | {'yes' if abs(change) < 1e-6 else 'no'} |"
        )
    lines.append(f"Result: root {expected['root']}, {expected['iterations']} iterations.")
    return "\n".join(lines) + "\n" + _answer(expected)


def _simulated_annealing(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """A line per step as the scaffold's example writes it (the temperature, the flipped
    bit, the energies' difference, the probability of an uphill move, the decision, the
    current and the best state), the answer."""
    energies: dict[str, int] = test_input["energies"]
    current = best = test_input["initial_state"]
    lines = []
    for step, (r, _) in zip(annealing_trace(**test_input), test_input["draws"], strict=True):
        bit = int(r * len(current))
        decision = "downhill → accept"
        if step.probability is not None:
            p = step.probability
            decision = f"p = exp({-step.delta / step.temperature:.5g}) = {p:.3f}, u = {step.u} "
            decision += "< p → accept" if step.accepted else ">= p → reject"
        if step.accepted:
            current = str(step.candidate)
            if energies[current] < energies[best]:
                best = current
        lines.append(
            f"k={step.step}, T={step.temperature:.6g}: r={r} → i={bit}: {step.state} → "
            f"{step.candidate}, delta = {energies[str(step.candidate)]} - "
            f"{energies[str(step.state)]} = {step.delta:+g}, {decision}. "
            f"Current {current} ({energies[current]}). Best {best} ({energies[best]})."
        )
    return "\n".join(lines) + "\n" + _answer(expected)


def _subset_sum(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The suffix sums, then a line per step of the scaffold's search (take, skip, dead
    end, undo, success) as its example writes them, the answer."""
    numbers: list[int] = test_input["numbers"]
    target: int = test_input["target"]
    rest = [sum(numbers[i:]) for i in range(len(numbers) + 1)]
    lines = [f"rest = {rest}"]
    taken: list[int] = []
    index = total = 0
    while total != target:
        if index == len(numbers) or total + rest[index] < target:
            lines.append(f"i={index} sum {total}: {total}+rest {rest[index]} < {target} -> back")
            if not taken:
                lines.append("nothing left to undo: no subset")
                break
            undone = taken.pop()
            total -= numbers[undone]
            lines.append(f"undo i={undone} ({numbers[undone]}), skip it")
            index = undone + 1
        elif total + numbers[index] <= target:
            taken.append(index)
            lines.append(
                f"i={index} ({numbers[index]}) sum {total}: take -> {total + numbers[index]}"
            )
            total += numbers[index]
            index += 1
        else:
            value = numbers[index]
            lines.append(f"i={index} ({value}) sum {total}: {total}+{value} > {target} -> skip")
            index += 1
    else:
        lines.append(f"sum {total} = target -> success. Positions taken: {taken}")
    return "\n".join(lines) + "\n" + _answer(expected)


def _genetic_algorithm(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """Per generation the fitness list, then a line per pair as the scaffold's example
    writes it (both tournaments with their draws, the crossover, the flips), the answer."""
    generations, _ = genetic_trace(
        population=test_input["population"],
        draws=test_input["draws"],
        mutation_rate=test_input["mutation_rate"],
        weights=test_input["weights"],
    )
    lines = []
    for number, (generation, draws) in enumerate(
        zip(generations, test_input["draws"], strict=True)
    ):
        people = generation.population
        lines.append(f"Generation {number + 1}: fitness {list(generation.fitness)}")
        for k, (pair, drawn) in enumerate(zip(generation.pairs, draws, strict=True), 1):
            select = drawn["select"]
            parents = []
            for side, (first, second, winner) in enumerate(pair.tournaments):
                one, two = select[2 * side], select[2 * side + 1]
                parents.append(
                    f"{'ab'[side]} {one}→#{first}, {two}→#{second} → P{side + 1} = "
                    f"#{winner} {people[winner]}"
                )
            flips = [", ".join(f"bit {b}" for b in bits) or "none" for bits in pair.flipped]
            lines.append(
                f"Pair {k}: {'; '.join(parents)}. t = {pair.point} ({drawn['cross']}): "
                f"{', '.join(pair.crossed)}. Flips: child 1 {flips[0]}; child 2 {flips[1]} "
                f"→ {', '.join(pair.children)}."
            )
    return "\n".join(lines) + "\n" + _answer(expected)


def _gradient_descent(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The gradient, a row ``k | x | g | s | x_new | |s| < tolerance?`` per iteration, the
    result, the answer."""
    if "coefficients" in test_input:
        gradient = f"derivative of {test_input['coefficients']}"
    else:
        gradient = f"A·x + b, A = {test_input['matrix']}, b = {test_input['vector']}"
    lines = [f"gradient: {gradient}", "| k | x | g | s | x_new | |s| < tolerance? |"]
    tolerance = test_input["tolerance"]

    def shown(vector: Any) -> str:
        return ", ".join(f"{v:.10g}" for v in vector)

    for step in descent_trace(**test_input):
        s = [test_input["learning_rate"] * g for g in step.gradient]
        lines.append(
            f"| {step.iteration} | {shown(step.x)} | {shown(step.gradient)} | {shown(s)} | "
            f"{shown(step.x_new)} | {'yes' if step.step_norm < tolerance else 'no'} |"
        )
    lines.append(f"Result: {expected['minimum']}, {expected['iterations']} iterations.")
    return "\n".join(lines) + "\n" + _answer(expected)


_UP_LEFT_RIGHT_DOWN = (("up", -1, 0), ("left", 0, -1), ("right", 0, 1), ("down", 1, 0))


def _hill_climbing(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """A line per cell of each climb, its neighbours' values in the scaffold's order (up,
    left, right, down) and the move or the peak, as its example writes them; the answer."""
    grid: list[list[int]] = test_input["grid"]
    lines = []
    for number, path in enumerate(expected["paths"], 1):
        lines.append(f"Start {number}: {path[0]}")
        for index, (r, c) in enumerate(path):
            around = [
                f"{name} {grid[r + dr][c + dc]}"
                for name, dr, dc in (
                    ("up", -1, 0),
                    ("left", 0, -1),
                    ("right", 0, 1),
                    ("down", 1, 0),
                )
                if 0 <= r + dr < len(grid) and 0 <= c + dc < len(grid[0])
            ]
            if index + 1 < len(path):
                nr, nc = path[index + 1]
                end = f"move to [{nr}, {nc}] ({grid[nr][nc]})"
            else:
                end = "none larger, peak"
            lines.append(f"[{r}, {c}] = {grid[r][c]}: {', '.join(around)} → {end}")
    return "\n".join(lines) + "\n" + _answer(expected)


def _bisection(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """``f(a)`` and ``f(b)``, a row ``k | a | b | h | m | f(m) | sign | h < tolerance? |
    new interval`` per iteration, the result, the answer."""
    coefficients: list[int] = test_input["coefficients"]

    def f(x: float) -> float:
        value = 0.0
        for c in coefficients:
            value = value * x + c
        return value

    a, b, tolerance = test_input["a"], test_input["b"], test_input["tolerance"]
    lines = [f"f(a) = f({a}) = {f(a):.10g}, f(b) = f({b}) = {f(b):.10g}"]
    for step in bisection_trace(**test_input):
        sign = "+" if step.f_midpoint > 0 else "-" if step.f_midpoint < 0 else "0"
        done = "yes" if step.half_width < tolerance else "no"
        lines.append(
            f"| {step.iteration} | {step.a:.10g} | {step.b:.10g} | {step.half_width:.10g} | "
            f"{step.midpoint:.10g} | {step.f_midpoint:.8g} | {sign} | {done} | |"
        )
    lines.append(f"Result: root {expected['root']}, {expected['iterations']} iterations.")
    return "\n".join(lines) + "\n" + _answer(expected)


def _sudoku(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """Passes over the blanks, a line per blank looked at (the digits its row, column and
    box hold, its candidates, a fill when one is left), as the scaffold's example writes
    them; where a pass fills nothing, a guess of the solution's digit (a right guess: the
    undone wrong ones a model may write are left to the margin); the answer."""
    grid = [list(row) for row in test_input["grid"]]
    height, width = test_input["box_rows"], test_input["box_cols"]
    side = height * width
    solution = expected["solution"]
    lines = []
    blanks = [(r, c) for r in range(side) for c in range(side) if not grid[r][c]]
    while blanks:
        filled = False
        for r, c in list(blanks):
            row = sorted({v for v in grid[r] if v})
            column = sorted({grid[i][c] for i in range(side) if grid[i][c]})
            top, left = r - r % height, c - c % width
            box = sorted(
                {grid[i][j] for i in range(top, top + height) for j in range(left, left + width)}
                - {0}
            )
            left_over = sorted(set(range(1, side + 1)) - set(row) - set(column) - set(box))
            shown = ",".join(map(str, left_over))
            line = f"R{r + 1}C{c + 1}: row {','.join(map(str, row))} | column "
            line += f"{','.join(map(str, column))} | box {','.join(map(str, box))} -> {shown}"
            if len(left_over) == 1:
                grid[r][c] = left_over[0]
                blanks.remove((r, c))
                filled = True
                line += " (fill)"
            lines.append(line)
        if not filled and blanks and solution:
            r, c = blanks.pop(0)
            grid[r][c] = solution[r][c]
            lines.append(f"guess R{r + 1}C{c + 1} = {grid[r][c]}")
        elif not filled:
            break
    return "\n".join(lines) + "\n" + _answer(expected)


def _n_queens(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """A line per partial placement of the scaffold's search with the free columns of its
    next row (``[0, 3] -> row 2 free: 1``, a dead end, a solution), the answer."""
    n, fixed = test_input["n"], {row: col for row, col in test_input["placed"]}
    lines: list[str] = []

    def attacked(row: int, col: int, queens: dict[int, int]) -> bool:
        return any(c == col or abs(c - col) == abs(r - row) for r, c in queens.items())

    def visit(placement: list[int]) -> None:
        row = len(placement)
        if row == n:
            lines.append(f"{placement} -> solution")
            return
        queens = {**fixed, **dict(enumerate(placement))}
        queens.pop(row, None)
        options = [fixed[row]] if row in fixed else list(range(n))
        free = [col for col in options if not attacked(row, col, queens)]
        shown = ", ".join(map(str, free)) or "none (dead end)"
        lines.append(f"{placement} -> row {row} free: {shown}")
        for col in free:
            visit([*placement, col])

    visit([])
    return "\n".join(lines) + "\n" + _answer(expected)


RENDERERS.update(
    {
        "bisection": _bisection,
        "genetic_algorithm": _genetic_algorithm,
        "gradient_descent": _gradient_descent,
        "hill_climbing": _hill_climbing,
        "monte_carlo": _monte_carlo,
        "n_queens": _n_queens,
        "newton_raphson": _newton_raphson,
        "simulated_annealing": _simulated_annealing,
        "subset_sum": _subset_sum,
        "sudoku": _sudoku,
    }
)


def _row(values: Sequence[object]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _edit_distance(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """Both strings with positions, every row ``i=1 (k): [1, 1, 2]`` in full (the cell
    comparisons are optional), the distance, the answer."""
    a, b = test_input["a"], test_input["b"]
    lines = [
        "S = " + " ".join(f"{c}{i}" for i, c in enumerate(a, 1)) + f" (m = {len(a)})",
        "T = " + " ".join(f"{c}{j}" for j, c in enumerate(b, 1)) + f" (n = {len(b)})",
    ]
    above = list(range(len(b) + 1))
    lines.append(f"i=0 (-): {_row(above)}")
    for i, c in enumerate(a, 1):
        row = [i]
        for j, d in enumerate(b, 1):
            row.append(above[j - 1] if c == d else 1 + min(above[j], row[j - 1], above[j - 1]))
        lines.append(f"i={i} ({c}): {_row(row)}")
        above = row
    assert above[-1] == expected["distance"], "the rendered table disagrees with the reference"
    lines.append(f"distance = D[{len(a)}][{len(b)}] = {above[-1]}")
    return "\n".join(lines) + "\n" + _answer(expected)


def _lcs(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """Both strings with positions, every row ``i=2 (B): [0, 1, 1]``, one line per move of
    the backward walk, the answer."""
    a, b = test_input["a"], test_input["b"]
    lines = [
        "a = " + " ".join(f"{c}{i}" for i, c in enumerate(a, 1)) + f" (m = {len(a)})",
        "b = " + " ".join(f"{c}{j}" for j, c in enumerate(b, 1)) + f" (n = {len(b)})",
    ]
    table = [[0] * (len(b) + 1)]
    lines.append(f"i=0 (-): {_row(table[0])}")
    for i, c in enumerate(a, 1):
        row = [0]
        for j, d in enumerate(b, 1):
            row.append(table[i - 1][j - 1] + 1 if c == d else max(table[i - 1][j], row[j - 1]))
        table.append(row)
        lines.append(f"i={i} ({c}): {_row(row)}")
    i, j, taken = len(a), len(b), []
    while i > 0 and j > 0:
        if a[i - 1] == b[j - 1]:
            taken.append(a[i - 1])
            lines.append(
                f"({i},{j}): {a[i - 1]} = {b[j - 1]} -> take {a[i - 1]}, go to ({i - 1},{j - 1})"
            )
            i, j = i - 1, j - 1
        elif table[i - 1][j] >= table[i][j - 1]:
            up, left = table[i - 1][j], table[i][j - 1]
            lines.append(f"({i},{j}): {a[i - 1]} != {b[j - 1]}, up {up} >= left {left} -> up")
            i -= 1
        else:
            up, left = table[i - 1][j], table[i][j - 1]
            lines.append(f"({i},{j}): {a[i - 1]} != {b[j - 1]}, up {up} < left {left} -> left")
            j -= 1
    assert len(taken) == expected["length"], "the rendered table disagrees with the reference"
    lines.append(f"length = {len(taken)}, subsequence = {''.join(reversed(taken))}")
    return "\n".join(lines) + "\n" + _answer(expected)


def _knapsack_01(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The items, ``R0``, per item its comparisons (``c=5: 3|7`` past 6 items, none past
    12) and its row in full, one line per item of the backward walk, the answer."""
    weights, values, capacity = test_input["weights"], test_input["values"], test_input["capacity"]
    n = len(weights)
    lines = [f"{i}: w={w}, v={v}" for i, (w, v) in enumerate(zip(weights, values, strict=True))]
    lines.append(f"C = {capacity}, n = {n}")
    rows = [[0] * (capacity + 1)]
    lines.append(f"R0: {_row(rows[0])}")
    compact = n > 6  # the scaffold's own shorthand past six items: `c=5: 3|7`
    rows_only = n > 12  # and past twelve, the rows alone
    for i, (w, v) in enumerate(zip(weights, values, strict=True)):
        above, row, said = rows[-1], [], []
        for c in range(capacity + 1):
            if c < w:
                row.append(above[c])
                continue
            take = above[c - w] + v
            row.append(max(above[c], take))
            said.append(
                f"c={c}: {above[c]}|{take}"
                if compact
                else f"c={c}: max({above[c]}, R{i}[{c - w}]+{v}={take}) = {row[-1]}"
            )
        rows.append(row)
        if not rows_only:
            lines.append(f"item {i} (w={w}, v={v}): " + "; ".join(said))
        lines.append(f"R{i + 1}: {_row(row)}")
    assert rows[-1][capacity] == expected["max_value"], "the rendered table disagrees"
    c = capacity
    for i in range(n, 0, -1):
        if rows[i][c] == rows[i - 1][c]:
            lines.append(f"i={i}: R{i}[{c}] = R{i - 1}[{c}] = {rows[i][c]} -> leave out {i - 1}")
        else:
            rest = c - weights[i - 1]
            lines.append(
                f"i={i}: R{i}[{c}] = {rows[i][c]} != {rows[i - 1][c]} -> take {i - 1}, c = {rest}"
            )
            c -= weights[i - 1]
    return "\n".join(lines) + "\n" + _answer(expected)


def _lis(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The values with positions, one ``i=4 (5): smaller: 0 (L=1), ... -> L=3, P=2`` line
    per position, the walk, the answer."""
    s = test_input["sequence"]
    lines = [", ".join(f"{i}: {v}" for i, v in enumerate(s))]
    best: list[int] = []
    before: list[int | None] = []
    for i, v in enumerate(s):
        smaller = [j for j in range(i) if s[j] < v]
        length = 1 + max((best[j] for j in smaller), default=0)
        prev = next((j for j in smaller if best[j] == length - 1), None)
        best.append(length)
        before.append(prev)
        listed = ", ".join(f"{j} (L={best[j]})" for j in smaller) or "none"
        lines.append(f"i={i} ({v}): smaller: {listed} -> L={length}, P={prev}")
    length = max(best, default=0)
    assert length == expected["length"], "the rendered L disagrees with the reference"
    at: int | None = best.index(length) if s else None
    walk = []
    while at is not None:
        walk.append(f"{at} ({s[at]})")
        at = before[at]
    lines.append(f"length = {length}; walk: " + " -> ".join(walk))
    return "\n".join(lines) + "\n" + _answer(expected)


def _matrix_chain(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The matrices, one ``m[i][j]`` line per sub-chain with every split (its total alone
    past 8 matrices), the answer."""
    d = test_input["dimensions"]
    n = len(d) - 1
    lines = [", ".join(f"A{i}: {d[i - 1]} x {d[i]}" for i in range(1, n + 1)) + f"; n = {n}"]
    cost = {(i, i): 0 for i in range(1, n + 1)}
    # A long chain may write a split as its total alone: past the standard maximum here.
    compact = n > 8
    for span in range(2, n + 1):
        for i in range(1, n - span + 2):
            j = i + span - 1
            splits = []
            for k in range(i, j):
                total = cost[i, k] + cost[k + 1, j] + d[i - 1] * d[k] * d[j]
                splits.append((total, k))
            best, split = min(splits)
            cost[i, j] = best
            said = "; ".join(
                f"k={k} {t}"
                if compact
                else f"k={k}: {cost[i, k]} + {cost[k + 1, j]} + {d[i - 1]}*{d[k]}*{d[j]} = {t}"
                for t, k in splits
            )
            lines.append(f"m[{i}][{j}]: {said} -> {best}, s={split}")
    assert cost[1, n] == expected["min_cost"], "the rendered table disagrees with the reference"
    return "\n".join(lines) + "\n" + _answer(expected)


def _binary_search(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """One ``lo=0 hi=10 mid=5 array[5]=9 == 9 -> best=5, hi=4`` line per probe, the answer."""
    array, target = test_input["array"], test_input["target"]
    lo, hi, lines = 0, len(array) - 1, []
    while lo <= hi:
        mid = (lo + hi) // 2
        value = array[mid]
        sign = "<" if value < target else "==" if value == target else ">"
        step = f"lo={mid + 1}" if value < target else f"hi={mid - 1}"
        best = f"best={mid}, " if value == target else ""
        lines.append(
            f"lo={lo} hi={hi} mid={mid} array[{mid}]={value} {sign} {target} -> {best}{step}"
        )
        lo, hi = (mid + 1, hi) if value < target else (lo, mid - 1)
    assert len(lines) == len(expected["probes"]), "the rendered probes disagree"
    return "\n".join(lines) + "\n" + _answer(expected)


def _merge_sort(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """One ``merge [5] + [2, 8] -> [2, 5, 8]: took 2 while 1 waited in L -> +1`` line per
    merge, the total, the answer."""
    lines: list[str] = []

    def sort(values: list[int]) -> tuple[list[int], int]:
        if len(values) <= 1:
            return values, 0
        left, a = sort(values[: len(values) // 2])
        right, b = sort(values[len(values) // 2 :])
        merged, count, i, j, said = [], 0, 0, 0, []
        while i < len(left) and j < len(right):
            if left[i] <= right[j]:
                merged.append(left[i])
                i += 1
            else:
                merged.append(right[j])
                count += len(left) - i
                said.append(f"took {right[j]} while {len(left) - i} waited in L")
                j += 1
        merged += left[i:] + right[j:]
        lines.append(
            f"merge {_row(left)} + {_row(right)} -> {_row(merged)}: {', '.join(said)} -> +{count}"
        )
        return merged, a + b + count

    _, total = sort(list(test_input["array"]))
    assert total == expected["inversions"], "the rendered merges disagree with the reference"
    lines.append(f"total = {total}")
    return "\n".join(lines) + "\n" + _answer(expected)


def _quickselect(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """One ``P (7 values), k=5, pivot P[3]=3: S=[1] E=[3, 3] G=[...] -> ...`` line per
    round, the answer."""
    part, k, lines = list(test_input["array"]), test_input["k"], []
    while True:
        pivot = part[len(part) // 2]
        smaller = [v for v in part if v < pivot]
        equal = [v for v in part if v == pivot]
        larger = [v for v in part if v > pivot]
        lists = f"S={_row(smaller)} E={_row(equal)} G={_row(larger)}"
        head = f"P ({len(part)} values), k={k}, pivot P[{len(part) // 2}]={pivot}: {lists}"
        if k <= len(smaller):
            lines.append(f"{head} -> go left")
            part = smaller
        elif k <= len(smaller) + len(equal):
            lines.append(f"{head} -> the pivot")
            break
        else:
            k -= len(smaller) + len(equal)
            lines.append(f"{head} -> go right, k={k}")
            part = larger
    assert pivot == expected["value"], "the rendered rounds disagree with the reference"
    return "\n".join(lines) + "\n" + _answer(expected)


def _kmp(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The failure table, one line per text index (a run of idle ``j = 0`` indices shares
    one), the answer."""
    text, pattern = test_input["text"], test_input["pattern"]
    m = len(pattern)
    fail, k = [0] * m, 0
    for q in range(1, m):
        while k > 0 and pattern[q] != pattern[k]:
            k = fail[k - 1]
        k += pattern[q] == pattern[k]
        fail[q] = k
    lines = [f"q={q} {c} fail={fail[q]}" for q, c in enumerate(pattern)]
    j, found, idle = 0, [], 0
    for i, c in enumerate(text):
        said = []
        while j > 0 and c != pattern[j]:
            said.append(f"j {j} -> {fail[j - 1]}")
            j = fail[j - 1]
        if c == pattern[j]:
            j += 1
            said.append(f"{c} = pattern[{j - 1}], j={j}")
        if j == m:
            found.append(i - m + 1)
            said.append(f"MATCH at {i - m + 1}, j=fail[{m - 1}]={fail[m - 1]}")
            j = fail[m - 1]
        if said:
            if idle:
                lines.append(f"i={i - idle}..{i - 1}: no match, j=0")
                idle = 0
            lines.append(f"i={i} {c}: " + "; ".join(said))
        else:
            idle += 1
    assert found == expected["positions"], "the rendered scan disagrees with the reference"
    return "\n".join(lines) + "\n" + _answer(expected)


def _rabin_karp(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The letters' ``r(c)`` and ``high``, the pattern hash, one
    ``s | window | remove/add | t_s | = hp? | letters equal?`` line per window, the answer."""
    text, pattern, b, q = (
        test_input["text"],
        test_input["pattern"],
        test_input["base"],
        test_input["modulus"],
    )
    m, n = len(pattern), len(text)
    letters = sorted(set(text + pattern))
    high = pow(b, m - 1, q)
    lines = [", ".join(f"r({c}) = {ord(c) % q}" for c in letters) + f"; high = {high}"]

    def horner(word: str) -> int:
        h = 0
        for c in word:
            h = (h * b + ord(c) % q) % q
        return h

    hp = horner(pattern)
    lines.append(f"hp = {hp}")
    t, hits = horner(text[:m]), []
    for s in range(n - m + 1):
        if s:
            y = ord(text[s - 1]) % q * high % q
            x = t - y + (q if t < y else 0)
            t = (x * b + ord(text[s + m - 1]) % q) % q
            how = f"{text[s - 1]} out y={y} x={x}, {text[s + m - 1]} in"
        else:
            how = "Horner"
        window = text[s : s + m]
        same = "" if t != hp else (" | letters equal" if window == pattern else " | letters differ")
        lines.append(f"{s} | {window} | {how} | {t} | {'= hp' if t == hp else '!= hp'}{same}")
        hits += [s] if t == hp else []
    assert sorted(expected["positions"] + expected["spurious_hits"]) == hits, "hashes disagree"
    return "\n".join(lines) + "\n" + _answer(expected)


def _trie(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """One ``i | operation | word | walk | result | nodes`` row per operation, the answer."""
    nodes: dict[str, int] = {}
    words: set[str] = set()
    lines = []
    for i, (operation, word) in enumerate(test_input["operations"]):
        prefixes = [word[: k + 1] for k in range(len(word))]
        found = [p for p in prefixes if p in nodes]
        if operation == "insert":
            result: object = word not in words
            if word not in words:
                words.add(word)
                for p in prefixes:
                    nodes[p] = nodes.get(p, 0) + 1
            made = len(prefixes) - len(found) if result else 0
            walk = f"found {', '.join(found) or '-'}; created {made}"
        else:
            walk = f"found {', '.join(found) or '-'}"
            result = {
                "search": word in words,
                "starts_with": word in nodes,
                "count_prefix": nodes.get(word, 0),
            }[operation]
        lines.append(f"{i} | {operation} | {word} | {walk} | {result} | {len(nodes)}")
    assert len(nodes) == expected["node_count"], "the rendered trie disagrees with the reference"
    return "\n".join(lines) + "\n" + _answer(expected)


def _activity_selection(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The activities sorted by finish, one ``label [start, finish]`` line each, one
    ``D [5, 7]: 5 >= 4 -> take, free from 7`` line per activity scanned, the check (the
    chosen activities with their times), the answer."""
    listed = list(enumerate(test_input["activities"]))
    ordered = [a for _, a in sorted(listed, key=lambda p: (p[1][2], p[0]))]
    lines = [f"{label} [{start}, {finish}]" for label, start, finish in ordered]
    free, chosen = None, []
    for label, start, finish in ordered:
        if free is None or start >= free:
            lines.append(
                f"{label} [{start}, {finish}]: {start} >= {free} -> take, free from {finish}"
            )
            free = finish
            chosen.append((label, start, finish))
        else:
            lines.append(f"{label} [{start}, {finish}]: {start} < {free} -> skip")
    assert len(chosen) == expected["count"], "the rendered scan disagrees with the reference"
    check = ", ".join(f"{label} [{start}, {finish}]" for label, start, finish in chosen)
    lines.append(f"Check: {check}; count {len(chosen)}")
    return "\n".join(lines) + "\n" + _answer(expected)


def _fractional_knapsack(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The ``i | weight | value | ratio`` table, the sorted order, one ``item 2 (w 20): 20 >
    6 -> fraction 6/20 = 0.3, +11.4, total 79.4, room 0`` line per item, the two sums of
    the check, the answer."""
    weights, values = test_input["weights"], test_input["values"]
    ratios = [Fraction(v, w) for w, v in zip(weights, values, strict=True)]
    lines = ["i | weight | value | ratio"]
    lines += [
        f"{i} | {w} | {v} | {_exact(r)[:8]}"
        for i, (w, v, r) in enumerate(zip(weights, values, ratios, strict=True))
    ]
    order = sorted(range(len(weights)), key=lambda i: (-ratios[i], i))
    lines.append("order: " + ", ".join(str(i) for i in order))
    room, total = Fraction(test_input["capacity"]), Fraction(0)
    for i in order:
        if room == 0:
            lines.append(f"item {i}: room 0 -> fraction 0")
            continue
        share = min(Fraction(1), room / weights[i])
        total += share * values[i]
        room -= share * weights[i]
        lines.append(
            f"item {i} (w {weights[i]}): fraction {_exact(share)}, +{_exact(share * values[i])},"
            f" total {_exact(total)}, room {_exact(room)}"
        )
    assert abs(float(total) - expected["max_value"]) < 1e-6, "the rendered fill disagrees"
    shares = " + ".join(f"{w}*{f}" for w, f in zip(weights, expected["fractions"], strict=True))
    worth = " + ".join(f"{v}*{f}" for v, f in zip(values, expected["fractions"], strict=True))
    lines += [f"weights: {shares}", f"values: {worth} = {_exact(total)}"]
    return "\n".join(lines) + "\n" + _answer(expected)


def _huffman(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The pool, one ``#2 = D:3 (0) + A:4 (1) = 7. Pool: E:9 #1:4 #2:7`` line per round,
    one ``#3 = 1 -> #1 = 10, #2 = 11`` line per node from the root, the sum of the bits and
    the ``#`` weights, the answer."""
    table = test_input["frequencies"]
    pool = [(w, age, name) for age, (name, w) in enumerate(table.items())]
    lines = ["Pool: " + " ".join(f"{n}:{w}" for w, _, n in pool)]
    children: dict[str, tuple[str, str]] = {}
    made = 0
    while len(pool) > 1:
        pool.sort()
        (w0, _, n0), (w1, _, n1), pool = pool[0], pool[1], pool[2:]
        made += 1
        name = f"#{made}"
        children[name] = (n0, n1)
        pool.append((w0 + w1, len(table) + made, name))
        shown = " ".join(f"{n}:{w}" for w, _, n in sorted(pool, key=lambda p: p[1]))
        lines.append(f"{name} = {n0}:{w0} (0) + {n1}:{w1} (1) = {w0 + w1}. Pool: {shown}")
    codes = {pool[0][2]: ""} if pool else {}
    for number in range(made, 0, -1):
        name = f"#{number}"
        left, right = children[name]
        codes[left], codes[right] = codes[name] + "0", codes[name] + "1"
        below = f"{left} = {codes[left]}, {right} = {codes[right]}"
        lines.append(f"{name} = {codes[name] or '(empty)'} -> {below}")
    bits = sum(table[s] * len(codes[s] or "0") for s in table)
    assert bits == expected["total_bits"], "the rendered tree disagrees with the reference"
    lines.append(
        "total_bits = "
        + " + ".join(f"{table[s]} x {len(codes[s] or '0')}" for s in table)
        + f" = {bits}"
    )
    return "\n".join(lines) + "\n" + _answer(expected)


RENDERERS.update(
    {
        "activity_selection": _activity_selection,
        "binary_search": _binary_search,
        "edit_distance": _edit_distance,
        "fractional_knapsack": _fractional_knapsack,
        "huffman": _huffman,
        "kmp": _kmp,
        "knapsack_01": _knapsack_01,
        "lcs": _lcs,
        "lis": _lis,
        "matrix_chain": _matrix_chain,
        "merge_sort": _merge_sort,
        "quickselect": _quickselect,
        "rabin_karp": _rabin_karp,
        "trie": _trie,
    }
)


def stress_points(spec: ScaffoldSpec) -> list[int]:
    """The standard maximum and, when the spec has a stress range, its ends and middle."""
    top = spec.size.ranges["standard"][1]
    if spec.size.stress is None:
        return [top]
    low, high = spec.size.stress
    return sorted({top, low, (low + high) // 2, high})


def work_tokens(spec: ScaffoldSpec, size: int, cases: int = 5, seed: int = DEFAULT_SEED) -> int:
    """The most tokens a careful answer in ``spec``'s format takes over ``cases`` cases of
    each stress tier at ``size``."""
    render = RENDERERS[spec.name]
    longest = 0
    for tier in STRESS_TIERS:
        for index in range(cases):
            try:
                case = generate_case(spec, tier, index, seed=seed, size=size)
            except Exception:
                # A size outside the tier's declared sizes that its generator cannot draw
                # (sudoku's simple 4x4 grids at 22 blanks) is left out; inside, it is a defect.
                if spec.size.check(tier, size) is None:
                    raise
                break
            longest = max(longest, len(render(case.input, case.expected)))
    return math.ceil(longest / CHARS_PER_TOKEN)


def required_tokens(spec: ScaffoldSpec, size: int, cases: int = 5) -> int:
    """The budget the rule asks at ``size``: the flat budget, plus :data:`MARGIN` times the
    work past the standard maximum's."""
    top = spec.size.ranges["standard"][1]
    extra = work_tokens(spec, size, cases) - work_tokens(spec, top, cases)
    return spec.max_output_tokens + math.ceil(MARGIN * max(0, extra))


def fitted_budget(spec: ScaffoldSpec, exponent: float = 1.0, cases: int = 5) -> OutputBudget:
    """``base + per_unit * size ** exponent`` through the rule's budget at the standard
    maximum (the flat one), at or above it at every stress point."""
    top = spec.size.ranges["standard"][1]
    slopes = [
        (required_tokens(spec, size, cases) - spec.max_output_tokens)
        / (size**exponent - top**exponent)
        for size in stress_points(spec)
        if size > top
    ]
    per_unit = math.ceil(max([1.0, *slopes]) * 10) / 10
    base = max(0, math.floor(spec.max_output_tokens - per_unit * top**exponent))
    return OutputBudget(per_unit=per_unit, exponent=exponent, base=base)


def main(argv: list[str] | None = None) -> int:
    """Print the measured work and the declared budget per size of each scaffold."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", default=sorted(RENDERERS))
    parser.add_argument("--cases", type=int, default=5)
    parser.add_argument("--exponent", type=float, default=1.0)
    args = parser.parse_args(argv)
    catalog = default_catalog()
    print(f"{'scaffold':<18}{'size':>6}{'work tokens':>13}{'rule':>8}{'declared':>10}")
    for name in args.names:
        spec = catalog[name]
        for size in stress_points(spec):
            work = work_tokens(spec, size, args.cases)
            rule = required_tokens(spec, size, args.cases)
            declared = spec.max_output_tokens_at(size)
            print(f"{name:<18}{size:>6}{work:>13}{rule:>8}{declared:>10}")
        print(f"{name}: the rule fits {fitted_budget(spec, args.exponent, args.cases)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
