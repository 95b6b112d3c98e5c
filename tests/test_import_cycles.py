"""No import cycle among the harness's modules, counting the imports made only for type
checking and those inside functions: the layers contract (``lint-imports``) checks packages
against each other, this test checks the modules inside a package too.

The graph is grimp's (the library ``import-linter`` builds its graph with), so the two checks
read the same imports.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import grimp  # comes with import-linter (the dev extra)


def _strongly_connected(graph: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """The components of more than one module (Tarjan's algorithm, iterative so a deep chain
    of imports cannot reach the recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, next_child = work.pop()
            if next_child == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            children = graph[node]
            for position in range(next_child, len(children)):
                child = children[position]
                if child not in index:
                    work.append((node, position + 1))
                    work.append((child, 0))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
    return found


def _a_cycle(graph: grimp.ImportGraph, component: list[str]) -> str:
    """One cycle through the component's first module, as ``a -> b -> ... -> a``."""
    first = component[0]
    for child in sorted(graph.find_modules_directly_imported_by(first)):
        if child in component:
            back = graph.find_shortest_chain(importer=child, imported=first)
            if back:
                return " -> ".join((first, *back))
    return ", ".join(component)  # unreachable for a strongly connected component


def _import_graph() -> tuple[grimp.ImportGraph, dict[str, list[str]]]:
    graph = grimp.build_graph("verification")  # keeps TYPE_CHECKING imports (the default)
    edges = {
        module: sorted(graph.find_modules_directly_imported_by(module))
        for module in sorted(graph.modules)
    }
    return graph, edges


def test_the_finder_names_a_cycle_it_is_shown() -> None:
    edges = {"a": ["b"], "b": ["c"], "c": ["a", "d"], "d": [], "e": ["e"]}
    assert _strongly_connected(edges) == [["a", "b", "c"]]
    assert _strongly_connected({"a": ["b"], "b": []}) == []


def test_no_module_of_the_harness_imports_itself_back() -> None:
    graph, edges = _import_graph()
    assert len(edges) > 100  # the package was found and read
    cycles = [_a_cycle(graph, component) for component in _strongly_connected(edges)]
    assert not cycles, "import cycles (TYPE_CHECKING imports count):\n" + "\n".join(cycles)
