"""The reporter contract: each report output is a small writer of one run's results.

A :class:`Reporter` takes a :class:`ReportContext` and returns the paths it wrote. Markdown
and ``summary.json`` are two reporters; another output (JUnit XML, charts, a CI job summary)
is one more reporter, with no change to the runner or the other reporters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from verification.certify.costs import ScaffoldCost
from verification.certify.results import ScaffoldResults
from verification.store.journal import AttemptRecord, RunManifest

if TYPE_CHECKING:  # both import this module
    from verification.reports.history import RunEntry
    from verification.reports.regressions import RunComparison

__all__ = ["ReportContext", "Reporter", "status_changes"]


@dataclass(frozen=True)
class ReportContext:
    """What a reporter may read about one run."""

    manifest: RunManifest
    results: Mapping[str, ScaffoldResults]
    """Each scaffold's certification, in the run's order."""
    output_dir: Path
    """The run's reports folder: where reports of the run belong."""
    previous: dict[str, Any] | None = None
    """The previous comparable run's ``summary.json`` data, if there is one."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Options from the command line (an output path given there may lie outside
    ``output_dir``)."""
    costs: Mapping[str, ScaffoldCost] = field(default_factory=dict)
    """Each scaffold's cost, folded from the journal."""
    comparison: RunComparison | None = None
    """This run against the previous comparable one (status changes, paired rate drops)."""
    history: Sequence[RunEntry] = ()
    """Earlier comparable runs, oldest first (the last is the previous one)."""
    records: Sequence[AttemptRecord] = ()
    """The run's journal: every attempt of every case, in order (the HTML page lists them)."""


class Reporter(Protocol):
    """Writes one kind of report."""

    name: str
    """What the output is called (``markdown``, ``summary-json``)."""

    def write(self, context: ReportContext) -> list[Path]:
        """Write the report(s); return every path written."""
        ...


def status_changes(
    statuses: Mapping[str, str], previous: Mapping[str, Any] | None
) -> list[tuple[str, str, str]]:
    """``(scaffold, before, now)`` for each scaffold whose status changed since ``previous``
    (a ``summary.json``'s data)."""
    if not previous:
        return []
    before_all = previous.get("scaffolds", {})
    changes = []
    for name, now in statuses.items():
        before = before_all.get(name, {}).get("status") if isinstance(before_all, dict) else None
        if before and before != now:
            changes.append((name, before, now))
    return changes
