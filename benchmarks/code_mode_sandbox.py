"""Code mode's sandbox at speed: ten distinct correct dijkstra programs, 1,000 cases each.

Run: ``python benchmarks/code_mode_sandbox.py [--cases 1000] [--programs 10] [--check]``.
The cases are dijkstra's three tiers at their level sizes and a size ladder of the standard
tier up to 1,000 vertices, drawn by the scaffold's own generator; each case's CPU limit is
scaled from the reference's time on it, as a code-mode run scales it. The ten programs are
correct and distinct (two ways to build the adjacency, five ways to run the queue), so none
shares another's executions. They run in the bubblewrap sandbox, as many at once as the
machine has cores. Printed: the wall time of all executions (the goal: under 60 s on two
cores), every answer checked against the reference, and the harness's own time per case
(the round trip of a case less the time ``solve`` took inside) beside each program's
start-up. ``--check`` exits 1 when the goal is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from typing import Any

from verification.catalog.graph.dijkstra import generate_dijkstra
from verification.reference.graph import dijkstra
from verification.run.sandbox import (
    Engine,
    Limits,
    available_engine,
    cpu_seconds_for,
    run_program,
    run_programs,
)

GOAL_SECONDS = 60.0
LADDER = (10, 20, 50, 100, 200, 500, 1000)
TIER_SIZES = {"simple": 5, "standard": 8, "edge": 5}

ADJACENCY = {
    "lists": """
    graph = {v: [] for v in input["vertices"]}
    for u, v, w in input["edges"]:
        graph[u].append((v, w))
        if not input["directed"]:
            graph[v].append((u, w))
""",
    "dicts": """
    graph = {v: {} for v in input["vertices"]}
    for u, v, w in input["edges"]:
        for a, b in ((u, v), (v, u)) if not input["directed"] else ((u, v),):
            if b not in graph[a] or w < graph[a][b]:
                graph[a][b] = w
""",
}
NEIGHBOURS = {"lists": "graph[u]", "dicts": "graph[u].items()"}
QUEUES = {
    "lazy": """
    dist = {input["source"]: 0}
    heap = [(0, input["source"])]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, w in NEIGHBOURS:
            if v not in dist or d + w < dist[v]:
                dist[v] = d + w
                heapq.heappush(heap, (d + w, v))
""",
    "visited": """
    dist = {}
    heap = [(0, input["source"])]
    while heap:
        d, u = heapq.heappop(heap)
        if u in dist:
            continue
        dist[u] = d
        for v, w in NEIGHBOURS:
            if v not in dist:
                heapq.heappush(heap, (d + w, v))
""",
    "counter": """
    dist = {input["source"]: 0}
    done = set()
    tick = itertools.count()
    heap = [(0, next(tick), input["source"])]
    while heap:
        d, _, u = heapq.heappop(heap)
        if u in done:
            continue
        done.add(u)
        for v, w in NEIGHBOURS:
            if d + w < dist.get(v, d + w + 1):
                dist[v] = d + w
                heapq.heappush(heap, (d + w, next(tick), v))
""",
    "bucket": """
    best = {input["source"]: 0}
    frontier = {0: [input["source"]]}
    settled = set()
    while frontier:
        d = min(frontier)
        for u in frontier.pop(d):
            if u in settled or best[u] != d:
                continue
            settled.add(u)
            for v, w in NEIGHBOURS:
                if v not in best or d + w < best[v]:
                    best[v] = d + w
                    frontier.setdefault(d + w, []).append(v)
    dist = best
""",
    "decrease": """
    INF = object()
    dist = dict.fromkeys(input["vertices"], INF)
    dist[input["source"]] = 0
    heap = [(0, input["source"])]
    seen = set()
    while heap:
        d, u = heapq.heappop(heap)
        if u in seen:
            continue
        seen.add(u)
        for v, w in NEIGHBOURS:
            if dist[v] is INF or d + w < dist[v]:
                dist[v] = d + w
                heapq.heappush(heap, (d + w, v))
    dist = {v: d for v, d in dist.items() if d is not INF}
""",
}


def programs(count: int) -> list[str]:
    """``count`` (at most ten) distinct correct dijkstra programs."""
    made = []
    for queue, loop in QUEUES.items():
        for adjacency, build in ADJACENCY.items():
            body = loop.replace("NEIGHBOURS", NEIGHBOURS[adjacency])
            made.append(
                f"# dijkstra: {adjacency} adjacency, {queue} queue\n"
                "import heapq\nimport itertools\n\n\ndef solve(input):\n"
                f"{build}{body}"
                '    return {"distances": {v: dist.get(v) for v in input["vertices"]}}\n'
            )
    return made[:count]


def ladder_case(rng: random.Random, size: int) -> dict[str, Any]:
    """A dijkstra input of ``size`` vertices (``V0``, ``V1``, ...): a random spanning tree
    from the source plus as many random edges again, weights 1..20. The scaffold's own
    generator labels vertices A-Z (26 at most); code mode's larger sizes are the code
    engineer's part of issue 26, so the ladder past 26 is drawn here."""
    labels = [f"V{i}" for i in range(size)]
    order = labels[:]
    rng.shuffle(order)
    edges = [[order[rng.randrange(i)], order[i], rng.randint(1, 20)] for i in range(1, size)]
    edges += [[rng.choice(labels), rng.choice(labels), rng.randint(1, 20)] for _ in range(size)]
    return {
        "vertices": labels,
        "edges": edges,
        "directed": rng.random() < 0.3,
        "source": order[0],
    }


def cases(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` dijkstra inputs: 30% the three tiers at their level sizes (the scaffold's
    generator), the rest the size ladder, each size equally often."""
    rng = random.Random(seed)
    drawn = []
    level = count * 3 // 10
    for index in range(count):
        case_rng = random.Random(rng.random())
        if index < level:
            tier = ("simple", "standard", "edge")[index % 3]
            drawn.append(generate_dijkstra(case_rng, tier, TIER_SIZES[tier]))
        else:
            drawn.append(ladder_case(case_rng, LADDER[index % len(LADDER)]))
    return drawn


def reference_times(inputs: list[dict[str, Any]]) -> tuple[list[Any], list[float]]:
    """The reference's answer and seconds on each input."""
    answers, seconds = [], []
    for case in inputs:
        started = time.perf_counter()
        answers.append(dijkstra(case["vertices"], case["edges"], case["source"], case["directed"]))
        seconds.append(time.perf_counter() - started)
    return answers, seconds


def start_up_seconds(
    source: str, case: dict[str, Any], limits: Limits, engine: Engine, repeat: int = 5
) -> list[float]:
    """Seconds to start an interpreter, run one case and stop it, ``repeat`` times."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        asyncio.run(run_program(source, [case], limits=limits, engine=engine))
        times.append(time.perf_counter() - started)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--programs", type=int, default=10)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--check", action="store_true", help="exit 1 when the goal is missed")
    args = parser.parse_args()

    started = time.perf_counter()
    inputs = cases(args.cases, args.seed)
    answers, ref_seconds = reference_times(inputs)
    drawn = time.perf_counter() - started
    sources = programs(args.programs)
    assert len(set(sources)) == len(sources) == args.programs, "ten distinct programs"
    engine = available_engine("bubblewrap")
    limits = Limits(cpu_seconds=1.0, wall_seconds=10.0)
    cpu = [cpu_seconds_for(s) for s in ref_seconds]

    cpu_before = os.times()
    started = time.perf_counter()
    results = asyncio.run(
        run_programs(sources, inputs, limits=limits, engine=engine, cpu_seconds=cpu)
    )
    wall = time.perf_counter() - started
    cpu_after = os.times()

    executions = [e for per_program in results for e in per_program]
    right = sum(
        e.ok and e.value == answer
        for per_program in results
        for e, answer in zip(per_program, answers, strict=True)
    )
    overhead = [e.seconds - e.solve_seconds for e in executions if e.solve_seconds is not None]
    solve = [e.solve_seconds for e in executions if e.solve_seconds is not None]
    startup = statistics.median(start_up_seconds(sources[0], inputs[0], limits, engine))
    harness_cpu = (cpu_after.user - cpu_before.user) + (cpu_after.system - cpu_before.system)
    total = len(executions)
    print(f"engine {engine.name}, Python {engine.python_version} inside, {os.cpu_count()} cores")
    print(f"cases drawn and the reference run: {drawn:.1f} s ({args.cases} cases)")
    print(f"{args.programs} programs x {args.cases} cases = {total} executions")
    print(f"right (the reference's answer): {right} of {total}")
    print(f"wall time of all executions: {wall:.1f} s (goal: under {GOAL_SECONDS:.0f} s)")
    print(f"  per case, wall / parallel programs: {wall / total * 1e3:.3f} ms")
    print(f"  solve inside the sandbox: median {statistics.median(solve) * 1e3:.3f} ms")
    median, mean = statistics.median(overhead) * 1e3, statistics.fmean(overhead) * 1e3
    print(f"  the harness's own time per case (round trip less solve): median {median:.3f} ms")
    print(f"    mean {mean:.3f} ms")
    print(f"  an interpreter's start, one small case and stop: median {startup * 1e3:.0f} ms")
    print(f"  the harness process's CPU per case: {harness_cpu / total * 1e3:.3f} ms")
    print(f"  reference time per case: median {statistics.median(ref_seconds) * 1e3:.3f} ms")
    met = wall < GOAL_SECONDS and right == total
    print("goal met" if met else "goal MISSED")
    return 0 if met or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
