"""The lift of a ``--baseline none`` pair (:mod:`verification.certify.lift`) as the reports
and the terminal say it: a section of ``summary.md``, the ``lift`` of ``summary.json`` and a
table under the pair's comparison.

Either run of a pair reports it: the other run is read back from its manifest and journal
(untrusted files: a run that cannot be read is warned about and the reports are written
without the lift).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path

from verification.certify.envelope_search import EnvelopeResult, envelope_result
from verification.certify.lift import LiftRow, PairLift, lift_sentence, scaffold_lift
from verification.certify.results import ScaffoldResults, results_from_journal
from verification.errors import ConfigurationError, JournalError, StoredFileError
from verification.store.journal import read_journal
from verification.store.manifests import RunManifest
from verification.store.paths import RunPaths
from verification.store.records import AttemptRecord
from verification.store.run_ids import is_run_id
from verification.store.summary_file import LiftRowSummary, LiftSummary

__all__ = [
    "ArmRun",
    "lift_markdown",
    "lift_summaries",
    "linked_lift",
    "pair_lift",
    "render_lift",
    "stored_lift",
]

logger = logging.getLogger(__name__)

ArmRun = tuple[RunManifest, Mapping[str, ScaffoldResults], Sequence[AttemptRecord]]
"""One run of a pair: its manifest, each scaffold's results, its journal."""


def _search(arm: ArmRun, name: str) -> EnvelopeResult | None:
    """The arm's envelope search of scaffold ``name`` (``None``: it searched none)."""
    manifest, results, records = arm
    return envelope_result(results[name], manifest, records)


def pair_lift(bare: ArmRun, scaffold: ArmRun) -> PairLift:
    """The lift of every scaffold both runs of a pair hold (in the scaffold run's order),
    each arm's envelope its search's where it searched."""
    (bare_manifest, bare_results, bare_records) = bare
    (scaffold_manifest, scaffold_results, scaffold_records) = scaffold
    return PairLift(
        bare_manifest.run_id,
        scaffold_manifest.run_id,
        {
            name: scaffold_lift(
                bare_results[name],
                results,
                bare_records,
                scaffold_records,
                searches=(_search(bare, name), _search(scaffold, name)),
            )
            for name, results in scaffold_results.items()
            if name in bare_results
        },
    )


def linked_lift(
    results_dir: Path,
    manifest: RunManifest,
    results: Mapping[str, ScaffoldResults],
    records: Sequence[AttemptRecord],
) -> PairLift | None:
    """The lift of the ``--baseline none`` pair ``manifest``'s run is one of (its other run
    read back from ``results_dir``); ``None`` when it is no such pair's run, or the other
    run cannot be read (warned about)."""
    other_id = manifest.linked_run
    if other_id is None or not is_run_id(other_id):
        return None
    paths = RunPaths(results_dir, other_id)
    try:
        other = paths.read_manifest()
        if other.linked_run != manifest.run_id or "bare" not in (manifest.variant, other.variant):
            return None
        if not paths.journal.is_file():  # an empty arm would read as one that failed all
            raise FileNotFoundError(f"{paths.journal} is missing")
        other_results = results_from_journal(other, other_records := read_journal(paths.journal))
    except (ConfigurationError, StoredFileError, JournalError, OSError, ValueError) as exc:
        logger.warning("the lift is left out: run %s cannot be read: %s", other_id, exc)
        return None
    mine: ArmRun = (manifest, results, records)
    theirs: ArmRun = (other, other_results, other_records)
    return pair_lift(mine, theirs) if manifest.variant == "bare" else pair_lift(theirs, mine)


def stored_lift(results_dir: Path, run_id: str) -> PairLift | None:
    """:func:`linked_lift` of a run read back from ``results_dir`` (``compare`` of a pair
    prints what ``verify --baseline none`` printed); ``None`` as there, or when the run
    itself cannot be read (warned about)."""
    paths = RunPaths(results_dir, run_id)
    try:
        manifest = paths.read_manifest()
        results = results_from_journal(manifest, records := read_journal(paths.journal))
    except (ConfigurationError, StoredFileError, JournalError, OSError, ValueError) as exc:
        logger.warning("the lift is left out: run %s cannot be read: %s", run_id, exc)
        return None
    return linked_lift(results_dir, manifest, results, records)


def _pct(rate: float) -> str:
    return f"{100 * rate:.1f}%"


def _pp(difference: float) -> str:
    return f"{100 * difference:+.1f}"


def _tokens(row: LiftRow) -> tuple[str, str, str]:
    bare, scaffold, ratio = row.bare_tokens.per_case, row.scaffold_tokens.per_case, row.token_ratio
    return (
        "-" if bare is None else f"{bare:,.0f}",
        "-" if scaffold is None else f"{scaffold:,.0f}",
        "-" if ratio is None else f"{ratio:.2f}x",
    )


def _rate(rate: float | None) -> str:
    return "-" if rate is None else _pct(rate)


def _cells(row: LiftRow) -> list[str]:
    c = row.comparison
    low, high = c.interval
    statuses = f"{row.bare_status or '-'} / {row.scaffold_status or '-'}"
    bare, scaffold, ratio = _tokens(row)
    paired = f"{_pp(c.difference)} pp ({_pp(low)} to {_pp(high)})" if row.paired else "-"
    return [
        "all" if row.size is None else str(row.size),
        str(c.shared),
        _rate(row.bare_rate),
        _rate(row.scaffold_rate),
        paired,
        f"{c.p_value:.4f}" if row.paired else "-",
        f"{row.p_holm:.4f}" if row.size is not None and row.paired else "-",
        statuses if row.size is not None else "-",
        f"{bare} / {scaffold}",
        ratio,
    ]


_HEADERS = [
    "SIZE",
    "SHARED",
    "NO SCAFFOLD",
    "SCAFFOLD",
    "DIFFERENCE (95% CI)",
    "P",
    "P HOLM",
    "STATUS WITHOUT / WITH",
    "OUTPUT TOKENS/CASE WITHOUT / WITH",
    "RATIO",
]
_MARKDOWN_HEADERS = [
    "Shared cases",
    "No scaffold",
    "Scaffold",
    "Scaffold - no scaffold (95% interval)",
    "p",
    "p (Holm)",
    "Status without / with",
    "Output tokens per case without / with",
    "Token ratio",
]
_NOTE = (
    "case scores on the cases both arms decided each size on; difference scaffold - no "
    "scaffold, Newcombe's paired score interval; exact sign test (McNemar with one sample), "
    "two-sided, Holm-corrected across the sizes; a size one arm did not try shows the "
    "other's own rate; output tokens of every attempt of a case"
)


def _note(lift: PairLift) -> str:
    """What the tables' figures are, said once under them."""
    rows = [row for one in lift.scaffolds.values() for row in (*one.sizes, one.overall)]
    said = _NOTE
    if any(row.bare_tokens.estimated or row.scaffold_tokens.estimated for row in rows):
        said += ", estimated from reply lengths (four characters a token) where none was recorded"
    return said


def lift_markdown(lift: PairLift) -> str:
    """The ``## Lift over no scaffold`` section of ``summary.md``."""
    lines = [
        "## Lift over no scaffold",
        "",
        f"A `--baseline none` pair: no scaffold in run `{lift.bare_run}`, the scaffold in "
        f"run `{lift.scaffold_run}`, on the same cases.",
    ]
    for name, one in lift.scaffolds.items():
        headers = [f"Size ({one.unit})", *_MARKDOWN_HEADERS]
        lines += ["", f"**{name}.** {lift_sentence(one)}", ""]
        lines.append("| " + " | ".join(headers) + " |")
        lines.append("|" + "---|" * len(headers))
        for row in (*one.sizes, one.overall):
            lines.append("| " + " | ".join(_cells(row)) + " |")
    if lift.scaffolds:
        lines += ["", f"({_note(lift)}.)"]
    return "\n".join(lines) + "\n"


def render_lift(lift: PairLift) -> str:
    """The lift as the terminal prints it under the pair's comparison: per scaffold its
    sentence and a table of the sizes, then once what the figures are."""
    lines: list[str] = []
    for name, one in lift.scaffolds.items():
        rows = [_HEADERS, *(_cells(row) for row in (*one.sizes, one.overall))]
        widths = [max(len(row[i]) for row in rows) for i in range(len(_HEADERS))]
        lines += [f"lift of {name} ({one.unit}): {lift_sentence(one)}"]
        lines += [
            "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
            for row in rows
        ]
    if lines:
        lines.append(f"({_note(lift)})")
    return "\n".join(lines) + "\n" if lines else ""


def _row_summary(row: LiftRow) -> LiftRowSummary:
    c = row.comparison
    return LiftRowSummary(
        size=row.size,
        shared=c.shared,
        bare_pass_rate=row.bare_rate,
        scaffold_pass_rate=row.scaffold_rate,
        difference=c.difference if row.paired else None,
        difference_interval_95=c.interval if row.paired else None,
        p_value=c.p_value,
        p_holm=row.p_holm,
        bare_status=row.bare_status,
        scaffold_status=row.scaffold_status,
        bare_output_tokens_per_case=row.bare_tokens.per_case,
        scaffold_output_tokens_per_case=row.scaffold_tokens.per_case,
        token_ratio=row.token_ratio,
        tokens_estimated=row.bare_tokens.estimated or row.scaffold_tokens.estimated,
    )


def lift_summaries(lift: PairLift) -> dict[str, LiftSummary]:
    """The ``lift`` of ``summary.json``: per scaffold."""
    return {
        name: LiftSummary(
            bare_run=lift.bare_run,
            scaffold_run=lift.scaffold_run,
            unit=one.unit,
            sentence=lift_sentence(one),
            bare_certified_up_to=one.bare_certified_up_to,
            bare_fails_from=one.bare_fails_from,
            scaffold_certified_up_to=one.scaffold_certified_up_to,
            scaffold_fails_from=one.scaffold_fails_from,
            bare_stopped=one.bare_stopped,
            scaffold_stopped=one.scaffold_stopped,
            sizes=[_row_summary(row) for row in one.sizes],
            overall=_row_summary(one.overall),
        )
        for name, one in lift.scaffolds.items()
    }
