"""The scaffold's lift: what a ``--baseline none`` pair says the scaffold adds, size by size,
and what it costs.

The two runs of the pair (the bare arm, asked the task alone, and the scaffold arm) asked the
same cases. At each swept size (``--sizes``, the thorough level's sweep, or an envelope
search) the cases both arms decided that size on are paired (:mod:`.paired`): both pass
rates, the paired difference scaffold - bare with its 95% interval (Newcombe's paired score
interval), and the exact sign test of the discordant split (exact McNemar with one sample),
Holm-corrected across the sizes. Each arm's envelope is its own: its envelope search's
result when it searched (:func:`~verification.certify.envelope_search.envelope_result`, with
why a search stopped short), else its sweep's (:mod:`.envelope`), so an author reads "with
the scaffold certified up to 48; without, up to 16". The price is the output tokens each arm
wrote per case (every attempt of every sample of the case: a repair is paid too) and their
ratio: a reply that recorded no usage (a dry run, a replay line without it) is counted by its length
(:func:`~verification.store.pricing.tokens_of_chars`), and the figure says it is estimated.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from verification.catalog.sizes import in_units
from verification.certify.answers import CaseScores
from verification.certify.envelope_search import EnvelopeResult
from verification.certify.input_keys import paired_units, shared_units
from verification.certify.inputs import drawn_inputs
from verification.certify.paired import (
    ALPHA,
    PairedComparison,
    holm_adjust,
    paired_comparison,
)
from verification.certify.results import ScaffoldResults
from verification.store.pricing import TokenCounts, tokens_of_chars
from verification.store.records import AttemptRecord

__all__ = [
    "ArmTokens",
    "Lift",
    "LiftRow",
    "PairLift",
    "arm_tokens",
    "lift_sentence",
    "scaffold_lift",
]


@dataclass(frozen=True)
class ArmTokens:
    """The output tokens one arm wrote on some cases."""

    cases: int
    output_tokens: int
    estimated: bool = False
    """Some reply recorded no usage: its length stands for its tokens (four characters a
    token)."""

    @property
    def per_case(self) -> float | None:
        """Output tokens per case (``None`` with no case)."""
        return self.output_tokens / self.cases if self.cases else None


def arm_tokens(records: Iterable[AttemptRecord], cases: Iterable[str]) -> ArmTokens:
    """The output tokens ``records`` (one run's journal lines of one scaffold) spent on
    ``cases``: every attempt that was answered, repairs and samples included."""
    wanted = set(cases)
    total, estimated = 0, False
    for record in records:
        if record.case_id not in wanted or record.outcome == "infra_error":
            continue
        output = TokenCounts.from_usage(record.usage).output
        if output == 0 and not record.usage and record.raw_response_chars:
            output, estimated = tokens_of_chars(record.raw_response_chars), True
        total += output
    return ArmTokens(len(wanted), total, estimated)


@dataclass(frozen=True)
class LiftRow:
    """The pair at one size (``size`` ``None``: on every case both arms answered)."""

    size: int | None
    comparison: PairedComparison
    """Run A the bare arm, run B the scaffold arm: ``difference`` is scaffold - bare."""
    bare_tokens: ArmTokens
    scaffold_tokens: ArmTokens
    bare_status: str | None = None
    """The size's decision in the bare arm's envelope (``None``: the row of every case)."""
    scaffold_status: str | None = None
    p_holm: float = 1.0
    """The two-sided p-value, Holm-corrected across the sizes (the whole row: uncorrected)."""
    bare_alone: float | None = None
    """The bare arm's pass rate on every case it decided the size on (``None``: it did not
    try the size); shown where the arms share no case (an envelope search of each arm may
    try sizes the other does not)."""
    scaffold_alone: float | None = None

    @property
    def paired(self) -> bool:
        """The arms share cases here: the rates and the difference are paired."""
        return self.comparison.shared > 0

    @property
    def bare_rate(self) -> float | None:
        """The bare arm's rate: on the shared cases, else on its own (``None``: untried)."""
        return self.comparison.rate_a if self.paired else self.bare_alone

    @property
    def scaffold_rate(self) -> float | None:
        """The scaffold arm's rate: on the shared cases, else on its own."""
        return self.comparison.rate_b if self.paired else self.scaffold_alone

    @property
    def token_ratio(self) -> float | None:
        """Scaffold arm's output tokens per case over the bare arm's (``None`` when the bare
        arm wrote none)."""
        bare, scaffold = self.bare_tokens.per_case, self.scaffold_tokens.per_case
        return scaffold / bare if bare and scaffold is not None else None

    @property
    def lifted(self) -> bool:
        """The scaffold arm did significantly better here: the exact sign test, Holm-corrected
        across the sizes, below :data:`~verification.certify.paired.ALPHA`."""
        return self.p_holm < ALPHA and self.comparison.only_b > self.comparison.only_a

    @property
    def lowered(self) -> bool:
        """The bare arm did significantly better here."""
        return self.p_holm < ALPHA and self.comparison.only_a > self.comparison.only_b


@dataclass(frozen=True)
class Lift:
    """One scaffold's lift over no scaffold, from a ``--baseline none`` pair."""

    scaffold: str
    unit: str
    sizes: tuple[LiftRow, ...]
    """One row per size either arm swept, ascending (empty: the pair swept no size)."""
    overall: LiftRow
    """Every case both arms answered, at whatever size."""
    bare_certified_up_to: int | None = None
    bare_fails_from: int | None = None
    scaffold_certified_up_to: int | None = None
    scaffold_fails_from: int | None = None
    bare_stopped: str = ""
    """Why the bare arm's envelope search ended before finding its boundary ("" when it
    ran its course, or the arm swept fixed sizes)."""
    scaffold_stopped: str = ""
    incomplete: tuple[str, ...] = ()
    """The arms INCOMPLETE ("the bare arm", "the scaffold arm"): answers lost to errors or
    missing, so no lift is claimed (the answers left may be the ones that favour it)."""
    lost: tuple[str, ...] = ()
    """What each arm lost to infrastructure errors of the cases the other answered, in
    words: no lift is claimed either (``compare``'s rule: an arm whose failures came back as
    errors reads as good as its successes; hunt kk 3, "+10.1 pp" of two arms alike)."""


@dataclass(frozen=True)
class PairLift:
    """A ``--baseline none`` pair's lift: its two runs, and each scaffold's."""

    bare_run: str
    scaffold_run: str
    scaffolds: dict[str, Lift]


def _scores(results: ScaffoldResults) -> dict[str, float]:
    """Case id -> score (share of its answered samples that passed)."""
    answered = (r for r in results.results if r.outcome != "infra_error")
    return {case: float(score) for case, score in CaseScores.fold(answered).scores().items()}


def _row(
    size: int | None,
    bare: dict[str, float],
    scaffold: dict[str, float],
    records: tuple[Sequence[AttemptRecord], Sequence[AttemptRecord]],
    statuses: tuple[str | None, str | None] = (None, None),
    *,
    units: dict[str, str] | None = None,
) -> LiftRow:
    """The pair on the cases of ``bare`` and ``scaffold`` (case id -> score), compared
    unit by unit where ``units`` are given (:func:`~verification.certify.input_keys.shared_units`);
    each arm's tokens are those of its cases."""
    comparison = (
        paired_comparison(*paired_units(bare, scaffold, units))
        if units is not None
        else paired_comparison(bare, scaffold)
    )
    shared = bare.keys() & scaffold.keys()
    return LiftRow(
        size,
        comparison,
        # where no case is shared, each arm's price is of its own cases at the size
        arm_tokens(records[0], shared or bare.keys()),
        arm_tokens(records[1], shared or scaffold.keys()),
        *statuses,
        p_holm=comparison.p_value,
        bare_alone=sum(bare.values()) / len(bare) if bare else None,
        scaffold_alone=sum(scaffold.values()) / len(scaffold) if scaffold else None,
    )


def scaffold_lift(
    bare: ScaffoldResults,
    scaffold: ScaffoldResults,
    bare_records: Sequence[AttemptRecord],
    scaffold_records: Sequence[AttemptRecord],
    *,
    searches: tuple[EnvelopeResult | None, EnvelopeResult | None] = (None, None),
) -> Lift:
    """The lift of one scaffold from its pair's results and journal lines (each arm's), and
    each arm's envelope search (``None``: the arm searched none; its sweep's envelope).

    At each size, each arm's cases are those its envelope decided the size on
    (:attr:`~verification.certify.envelope.SizePoint.cases`); the pair is their shared ids.
    """
    bare_search, scaffold_search = searches
    bare_scores, scaffold_scores = _scores(bare), _scores(scaffold)
    records = (
        [r for r in bare_records if r.scaffold == bare.scaffold],
        [r for r in scaffold_records if r.scaffold == scaffold.scaffold],
    )
    bare_points = {p.size: p for p in bare.size_points}
    scaffold_points = {p.size: p for p in scaffold.size_points}
    # Every row counts each input once, as the status does: a fixed size plan (the quick
    # level's 35) keeps a small size's copies among its cases, and paired apart one changed
    # answer read as many (n_queens at 4: 8 inputs in 35 cases, p 0.0002 for 0.25; hunt bb).
    units = shared_units(drawn_inputs(bare.results), drawn_inputs(scaffold.results))
    rows = []
    for size in sorted(bare_points.keys() | scaffold_points.keys()):
        a, b = bare_points.get(size), scaffold_points.get(size)
        rows.append(
            _row(
                size,
                {i: s for i, s in bare_scores.items() if a is not None and i in a.cases},
                {i: s for i, s in scaffold_scores.items() if b is not None and i in b.cases},
                records,
                (a.status if a else None, b.status if b else None),
                units=units,
            )
        )
    adjusted = holm_adjust({str(row.size): row.comparison.p_value for row in rows})
    return Lift(
        scaffold=scaffold.scaffold,
        unit=scaffold.size_unit,
        sizes=tuple(replace(row, p_holm=adjusted[str(row.size)]) for row in rows),
        # every case both arms answered, each input once (copies of one prompt are answered
        # alike: so ``compare`` and the status count them)
        overall=_row(None, bare_scores, scaffold_scores, records, units=units),
        bare_certified_up_to=(bare_search or bare).certified_up_to,
        bare_fails_from=(bare_search or bare).fails_from,
        scaffold_certified_up_to=(scaffold_search or scaffold).certified_up_to,
        scaffold_fails_from=(scaffold_search or scaffold).fails_from,
        bare_stopped=bare_search.stopped if bare_search else "",
        scaffold_stopped=scaffold_search.stopped if scaffold_search else "",
        incomplete=tuple(
            arm
            for arm, results in (("the bare arm", bare), ("the scaffold arm", scaffold))
            if results.status == "INCOMPLETE"
        ),
        lost=tuple(
            f"{arm} lost {count} answer(s) to infrastructure errors on cases {other} answered"
            for arm, other, count in (
                ("the bare arm", "the scaffold arm", _lost(bare, scaffold_scores)),
                ("the scaffold arm", "the bare arm", _lost(scaffold, bare_scores)),
            )
            if count
        ),
    )


def _lost(results: ScaffoldResults, answered: Mapping[str, float]) -> int:
    """The answers ``results`` lost to infrastructure errors of the cases in ``answered``."""
    return sum(r.outcome == "infra_error" and r.test_case.id in answered for r in results.results)


def _reach(
    up_to: int | None, fails: int | None, lift: Lift, stopped: str = "", *, bare: bool
) -> str:
    """One arm's envelope (``bare``: the arm without the scaffold): "up to 16 vertices,
    failing from 24 (FAILED)"."""
    if up_to is None:
        decided = [row.bare_status if bare else row.scaffold_status for row in lift.sizes]
        first = next((status for status in decided if status is not None), None)
        # As the arm's own envelope says it: nothing failed at an INCOMPLETE size (hunt ee)
        said = (
            "undecided from the smallest size tried"
            if first == "INCOMPLETE"
            else "at none of the sizes tried"
        )
    else:
        said = f"up to {in_units(up_to, lift.unit)}"
        if fails is None and all(row.size is not None and row.size <= up_to for row in lift.sizes):
            said += " (every size tried)"
    if fails is not None:
        # Its status said, as the envelope's sentence says it: PARTIAL is no FAILED.
        row = next((row for row in lift.sizes if row.size == fails), None)
        status = None if row is None else row.bare_status if bare else row.scaffold_status
        said += f", failing from {fails}" + (f" ({status})" if status else "")
    return said + (f" ({stopped})" if stopped else "")


def _sizes(rows: Sequence[LiftRow]) -> str:
    return ", ".join(str(row.size) for row in rows)


def lift_sentence(lift: Lift) -> str:
    """The lift in a sentence or two: both envelopes (when the pair swept sizes), what the
    scaffold adds (where it did significantly better, Holm-corrected across the sizes, or
    nothing detectable), and its price in output tokens per case."""
    said = []
    if lift.sizes:
        with_it = _reach(
            lift.scaffold_certified_up_to,
            lift.scaffold_fails_from,
            lift,
            lift.scaffold_stopped,
            bare=False,
        )
        without = _reach(
            lift.bare_certified_up_to, lift.bare_fails_from, lift, lift.bare_stopped, bare=True
        )
        opening = "With the scaffold " + ("" if with_it.startswith("undecided") else "certified ")
        said.append(f"{opening}{with_it}; without, {without}.")
    rows = lift.sizes or (lift.overall,)
    lifted = [row for row in rows if row.lifted]
    lowered = [row for row in rows if row.lowered]
    where = "at these sizes" if lift.sizes else "on these cases"
    if lift.incomplete or lift.lost:
        arms = " and ".join(lift.incomplete)
        why = (
            [
                f"{arms} {'is' if len(lift.incomplete) == 1 else 'are'} INCOMPLETE (answers lost "
                "to errors or missing)"
            ]
            if lift.incomplete
            else []
        )
        why += [f"{lost} (the answers left may be the ones that favour it)" for lost in lift.lost]
        adds = "No lift is claimed: " + "; ".join(why)
        lowered = []
    elif lifted:
        best = max(lifted, key=lambda row: row.comparison.difference)
        at = f" at {in_units(_sizes(lifted), lift.unit)}" if lift.sizes else ""
        at_best = f" at {best.size}" if lift.sizes else ""
        by = f"{100 * best.comparison.difference:+.1f} pp{at_best}"
        adds = f"The scaffold lifts the pass rate{at} (by {by})"
    else:
        adds = f"The scaffold adds nothing detectable {where}"
    if lowered:
        adds += (
            f", and lowers it at {in_units(_sizes(lowered), lift.unit)}"
            if lift.sizes
            else ", and lowers it"
        )
    ratio = lift.overall.token_ratio
    bare, scaffold = lift.overall.bare_tokens, lift.overall.scaffold_tokens
    if ratio is None or bare.per_case is None or scaffold.per_case is None:
        cost = " (no output tokens were recorded to price it)"
    else:
        estimated = ", estimated from reply lengths" if bare.estimated or scaffold.estimated else ""
        cost = (
            f" and costs {ratio:.1f}x the output tokens ({scaffold.per_case:,.0f} per case "
            f"against {bare.per_case:,.0f}{estimated})"
        )
    said.append(adds + cost + ".")
    return " ".join(said)
