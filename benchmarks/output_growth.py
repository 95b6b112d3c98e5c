"""How a dry run's output grows with the size: output tokens per case at each size, per
scaffold (issue 25 item 6).

Run: ``python benchmarks/output_growth.py [NAME ...] [--cases 5] [--markdown]``. For each
scaffold, sizes are spread over what it honours: its automatic sweep's sizes (the smallest
to the largest of the simple and standard tiers) and, when it declares a stress range, the
range's first, middle and last size. At each size ``--cases`` sweep cases are drawn (the
simple and standard tiers interleaved, seed :data:`~verification.cases.DEFAULT_SEED`, as
``verify --sizes`` draws them) and answered by the reference provider, the dry run's
(``--provider reference``); each reply is counted as a dry run's reply is counted in the
lift of a ``--baseline none`` pair with no recorded usage: four characters a token
(:func:`~verification.store.pricing.estimate_tokens`). Printed per scaffold: the tokens per
case at each size, the growth exponent ``k`` of a least-squares fit of ``log tokens`` on
``log size`` (tokens ~ size**k; scipy's ``linregress``), the ratio of the largest size's
tokens to the smallest's, and the output budget a request has at the largest size
(``ScaffoldSpec.max_output_tokens_at``).

A dry run's reply is the answer in the Output Format, no work: it is the floor of what a
model writes. A model following the scaffold writes the work its Scaffold Instructions ask
for as well (``benchmarks/stress_budgets.py`` renders that work for the graph scaffolds),
and a ``--baseline none`` pair measures both arms' replies as a model wrote them.
"""

from __future__ import annotations

import argparse
import asyncio
import math
from collections.abc import Sequence
from dataclasses import dataclass

from verification.cases import DEFAULT_SEED
from verification.catalog import default_catalog
from verification.catalog.spec import ScaffoldSpec
from verification.certify.envelope import sweep_cases, sweep_sizes
from verification.llm.base import LLMRequest
from verification.llm.dry_run import ReferenceProvider
from verification.store.pricing import estimate_tokens

__all__ = ["Growth", "growth", "main", "measured_sizes", "tokens_per_case"]


def measured_sizes(spec: ScaffoldSpec) -> list[int]:
    """The sizes measured: the automatic sweep's, and the stress range's first, middle and
    last size when it has one."""
    sizes = set(sweep_sizes(spec))
    if spec.size.stress is not None:
        low, high = spec.size.stress
        sizes.update({low, (low + high) // 2, high})
    return sorted(sizes)


def tokens_per_case(
    spec: ScaffoldSpec, size: int, *, cases: int, seed: int = DEFAULT_SEED
) -> float:
    """The mean tokens of the dry run's replies to ``cases`` sweep cases at ``size``."""
    drawn = sweep_cases(spec, [size], seed=seed, per_size=cases)
    provider = ReferenceProvider()

    async def replies() -> list[str]:
        await provider.prepare(drawn)
        answered = []
        for case in drawn:
            request = LLMRequest(prompt="", model="reference", case_id=case.id)
            answered.append((await provider.generate(request)).content)
        return answered

    return sum(map(estimate_tokens, asyncio.run(replies()))) / len(drawn)


@dataclass(frozen=True)
class Growth:
    """One scaffold's dry-run output over its sizes."""

    name: str
    unit: str
    tokens: dict[int, float]
    """Size -> tokens per case."""
    stress: tuple[int, int] | None
    budget: int = 0
    """The output budget of a request at the largest size measured."""

    @property
    def exponent(self) -> float:
        """``k`` of tokens ~ size**k, least squares on the logs (0 with one size)."""
        sizes = [s for s in self.tokens if s > 0]
        if len(sizes) < 2:
            return 0.0
        from scipy.stats import linregress

        fit = linregress([math.log(s) for s in sizes], [math.log(self.tokens[s]) for s in sizes])
        return float(fit.slope)

    @property
    def ratio(self) -> float:
        """Tokens per case at the largest size over those at the smallest."""
        sizes = sorted(self.tokens)
        return self.tokens[sizes[-1]] / self.tokens[sizes[0]]


def growth(spec: ScaffoldSpec, *, cases: int) -> Growth:
    """:func:`tokens_per_case` at each of :func:`measured_sizes`."""
    sizes = measured_sizes(spec)
    return Growth(
        spec.name,
        spec.size.unit,
        {size: tokens_per_case(spec, size, cases=cases) for size in sizes},
        spec.size.stress,
        spec.max_output_tokens_at(sizes[-1]),
    )


def _sizes(one: Growth) -> str:
    stress = one.stress
    return ", ".join(
        f"{size}{'*' if stress and stress[0] <= size <= stress[1] else ''}: {tokens:,.0f}"
        for size, tokens in one.tokens.items()
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("names", nargs="*", help="scaffolds (default: every registered one)")
    parser.add_argument("--cases", type=int, default=5, help="cases per size (default 5)")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    args = parser.parse_args(argv)
    catalog = default_catalog()
    names = args.names or sorted(catalog, key=lambda n: (catalog[n].category, n))
    rows = [growth(catalog[name], cases=args.cases) for name in names]
    if args.markdown:
        print(
            "| Scaffold | Unit | Tokens per case at each size (* stress) | k "
            "| Largest / smallest | Budget at the largest |"
        )
        print("|---|---|---|---|---|---|")
        for one in rows:
            figures = f"{_sizes(one)} | {one.exponent:.2f} | {one.ratio:.1f}x | {one.budget:,}"
            print(f"| {one.name} | {one.unit} | {figures} |")
        return
    width = max(len(one.name) for one in rows)
    print(
        f"{'SCAFFOLD':<{width}}  {'K':>5}  {'RATIO':>6}  {'BUDGET':>6}  "
        "TOKENS PER CASE AT EACH SIZE (* stress)"
    )
    for one in rows:
        figures = f"{one.exponent:5.2f}  {one.ratio:5.1f}x  {one.budget:>6}"
        print(f"{one.name:<{width}}  {figures}  {_sizes(one)} {one.unit}")
    print(
        f"(dry-run replies, {args.cases} cases per size, four characters a token; k: tokens ~ "
        "size**k, least squares on the logs; BUDGET: a request's output budget at the largest size)"
    )


if __name__ == "__main__":
    main()
