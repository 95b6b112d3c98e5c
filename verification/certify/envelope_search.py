"""The envelope search (``verify NAME --envelope``): the largest size at which a scaffold
still certifies, found by deciding a few sizes rather than sweeping them all.

The search decides the standard maximum (the largest size the tiers declare, before the
stress range) first. While sizes certify it climbs, doubling (to the nearest honoured size
at or past twice the last, the largest honoured size at most); once one does not certify
it narrows, bisecting the honoured sizes between the last certified and the first failed
size until none is left between them. When the standard maximum already fails it decides
the smallest honoured size and narrows between that and the standard maximum instead.
Each size is decided by the run's certification plan (:func:`~verification.certify
.envelope.size_plan`), on its own sweep cases (:mod:`verification.certify.envelope`), so
"certified up to" and "fails from" mean what they mean in a sweep: the search only chooses
which sizes are swept.

:class:`EnvelopeSearch` is pure: the next size from the verdicts so far, and the costliest
path the search could take (what ``--estimate --envelope`` prices). :func:`envelope_result`
is one arm's outcome from a finished run, for the reports and for a ``--baseline`` pair's
lift.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from verification.cases import parse_case_id
from verification.catalog.sizes import in_units
from verification.catalog.spec import ScaffoldSpec
from verification.certify.costs import scaffold_cost
from verification.certify.envelope import SizePoint, honoured_sizes
from verification.certify.operating import operating_characteristic
from verification.certify.results import ScaffoldResults
from verification.store.manifests import CostBasis, EnvelopeRecord, RunManifest
from verification.store.records import AttemptRecord

__all__ = [
    "EnvelopeResult",
    "EnvelopeSearch",
    "SizeTried",
    "envelope_result",
    "search_for",
    "stop_sentence",
]


@dataclass(frozen=True)
class EnvelopeSearch:
    """The search over ``sizes`` (ascending, every size the sweep tiers honour, stress
    included) starting at ``start`` (the standard maximum)."""

    sizes: tuple[int, ...]
    start: int

    def next_size(self, certified: Mapping[int, bool]) -> int | None:
        """The size to decide next, given whether each size decided so far certified;
        ``None`` when the search has ended (the boundary found, or the range's end)."""
        if self.start not in certified:
            return self.start
        if certified[self.start]:
            low = self.start
            while (up := self._doubled(low)) is not None:
                if up not in certified:
                    return up
                if not certified[up]:
                    return self._bisect(low, up, certified)
                low = up
            return None  # certified at the largest honoured size
        smallest = self.sizes[0]
        if smallest == self.start:
            return None
        if smallest not in certified:
            return smallest
        return self._bisect(smallest, self.start, certified) if certified[smallest] else None

    def _doubled(self, low: int) -> int | None:
        """The climb's next size: the smallest honoured size at or past ``2 * low``, or the
        largest when none is; ``None`` from the largest."""
        if low >= self.sizes[-1]:
            return None
        return next((s for s in self.sizes if s >= 2 * low), self.sizes[-1])

    def _bisect(self, low: int, high: int, certified: Mapping[int, bool]) -> int | None:
        while True:
            between = [s for s in self.sizes if low < s < high]
            if not between:
                return None
            middle = between[len(between) // 2]
            if middle not in certified:
                return middle
            if certified[middle]:
                low = middle
            else:
                high = middle

    def paths(self) -> list[list[int]]:
        """Every sequence of sizes the search could decide, one per way the verdicts could
        fall."""
        found: list[list[int]] = []

        def walk(verdicts: dict[int, bool], path: list[int]) -> None:
            size = self.next_size(verdicts)
            if size is None:
                found.append(path)
                return
            for verdict in (True, False):
                walk({**verdicts, size: verdict}, [*path, size])

        walk({}, [])
        return found

    def longest(self) -> int:
        """The most sizes the search can decide (its longest course), from its shape,
        without listing every course as :meth:`paths` does (whose number grows with the
        square of the sizes honoured: about a second a report for binary_search; hunt ab):
        the start, then either the smallest size and a bisection up to the start, or the
        climb with, after any size it reaches, a bisection below it."""
        most = 1
        if self.sizes[0] != self.start:  # the start fails
            most = 2 + self._bisections(self.sizes[0], self.start)
        low, steps = self.start, 1
        while (up := self._doubled(low)) is not None:
            steps += 1
            most = max(most, steps + self._bisections(low, up))  # up fails
            low = up
        return max(most, steps)  # every size climbed holds

    def _bisections(self, low: int, high: int) -> int:
        """The most sizes a bisection between ``low`` and ``high`` decides: halving the
        sizes between, the larger half each time, until none is left."""
        return sum(1 for s in self.sizes if low < s < high).bit_length()

    def worst_path(self, cost: Callable[[int], float]) -> list[int]:
        """The costliest path (:meth:`paths`) at ``cost`` per size decided, ties to the
        longer then the larger sizes."""
        return max(self.paths(), key=lambda path: (sum(map(cost, path)), len(path), path))


def search_for(spec: ScaffoldSpec) -> EnvelopeSearch:
    """The search of ``spec``: its honoured sizes with the stress range, from the standard
    maximum."""
    return EnvelopeSearch(
        tuple(honoured_sizes(spec, stress=True)), honoured_sizes(spec, stress=False)[-1]
    )


@dataclass(frozen=True)
class SizeTried:
    """One size the search decided, in the order it was tried."""

    size: int
    status: str
    """Its decision: CERTIFIED, PARTIAL, FAILED, or INCOMPLETE (too few answers)."""
    n: int
    """The cases it was decided on."""
    pass_rate: float
    budget_limited: bool
    input_tokens: int
    output_tokens: int
    usd: float | None
    """What its live calls cost (``None``: no known price, or a dry run)."""
    ended_short: bool = False
    """Decided on fewer inputs than its plan's cap (:attr:`SizePoint.short_plan`)."""


@dataclass(frozen=True)
class EnvelopeResult:
    """One arm's envelope search, as a finished (or stopped) run leaves it."""

    scaffold: str
    unit: str
    certified_up_to: int | None
    """The largest size of the unbroken run of CERTIFIED sizes from the smallest tried."""
    fails_from: int | None
    """The smallest size tried decided PARTIAL or FAILED."""
    tried: tuple[SizeTried, ...]
    """Every size decided, in the order the search tried them."""
    stopped: str
    """Why the search ended before finding the boundary ("" when it ran its course)."""
    points: tuple[SizePoint, ...]
    """The sizes as the envelope's points, ascending (the size curve's)."""
    level_status: str | None = None
    """The status of the run's own level cases, drawn at smaller sizes than the search
    starts from: a PARTIAL or FAILED one qualifies "certified up to" (hunt kk 5: "up to 64
    vertices" where the model failed 19 of 20 cases at 3 to 8)."""
    most_sizes: int | None = None
    """The most sizes the search can decide, whatever the verdicts (its longest path):
    what the boundary's risk is bounded over (``None``: the search is not known, a scaffold
    no longer in the catalog, and no bound is stated)."""

    @property
    def sentence(self) -> str:
        """The search in one line: "certified up to 39 vertices; fails from 40 (FAILED) (8
        size(s) tried)", then why it stopped short when it did."""
        return self._said(listed=False)

    @property
    def listed(self) -> str:
        """:attr:`sentence` with each size tried and its decision, in the order tried, after
        the count: "... (2 size(s) tried): 16 CERTIFIED, 32 FAILED" (the terminal's line)."""
        return self._said(listed=True)

    @property
    def overshoot(self) -> str:
        """What the boundary the search names risks, from each size's exact OC: a boundary
        past the true one needs a size tried past it to certify wrongly, and the search
        tries several (after a failure it narrows, four or five more at standard: about 1
        run in 5 of a scaffold at 85% past its boundary names one too high; hunt bb).
        "" when the search named no boundary. A bound over the most sizes the search can
        decide (:attr:`most_sizes`), each at most the largest chance at 85% of the plans
        its sizes read (a size that ended short reads a weaker one), so it holds however
        the verdicts fall: counted over the sizes this run tried, it was lowest in exactly
        the runs that climbed past the boundary (hunt xx: "at most 14 runs of 100" where
        24 in 100 overshot)."""
        if self.certified_up_to is None or self.most_sizes is None:
            return ""
        points = {point.size: point for point in self.points}
        chances = []
        for tried in self.tried:
            point = points.get(tried.size)
            if point is None or point.plan is None:
                return ""
            plans = [point.plan] if point.short_plan is None else [point.plan, point.short_plan]
            chances += [operating_characteristic(plan, 0.85).certified for plan in plans]
        most = max(self.most_sizes, len(self.tried))
        chance = math.ceil(100 * (1 - (1 - max(chances, default=0.0)) ** most) - 1e-9)
        return (
            f"each size keeps its plan's risks, and the boundary rests on up to {most} sizes "
            f"the search may decide ({len(self.tried)} here): a scaffold whose true pass rate "
            "is 85% at every size past its true boundary has one named too high in at most "
            f"{chance} run{'' if chance == 1 else 's'} of 100"
        )

    def _said(self, *, listed: bool) -> str:
        # Not below the smallest size tried where the level's cases, smaller, did not hold.
        below = self.level_status in ("PARTIAL", "FAILED") and self.tried
        smallest = min((t.size for t in self.tried), default=0)
        if self.certified_up_to is None:
            held = "certified at none of the sizes tried"
        else:
            held = f"certified {f'from {smallest} ' if below else ''}up to "
            held += in_units(self.certified_up_to, self.unit)
        if self.fails_from is None and not self.stopped and self.tried:
            held += ", the largest size tried"
        if below and self.certified_up_to is not None:
            held += f"; not below {smallest}: the level's own cases, smaller, {self.level_status}"
        fails = ""
        if self.fails_from is not None:
            # Its status said, as the envelope's sentence says it: PARTIAL is no FAILED.
            status = next((p.status for p in self.points if p.size == self.fails_from), None)
            fails = f"; fails from {self.fails_from}" + (f" ({status})" if status else "")
        stop = f"; {self.stopped}" if self.stopped else ""
        count = f"({len(self.tried)} size(s) tried)"
        if listed and self.tried:
            count += ": " + ", ".join(f"{t.size} {t.status}" for t in self.tried)
        return f"{held}{fails} {count}{stop}"


def envelope_result(
    results: ScaffoldResults,
    manifest: RunManifest,
    records: Iterable[AttemptRecord],
) -> EnvelopeResult | None:
    """``results``'s envelope search in ``manifest``'s run (``records`` its journal):
    ``None`` when the run searched no envelope for it. Each size's cost is that of the
    cases it was decided on (every attempt of each, repairs and samples included)."""
    record = (manifest.envelope or {}).get(results.scaffold)
    if record is None:
        return None
    points = {point.size: point for point in results.size_points}
    mine = [r for r in records if r.scaffold == results.scaffold]
    tried = []
    for size in record.tried:
        point = points.get(size)
        if point is None:
            continue
        cost = scaffold_cost([r for r in mine if r.case_id in point.cases], manifest.cost_basis)
        tried.append(
            SizeTried(
                size=size,
                status=point.status,
                n=point.n,
                pass_rate=point.pass_rate,
                budget_limited=point.budget_limited,
                input_tokens=cost.tokens.prompt,
                output_tokens=cost.tokens.output,
                usd=None if manifest.dry_run else cost.usd,
                ended_short=point.short_plan is not None,
            )
        )
    return EnvelopeResult(
        scaffold=results.scaffold,
        unit=results.size_unit,
        certified_up_to=results.certified_up_to,
        fails_from=results.fails_from,
        tried=tuple(tried),
        stopped=stop_sentence(record, results.size_unit, manifest.cost_basis),
        points=results.size_points,
        level_status=results.status if _level_below(results, record.tried) else None,
        most_sizes=_most_sizes(results.scaffold),
    )


def _most_sizes(scaffold: str) -> int | None:
    """The most sizes ``scaffold``'s search can decide (``None`` when it is not in the
    catalog any more)."""
    from verification.catalog import default_catalog

    catalog = default_catalog()
    if scaffold not in catalog:
        return None
    return search_for(catalog[scaffold]).longest()


def stop_sentence(record: EnvelopeRecord, unit: str, basis: CostBasis | None) -> str:
    """Why the search ``record`` ended before finding the boundary, in words ("" when it
    ran its course)."""
    if record.stopped == "budget":
        limit = basis.max_cost if basis is not None else None
        cap = f" of ${limit:.2f}" if limit is not None else ""
        worst, beside = record.next_worst_usd, record.next_beside_usd
        if worst is None:  # the size was started, and the budget refused some of its cases
            return (
                f"the search stopped at {in_units(record.next_size, unit)}: the --max-cost "
                f"budget{cap} stopped the run before that size had answers enough to decide it"
            )
        if beside is None:  # a manifest from before the sum was kept
            return (
                f"the search stopped before {in_units(record.next_size, unit)}: its worst case "
                f"(${worst:.4f}), added to what the run had spent and held, would pass the "
                f"--max-cost budget{cap}"
            )
        if limit is not None and worst + beside <= limit:  # the budget had refused a case
            return (
                f"the search stopped before {in_units(record.next_size, unit)}: the --max-cost "
                f"budget{cap} had already stopped the run starting cases"
            )
        return (
            f"the search stopped before {in_units(record.next_size, unit)}: its worst case "
            f"(${worst:.4f}) on top of ${beside:.4f} already spent, held or asked beside it "
            f"comes to ${worst + beside:.4f}, past the --max-cost budget{cap}"
        )
    if record.stopped == "incomplete":
        return (
            f"the search stopped at {in_units(record.next_size, unit)}: too few answers there to "
            "decide it (see the errors)"
        )
    return ""


def _level_below(results: ScaffoldResults, tried: Sequence[int]) -> bool:
    """Whether every level case (its id names no size: drawn at its tier's own) is smaller
    than every size the search tried, so the level's status says something of the sizes
    below them (a search that fell to the smallest size tried sizes below the level's;
    the review of hunt nn)."""
    level = [
        r.test_case.size
        for r in results.results
        if (key := parse_case_id(r.test_case.id)) is not None and key.size is None
    ]
    sizes = [size for size in level if size is not None]
    return bool(tried) and bool(sizes) and len(sizes) == len(level) and max(sizes) < min(tried)
