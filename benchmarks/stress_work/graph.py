"""Careful answers of the graph scaffolds, in each one's own step format."""

from __future__ import annotations

import heapq
import math
from typing import Any

from .common import Renderer, answer_block

__all__ = ["RENDERERS"]


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
    return "\n".join(lines) + "\n" + answer_block(expected)


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
    return "\n".join(lines) + "\n" + answer_block(expected)


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
    return "\n".join(lines) + "\n" + answer_block(expected)


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
    return "\n".join(lines) + "\n" + answer_block(expected)


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
    return "\n".join(lines) + "\n" + answer_block(expected)


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
    return "\n".join(lines) + "\n" + answer_block(expected)


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
    return "\n".join(lines) + "\n" + answer_block(expected)


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
    return "\n".join(lines) + "\n" + answer_block(expected)


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
    return "\n".join(lines) + "\n" + answer_block(expected)


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
