"""What changed since the previous comparable run, and whether two runs differ.

Status changes come first, regressions before improvements. A pass rate can also drop while
the status holds; such a drop is a regression when it is significant on the cases both runs
answered: exact McNemar on the discordant split (:mod:`verification.certify.paired`), Holm-corrected
across the run's scaffolds, so a catalog of 33 scaffolds does not raise a false alarm most
nights.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from verification.certify.paired import holm_adjust, paired_comparison
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
from verification.reports.history import entry_outcomes, first_sample_outcomes

__all__ = ["compare_outcomes", "compare_with_previous"]

logger = logging.getLogger(__name__)
_ORDER: dict[Direction, int] = {"regression": 0, "improvement": 1, "change": 2}


def compare_outcomes(
    a: Mapping[str, Mapping[str, bool]], b: Mapping[str, Mapping[str, bool]]
) -> list[PairedRow]:
    """Per scaffold both runs hold (in ``b``'s order), the paired comparison of their
    first-sample outcomes by case id, Holm-adjusted across those scaffolds."""
    shared = [name for name in b if name in a]
    comparisons = {name: paired_comparison(a[name], b[name]) for name in shared}
    adjusted = holm_adjust({name: c.p_value for name, c in comparisons.items()})
    return [PairedRow(name, comparisons[name], adjusted[name]) for name in shared]


def compare_with_previous(
    previous: RunEntry, results: Mapping[str, ScaffoldResults]
) -> RunComparison:
    """This run's results against ``previous`` (its summary and its journal's outcomes;
    an unreadable journal leaves the paired part empty, with a warning)."""
    assert previous.summary is not None  # a baseline has one (history.previous_comparable)
    statuses = {name: r.status for name, r in results.items()}
    changes = [
        StatusChangeRow(name, before, now)
        for name, before, now in status_changes(statuses, previous.summary.model_dump())
    ]
    changes.sort(key=lambda change: _ORDER[change.direction])
    now = {name: first_sample_outcomes(r) for name, r in results.items()}
    try:
        before = entry_outcomes(previous)
    except (OSError, JournalError) as exc:
        logger.warning(
            "previous run %s: journal unreadable (%s): no paired test", previous.run_id, exc
        )
        before = {}
    return RunComparison(
        previous_run_id=previous.run_id,
        status_changes=changes,
        paired=compare_outcomes(before, now),
    )
