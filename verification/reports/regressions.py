"""What changed since the previous comparable run, and whether two runs differ.

A regression is a drop the data shows: significant by the one-sided exact sign test on the
case scores of the cases both runs answered (exact McNemar with one sample per case),
Holm-corrected within Tarone's family of the scaffolds that could reach the level
(:mod:`verification.certify.paired`), so that over a catalog of 33 scaffolds with nothing
changed the gate fires on at most one night in twenty. A status change is listed either way,
regressions first; one the paired test does not back is "changed status, not significant"
and is no regression (no exit 5), whatever rule decided the two statuses (a run recorded
before this gate is compared by the same paired test on its journal).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from verification.certify.paired import (
    PairedComparison,
    gate_adjust,
    holm_adjust,
    paired_comparison,
)
from verification.certify.results import ScaffoldResults
from verification.errors import JournalError
from verification.reports.base import (
    Direction,
    PairedRow,
    RunComparison,
    RunEntry,
    StatusChangeRow,
    status_changes,
)
from verification.reports.history import case_scores, entry_outcomes

__all__ = ["compare_outcomes", "compare_with_previous", "judge", "paired_rows"]

logger = logging.getLogger(__name__)
_ORDER: dict[Direction, int] = {
    "regression": 0,
    "improvement": 1,
    "not significant": 2,
    "change": 3,
}


def compare_outcomes(
    a: Mapping[str, Mapping[str, float]], b: Mapping[str, Mapping[str, float]]
) -> list[PairedRow]:
    """Per scaffold both runs hold (in ``b``'s order), the paired comparison of their case
    scores by case id: two-sided Holm-adjusted across those scaffolds, and the regression
    gate's one-sided test of a drop."""
    shared = [name for name in b if name in a]
    return paired_rows({name: paired_comparison(a[name], b[name]) for name in shared})


def paired_rows(comparisons: Mapping[str, PairedComparison]) -> list[PairedRow]:
    """The rows of scaffolds' paired comparisons (in their order): two-sided Holm across
    them, and the regression gate's one-sided test within Tarone's family."""
    adjusted = holm_adjust({name: c.p_value for name, c in comparisons.items()})
    gate = gate_adjust(comparisons)
    family = sum(p is not None for p in gate.values())
    return [
        PairedRow(name, comparison, adjusted[name], gate[name], family)
        for name, comparison in comparisons.items()
    ]


def judge(
    previous_run_id: str,
    before: Mapping[str, Any],
    statuses: Mapping[str, str],
    paired: list[PairedRow],
) -> RunComparison:
    """This run's ``statuses`` and ``paired`` rows against the previous run's summary data
    ``before``: each status change backed by the paired test or not, regressions first."""
    rows = {row.scaffold: row for row in paired}
    changes = [_backed(change, rows) for change in status_changes(statuses, before)]
    changes.sort(key=lambda change: _ORDER[change.direction])
    return RunComparison(previous_run_id=previous_run_id, status_changes=changes, paired=paired)


def _backed(change: tuple[str, str, str], rows: Mapping[str, PairedRow]) -> StatusChangeRow:
    """A status change, significant when the paired test finds a move its way."""
    name, before, now = change
    row = rows.get(name)
    plain = StatusChangeRow(name, before, now)
    significant = row is not None and (row.significant if plain.lower else row.rose)
    return StatusChangeRow(name, before, now, significant)


def compare_with_previous(
    previous: RunEntry, results: Mapping[str, ScaffoldResults]
) -> RunComparison:
    """This run's results against ``previous`` (its summary and its journal's outcomes;
    an unreadable journal leaves the paired part empty, with a warning)."""
    assert previous.summary is not None  # a baseline has one (history.previous_comparable)
    now = {name: case_scores(r) for name, r in results.items()}
    try:
        before = entry_outcomes(previous)
    except (OSError, JournalError) as exc:
        logger.warning(
            "previous run %s: journal unreadable (%s): no paired test", previous.run_id, exc
        )
        before = {}
    statuses = {name: r.shown_status for name, r in results.items()}
    paired = compare_outcomes(before, now)
    return judge(previous.run_id, previous.summary.model_dump(), statuses, paired)
