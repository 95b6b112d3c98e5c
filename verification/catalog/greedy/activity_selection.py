"""Activity selection: the ``activity_selection`` scaffold (any maximum compatible set)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from itertools import pairwise
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.calibration import (
    LazyHook,
    drawing_first,
    dropped_items,
    duplicated_items,
    each_distinct,
)
from verification.catalog.spec import (
    STRESS_FACTOR,
    AnswerSchema,
    OutputBudget,
    ScaffoldSpec,
    SizeAxis,
)
from verification.generators.graph import vertex_labels
from verification.reference.greedy import activity_selection
from verification.validators.base import ValidationResult, Validator, pick, repeated

__all__ = [
    "ACTIVITY_EDGE_KINDS",
    "SPEC",
    "ActivitySelectionAnswer",
    "ActivitySelectionValidator",
    "count_activities",
    "generate_activity_selection",
    "optimal_selections",
]

Interval = tuple[int, int]

ACTIVITY_EDGE_KINDS = (
    "empty",
    "single",
    "touching",
    "all_overlap",
    "identical",
    "nested",
    "equal_finish",
    "all_compatible",
)
"""The degenerate instances the edge tier draws from."""

MAX_ACTIVITIES = 20
"""The standard tier's largest size."""
MOST_ACTIVITIES = STRESS_FACTOR * MAX_ACTIVITIES
"""The most activities the generator draws: the top of the stress range."""
_ATTEMPTS = 2000


class ActivitySelectionAnswer(AnswerSchema):
    """``{"selected": ["A", "D"], "count": 2}``: the labels of a largest compatible set."""

    selected: list[str]
    count: int


def count_activities(test_input: Mapping[str, Any]) -> int:
    """An activity-selection input's size (``SizeAxis.measure``): its number of activities."""
    return len(test_input["activities"])


def _chains(intervals: Sequence[Interval]) -> tuple[list[int], list[list[int]], list[int]]:
    """``(order, before, size)``: the activities' indices by ``(finish, start)``; per
    activity, the size of the largest compatible set it ends, and the activities that can
    come just before it in such a set (they finish by its start and end sets one smaller)."""
    order = sorted(range(len(intervals)), key=lambda i: (intervals[i][1], intervals[i][0]))
    size = [0] * len(intervals)
    before: list[list[int]] = [[] for _ in intervals]
    for position, i in enumerate(order):
        start = intervals[i][0]
        earlier = [j for j in order[:position] if intervals[j][1] <= start]
        size[i] = 1 + max((size[j] for j in earlier), default=0)
        before[i] = [j for j in earlier if size[j] == size[i] - 1]
    return order, before, size


def _count_optimal(intervals: Sequence[Interval], cap: int = 2) -> int:
    """How many maximum compatible sets there are, counted up to ``cap``. Each set is
    counted once, by its last activity in ``(finish, start)`` order."""
    order, before, size = _chains(intervals)
    ways = [0] * len(intervals)
    for i in order:
        ways[i] = min(cap, sum(ways[j] for j in before[i])) if before[i] else 1
    best = max(size, default=0)
    return min(cap, sum(ways[i] for i in order if size[i] == best))


def optimal_selections(
    intervals: Sequence[Interval], rng: random.Random, tries: int
) -> list[list[int]]:
    """Up to ``tries`` maximum compatible sets (indices, by finish), drawn at random by
    walking back through compatible predecessors."""
    _, before, size = _chains(intervals)
    best = max(size, default=0)
    if best == 0:
        return []
    last = [i for i in range(len(intervals)) if size[i] == best]
    found: list[list[int]] = []
    for _ in range(tries):
        chain = [rng.choice(last)]
        while before[chain[-1]]:
            chain.append(rng.choice(before[chain[-1]]))
        found.append(chain[::-1])
    return found


def _greedy_by_start(intervals: Sequence[Interval]) -> list[int]:
    """The common mistake: earliest start first (indices)."""
    chosen: list[int] = []
    for i in sorted(range(len(intervals)), key=lambda i: intervals[i]):
        if not chosen or intervals[chosen[-1]][1] <= intervals[i][0]:
            chosen.append(i)
    return chosen


def _plain(intervals: Sequence[Interval]) -> bool:
    """No degenerate feature: distinct finishes, and no activity starts where one ends."""
    finishes = [f for _, f in intervals]
    return len(set(finishes)) == len(finishes) and not {s for s, _ in intervals} & set(finishes)


def _all_compatible(intervals: Sequence[Interval]) -> bool:
    ordered = sorted(intervals)
    return all(a[1] <= b[0] for a, b in pairwise(ordered))


def _input(rng: random.Random, intervals: Sequence[Interval]) -> dict[str, Any]:
    """Shuffled, then labelled ``A``, ``B``, ..., ``Z``, ``AA``, ``AB``, ... in listing
    order (labels say nothing of the times)."""
    shuffled = list(intervals)
    rng.shuffle(shuffled)
    labels = vertex_labels(len(shuffled), least=0)
    return {"activities": [[labels[k], s, f] for k, (s, f) in enumerate(shuffled)]}


def _draw(rng: random.Random, n: int, horizon: int, longest: int) -> list[Interval]:
    """``n`` activities starting in ``0..horizon``, lasting ``1..longest``, with ``2 * n``
    distinct end points: no two finish together and none starts where another finishes."""
    intervals: list[Interval] = []
    used: set[int] = set()
    while len(intervals) < n:
        start = rng.randint(0, horizon)
        finish = start + rng.randint(1, longest)
        if start not in used and finish not in used:
            used |= {start, finish}
            intervals.append((start, finish))
    return intervals


def generate_activity_selection(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """``{"activities": [[label, start, finish], ...]}`` with integer times ``0 <= start <
    finish``, listed in random order and labelled ``A``, ``B``, ... in listing order (past 26,
    ``AA``, ``AB``, ...: the stress sizes).

    ``simple``: ``size`` activities (3 or more), times up to about ``2 * size + 9``; no two
    finish together, no activity starts where another finishes (no touching), not all are
    compatible, and exactly one set is largest. ``standard``: ``size`` activities (5 or
    more), times up to about ``3 * size + 10``, the same plainness (no ties, no touching, not
    all compatible), several largest sets allowed, and taking the earliest start first (the
    usual mistake) falls short of the optimum. ``edge``: at most ``size`` activities, one of
    :data:`ACTIVITY_EDGE_KINDS` (``touching`` needs activities that end where the next
    starts; ``all_overlap`` and ``identical`` have several largest sets).
    """
    if not 1 <= size <= MOST_ACTIVITIES:
        raise ValueError(f"activity_selection needs 1..{MOST_ACTIVITIES} activities, got {size}")
    if tier == "simple":
        return _simple(rng, max(size, 3))
    if tier == "standard":
        return _standard(rng, max(size, 5))
    return _edge(rng, size)


def _simple(rng: random.Random, n: int) -> dict[str, Any]:
    """A planted chain of separate activities, the rest each reaching from inside one chain
    activity into a later one; redrawn until the chain is the only largest set."""
    for _ in range(_ATTEMPTS):
        links = rng.randint(max(2, (n + 1) // 3), max(2, (n + 1) // 2))
        chain: list[Interval] = []
        time = rng.randint(0, 2)
        for _ in range(links):
            length = rng.randint(3, 6)
            chain.append((time, time + length))
            time += length + rng.randint(1, 3)
        used = {point for span in chain for point in span}
        crossing: list[Interval] = []
        for _ in range(50 * n):
            if len(crossing) == n - links:
                break
            first = rng.randrange(links - 1)
            last = min(links - 1, first + rng.choice((1, 1, 1, 2)))
            start = rng.randint(chain[first][0] + 1, chain[first][1] - 1)
            finish = rng.randint(chain[last][0] + 1, chain[last][1] - 1)
            if start not in used and finish not in used:
                used |= {start, finish}
                crossing.append((start, finish))
        intervals = chain + crossing
        if len(intervals) == n and _count_optimal(intervals) == 1:
            return _input(rng, intervals)
    raise RuntimeError(f"no simple activity_selection instance of {n} activities")


def _standard(rng: random.Random, n: int) -> dict[str, Any]:
    for _ in range(_ATTEMPTS):
        intervals = _draw(rng, n, 3 * n, 10)
        if _all_compatible(intervals):
            continue
        _, _, sizes = _chains(intervals)
        if len(_greedy_by_start(intervals)) < max(sizes):
            return _input(rng, intervals)
    raise RuntimeError(f"no standard activity_selection instance of {n} activities")


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kinds = [k for k in ACTIVITY_EDGE_KINDS if size >= 3 or k in ("empty", "single")]
    kind = rng.choice(kinds)
    if kind == "empty":
        return {"activities": []}
    if kind == "single":
        start = rng.randint(0, 9)
        return _input(rng, [(start, start + rng.randint(1, 6))])
    n = rng.randint(3, size)
    if kind == "touching":
        return _input(rng, _touching(rng, n))
    if kind == "all_overlap":
        point = rng.randint(6, 12)
        spans = [(point - rng.randint(1, 6), point + rng.randint(1, 6)) for _ in range(n)]
        return _input(rng, spans)
    if kind == "identical":
        base = _draw(rng, max(2, n - rng.randint(1, n // 2)), 2 * n, 6)
        copies = [rng.choice(base) for _ in range(n - len(base))]
        return _input(rng, base + copies)
    if kind == "nested":
        inner, time = [], 1
        for _ in range(n - 1):
            time += rng.randint(1, 2)
            length = rng.randint(1, 3)
            inner.append((time, time + length))
            time += length
        return _input(rng, [(0, time + rng.randint(1, 2)), *inner])
    if kind == "equal_finish":
        finishes = rng.sample(range(3, 3 * n + 3), max(1, n // 3))
        spans = [(f - rng.randint(1, 5), f) for f in finishes]
        spans += [(f - rng.randint(1, 5), f) for f in rng.choices(finishes, k=n - len(spans))]
        return _input(rng, [(max(0, s), f) for s, f in spans])
    # all_compatible: separate, non-touching activities.
    spans, time = [], rng.randint(0, 3)
    for _ in range(n):
        length = rng.randint(1, 4)
        spans.append((time, time + length))
        time += length + rng.randint(1, 3)
    return _input(rng, spans)


def _touching(rng: random.Random, n: int) -> list[Interval]:
    """A chain of activities each starting where the previous one finishes, plus
    distractors straddling the joins (each overlaps both its neighbours in the chain)."""
    links = max(2, (n + 1) // 2)
    joints, time = [rng.randint(0, 3)], 0
    for _ in range(links):
        time = joints[-1] + rng.randint(2, 5)
        joints.append(time)
    chain = list(pairwise(joints))
    inner = joints[1:-1]
    distractors = [(j - 1, j + 1) for j in rng.choices(inner, k=n - len(chain))]
    return chain + distractors


def _intervals(test_input: Mapping[str, Any]) -> dict[str, Interval]:
    return {label: (start, finish) for label, start, finish in test_input["activities"]}


class ActivitySelectionValidator(Validator):
    """Any largest set of mutually compatible activities, checked against the input.

    With ``case``: ``selected`` holds distinct labels of the input, in any order, no two
    overlapping (touching activities are compatible: ``[1, 3]`` and ``[3, 5]``), ``count``
    is their number, and that number is the optimum ``expected["count"]``. Without ``case``:
    the same count and the same label set as ``expected``.
    """

    kind = "compatible_set"

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        selected, count = pick(actual, "selected"), pick(actual, "count")
        optimum = pick(expected, "count")
        if not isinstance(selected, list) or not all(isinstance(x, str) for x in selected):
            return ValidationResult(False, "selected must be a list of activity labels")
        if isinstance(count, bool) or not isinstance(count, int):
            return ValidationResult(False, f"count must be an integer, got {count!r:.40}")
        if len(set(selected)) != len(selected):
            return ValidationResult(False, f"selected repeats {repeated(selected)[:5]}")
        if count != len(selected):
            return ValidationResult(
                False, f"count is {count}, but selected lists {len(selected)} activities"
            )
        if case is None:
            want = set(pick(expected, "selected") or [])
            note = "(no test input: compared with the expected answer only)"
            if count != optimum or set(selected) != want:
                return ValidationResult(False, f"selection differs from the expected {note}")
            return ValidationResult(True, f"the expected {count} activities {note}")
        spans = _intervals(case.input)
        unknown = [x for x in selected if x not in spans]
        if unknown:
            return ValidationResult(False, f"selected names unknown activities {unknown[:5]}")
        ordered = sorted(selected, key=lambda x: spans[x])
        for first, second in pairwise(ordered):
            if spans[first][1] > spans[second][0]:
                return ValidationResult(
                    False,
                    f"{first} {list(spans[first])} and {second} {list(spans[second])} overlap",
                    {"pair": [first, second]},
                )
        if count != optimum:
            return ValidationResult(
                False,
                f"{count} compatible activities; the largest compatible set has {optimum}",
                {"count": count, "optimum": optimum},
            )
        return ValidationResult(True, f"a largest compatible set of {count} activities")


@drawing_first
def activity_selection_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """The count one off; an activity dropped (compatible, not largest) or added (an
    overlap); a label repeated or unknown; a chosen activity swapped for one that overlaps
    another chosen one; the earliest-start-first selection where it falls short."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Every draw first (the alternatives draw after these), then the answers one at a
    # time: a run's calibration judges the first few and makes no more.
    selected: list[str] = case.expected["selected"]
    count: int = case.expected["count"]
    spans = _intervals(case.input)
    changed = [*dropped_items(selected, rng), *duplicated_items(selected, rng)]
    unchosen = [x for x in spans if x not in selected]
    extras = rng.sample(unchosen, min(2, len(unchosen)))
    yield {"selected": selected, "count": count + 1}
    if count:
        yield {"selected": selected, "count": count - 1}
    for chosen in changed:
        yield {"selected": chosen, "count": len(chosen)}
    for extra in extras:
        yield {"selected": [*selected, extra], "count": len(selected) + 1}
    lists = len(changed) + len(extras)
    for index, x in enumerate(selected):
        others = [spans[y] for y in selected if y != x]
        for y in unchosen:
            if any(spans[y][0] < f and s < spans[y][1] for s, f in others):
                swapped = [*selected[:index], y, *selected[index + 1 :]]
                yield {"selected": swapped, "count": len(swapped)}
                lists += 1
                break
        if lists >= 8:
            break
    yield {"selected": [*selected, "ZZ"], "count": len(selected) + 1}
    labels = list(spans)
    by_start = [labels[i] for i in _greedy_by_start([spans[x] for x in labels])]
    if len(by_start) < count:
        yield {"selected": by_start, "count": len(by_start)}


@LazyHook.capped(6)
def activity_selection_alternatives(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """The same set listed backwards; other largest sets (random walks back through
    compatible predecessors)."""
    return each_distinct(_right(case, rng), unlike=[case.expected])


def _right(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    selected: list[str] = case.expected["selected"]
    labels = list(_intervals(case.input))
    intervals = list(_intervals(case.input).values())
    yield {"selected": selected[::-1], "count": len(selected)}
    for chain in optimal_selections(intervals, rng, 6):
        chosen = [labels[i] for i in chain]
        rng.shuffle(chosen)
        yield {"selected": chosen, "count": len(chosen)}


SPEC = ScaffoldSpec(
    name="activity_selection",
    category="greedy",
    title="Activity selection",
    graded_conventions={
        "touching": "touching activities are compatible",
        "any largest set": "any largest set of mutually compatible activities is right",
    },
    description="largest set of mutually compatible activities, earliest finish first",
    reference=activity_selection,
    generator=generate_activity_selection,
    answer_schema=ActivitySelectionAnswer,
    # The order of `selected` is left ungraded (the guide's form rule 3): the selection is a
    # set, the order taken only helps the reader check it, and the Output Format says any
    # order is accepted.
    validator=ActivitySelectionValidator(),
    sizes={"simple": 5, "standard": 10, "edge": 6},
    size=SizeAxis(
        unit="activities",
        measure=count_activities,
        ranges={"simple": (3, 12), "standard": (5, MAX_ACTIVITIES), "edge": (1, MAX_ACTIVITIES)},
        stress=(MAX_ACTIVITIES + 1, MOST_ACTIVITIES),
    ),
    mutants=activity_selection_mutants,
    alternatives=activity_selection_alternatives,
    max_output_tokens=4096,
    # The work is the sorted list and a line per activity scanned: 373 tokens at 20, 1,639 at 80
    # (python benchmarks/stress_budgets.py activity_selection). The flat budget holds the
    # standard maximum; each size past it adds 1.5x its work.
    output_budget=OutputBudget(per_unit=47.0, base=3156),
    code_sizes=(MAX_ACTIVITIES, MOST_ACTIVITIES),
    code_size_limit=(
        "the generator draws at most 80 activities (MOST_ACTIVITIES): its labels and "
        "untied times are the trace's"
    ),
)
