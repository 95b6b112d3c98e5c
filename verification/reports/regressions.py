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
from dataclasses import dataclass, field
from typing import Literal

from verification.certify.paired import ALPHA, PairedComparison, holm_adjust, paired_comparison
from verification.certify.results import ScaffoldResults
from verification.errors import JournalError
from verification.reports.base import status_changes
from verification.reports.history import RunEntry, entry_outcomes, first_sample_outcomes

__all__ = [
    "RANK",
    "PairedRow",
    "RunComparison",
    "StatusChangeRow",
    "compare_outcomes",
    "compare_with_previous",
]

logger = logging.getLogger(__name__)
RANK = {"FAILED": 0, "PARTIAL": 1, "CERTIFIED": 2}
"""Statuses in order; INCOMPLETE is no grade, so a change to or from it is neither a
regression nor an improvement of the scaffold."""
Direction = Literal["regression", "improvement", "change"]
_ORDER: dict[Direction, int] = {"regression": 0, "improvement": 1, "change": 2}


@dataclass(frozen=True)
class StatusChangeRow:
    """A scaffold whose status changed."""

    scaffold: str
    before: str
    now: str

    @property
    def direction(self) -> Direction:
        if self.before not in RANK or self.now not in RANK:
            return "change"
        return "regression" if RANK[self.now] < RANK[self.before] else "improvement"


@dataclass(frozen=True)
class PairedRow:
    """One scaffold of two runs on their shared cases."""

    scaffold: str
    comparison: PairedComparison
    p_holm: float
    """The McNemar p-value, Holm-adjusted across the scaffolds compared."""

    @property
    def significant(self) -> bool:
        return self.comparison.in_reach and self.p_holm < ALPHA

    @property
    def dropped(self) -> bool:
        """The later run (B) passed fewer of the shared cases."""
        return self.comparison.only_a > self.comparison.only_b

    def verdict(self, a: str = "A", b: str = "B") -> str:
        return self.comparison.verdict(self.p_holm, a=a, b=b)


def compare_outcomes(
    a: Mapping[str, Mapping[str, bool]], b: Mapping[str, Mapping[str, bool]]
) -> list[PairedRow]:
    """Per scaffold both runs hold (in ``b``'s order), the paired comparison of their
    first-sample outcomes by case id, Holm-adjusted across those scaffolds."""
    shared = [name for name in b if name in a]
    comparisons = {name: paired_comparison(a[name], b[name]) for name in shared}
    adjusted = holm_adjust({name: c.p_value for name, c in comparisons.items()})
    return [PairedRow(name, comparisons[name], adjusted[name]) for name in shared]


@dataclass(frozen=True)
class RunComparison:
    """This run against the previous comparable one."""

    previous_run_id: str
    status_changes: list[StatusChangeRow]
    """Regressions first, then improvements, then changes to or from INCOMPLETE."""
    paired: list[PairedRow] = field(default_factory=list)
    """Every scaffold both runs hold, on the shared cases (previous = A, this run = B)."""

    @property
    def rate_drops(self) -> list[PairedRow]:
        """Scaffolds that passed fewer shared cases than before, significant or not."""
        return [row for row in self.paired if row.dropped]

    @property
    def regressions(self) -> list[str]:
        """Scaffolds that regressed: a lower status, or a significant drop on shared cases."""
        names = [c.scaffold for c in self.status_changes if c.direction == "regression"]
        names += [r.scaffold for r in self.rate_drops if r.significant and r.scaffold not in names]
        return names


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
