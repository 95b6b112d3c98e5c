"""The envelope search in the reports: each scaffold report's "Envelope search" section
(every size tried, in order, with its decision, cases and cost, and why the search stopped)
and ``summary.json``'s ``envelope_search``. The pass rate against size is the size
envelope's own chart (``<scaffold>-sizes.svg``, :mod:`verification.reports.charts`): the
sizes the search decided are the envelope's points."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from verification.certify.envelope_search import EnvelopeResult, envelope_result
from verification.certify.results import ScaffoldResults
from verification.reports.base import shown_rate
from verification.store.manifests import RunManifest
from verification.store.records import AttemptRecord
from verification.store.summary_file import EnvelopeSearchSummary, EnvelopeTry, RunSummary

__all__ = ["search_markdown", "search_results", "with_searches"]


def search_results(
    manifest: RunManifest,
    results: Mapping[str, ScaffoldResults],
    records: Sequence[AttemptRecord],
) -> dict[str, EnvelopeResult]:
    """Each scaffold's envelope search in the run (none without one)."""
    found = {}
    for name, result in results.items():
        outcome = envelope_result(result, manifest, records)
        if outcome is not None:
            found[name] = outcome
    return found


def _usd(value: float | None) -> str:
    return "-" if value is None else f"${value:.4f}"


def search_markdown(outcome: EnvelopeResult | None) -> str:
    """The "Envelope search" section of a scaffold report ("" without a search)."""
    if outcome is None:
        return ""
    lines = [
        "",
        "## Envelope search",
        "",
        f"**{outcome.sentence[0].upper()}{outcome.sentence[1:]}.**",
        "",
        "The search decided the standard maximum first, climbed by doubling while sizes "
        "certified, then narrowed between the last certified and the first failed size; each "
        "size was decided as a swept size is (the size envelope above, and its chart).",
        "",
        f"| Order | Size ({outcome.unit}) | Decision | Cases | Pass rate | Input tokens "
        "| Output tokens | USD |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for order, tried in enumerate(outcome.tried, 1):
        limited = " (budget-limited)" if tried.budget_limited else ""
        short = f", ended short at {tried.n}" if tried.ended_short else ""
        lines.append(
            f"| {order} | {tried.size} | {tried.status}{short}{limited} | {tried.n} | "
            f"{shown_rate(tried.pass_rate, tried.n)} | {tried.input_tokens:,} | "
            f"{tried.output_tokens:,} | "
            f"{_usd(tried.usd)} |"
        )
    for said in (outcome.stopped, outcome.overshoot):
        if said:
            lines += ["", f"{said[0].upper()}{said[1:]}."]
    return "\n".join(lines) + "\n"


def _summary(outcome: EnvelopeResult) -> EnvelopeSearchSummary:
    return EnvelopeSearchSummary(
        certified_up_to=outcome.certified_up_to,
        fails_from=outcome.fails_from,
        tried=[
            EnvelopeTry(
                size=t.size,
                status=t.status,
                n=t.n,
                pass_rate=t.pass_rate,
                budget_limited=t.budget_limited,
                input_tokens=t.input_tokens,
                output_tokens=t.output_tokens,
                usd=t.usd,
                ended_short=t.ended_short,
            )
            for t in outcome.tried
        ],
        stopped=outcome.stopped,
        statement=outcome.sentence,
        overshoot=outcome.overshoot,
    )


def with_searches(summary: RunSummary, searches: Mapping[str, EnvelopeResult]) -> RunSummary:
    """``summary`` with each searched scaffold's ``envelope_search`` filled in."""
    if not searches:
        return summary
    scaffolds = {
        name: entry.model_copy(update={"envelope_search": _summary(searches[name])})
        if name in searches
        else entry
        for name, entry in summary.scaffolds.items()
    }
    return summary.model_copy(update={"scaffolds": scaffolds})
