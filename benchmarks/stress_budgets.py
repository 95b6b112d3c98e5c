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
import math
import sys
from pathlib import Path

# Run as a script or loaded from its path by the tests: its renderers sit beside it.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from stress_work import FAMILIES, RENDERERS

from verification.cases import DEFAULT_SEED, generate_case
from verification.catalog import default_catalog
from verification.catalog.spec import STRESS_TIERS, OutputBudget, ScaffoldSpec

__all__ = [
    "CHARS_PER_TOKEN",
    "FAMILIES",
    "MARGIN",
    "RENDERERS",
    "fitted_budget",
    "main",
    "no_renderer",
    "required_tokens",
    "rule_tokens",
    "stress_points",
    "work_tokens",
]

CHARS_PER_TOKEN = 3.0
"""Characters per token of a worked graph answer (labels, numbers, arrows: denser than
prose's 4)."""
MARGIN = 1.5
"""How much more than the rendered work a declared budget gives: a model's reply carries
prose and re-checks beside the lines the scaffold asks."""


def stress_points(spec: ScaffoldSpec) -> list[int]:
    """The standard maximum and, when the spec has a stress range, its ends and middle."""
    top = spec.size.ranges["standard"][1]
    if spec.size.stress is None:
        return [top]
    low, high = spec.size.stress
    return sorted({top, low, (low + high) // 2, high})


def no_renderer(name: str) -> str:
    """What to do about a scaffold no family renders."""
    return (
        f"no renderer of {name}'s work: add one to its family's RENDERERS in"
        " benchmarks/stress_work/ (graph.py, search.py or sequence.py)"
    )


def work_tokens(spec: ScaffoldSpec, size: int, cases: int = 5, seed: int = DEFAULT_SEED) -> int:
    """The most tokens a careful answer in ``spec``'s format takes over ``cases`` cases of
    each stress tier at ``size``."""
    render = RENDERERS.get(spec.name)
    if render is None:
        raise LookupError(no_renderer(spec.name))
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
    return rule_tokens(spec, work_tokens(spec, size, cases), work_tokens(spec, top, cases))


def rule_tokens(spec: ScaffoldSpec, work: int, top_work: int) -> int:
    """The rule of :func:`required_tokens`, from the work at a size and at the standard
    maximum (measured once, by a caller that checks several sizes)."""
    return spec.max_output_tokens + math.ceil(MARGIN * max(0, work - top_work))


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
    for name in args.names:
        if name not in catalog:
            parser.error(f"no scaffold {name!r}")
        if name not in RENDERERS:
            parser.error(no_renderer(name))
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
