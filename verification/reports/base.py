"""The reporter contract: each report output is a small writer of one run's results.

A :class:`Reporter` takes a :class:`ReportContext` and returns the paths it wrote. Markdown
and ``summary.json`` are two reporters; another output (JUnit XML, charts, a CI job summary)
is one more reporter, with no change to the runner or the other reporters.

The types a context carries live here too, below every reporter: an earlier run as history
sees it (:class:`RunEntry`) and this run against the previous one (:class:`RunComparison`).
History, regressions and the summary all read them, so none of those imports another for a
type.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from verification.certify.costs import ScaffoldCost
from verification.certify.paired import ALPHA, PairedComparison
from verification.certify.results import ScaffoldResults
from verification.store.journal import read_journal
from verification.store.manifests import RunManifest
from verification.store.records import AttemptRecord
from verification.store.summary_file import RunSummary

__all__ = [
    "RANK",
    "Direction",
    "PairedRow",
    "ReportContext",
    "Reporter",
    "RunComparison",
    "RunEntry",
    "StatusChangeRow",
    "manifest_field",
    "status_changes",
]

RANK = {"FAILED": 0, "PARTIAL": 1, "CERTIFIED": 2}
"""Statuses in order; INCOMPLETE is no grade, so a change to or from it is neither a
regression nor an improvement of the scaffold."""
Direction = Literal["regression", "improvement", "change"]


def manifest_field(manifest: RunManifest, name: str) -> Any:
    """A manifest's field as runs are compared on it (the provider's name, no model for a
    dry run, lists sorted)."""
    if name == "provider":
        return manifest.provider.get("provider")
    if name == "model":
        return None if manifest.dry_run else manifest.model_requested
    value = getattr(manifest, name, None)
    return sorted(value) if isinstance(value, list) else value


@dataclass(frozen=True)
class RunEntry:
    """One run as history sees it."""

    run_dir: Path
    manifest: RunManifest
    summary: RunSummary | None
    """``None`` when the run has no usable ``summary.json`` (not reported yet, or damaged)."""

    @property
    def run_id(self) -> str:
        return self.manifest.run_id

    def records(self) -> list[AttemptRecord]:
        """The run's journal (:class:`JournalError` when it cannot be read back)."""
        return read_journal(self.run_dir / "results.jsonl")

    def as_json(self) -> dict[str, Any]:
        """What ``history --json`` prints for the run."""
        m = self.manifest
        return {
            "run_id": m.run_id,
            "created_at": m.created_at,
            "provider": m.provider.get("provider"),
            "model": None if m.dry_run else m.model_requested,
            "dry_run": m.dry_run,
            "level": manifest_field(m, "level"),
            "seed": "private" if getattr(m, "seed_private", False) else m.seed,
            "code_version": m.code_version,
            "scaffolds": {
                name: {"status": s.status, "pass_rate": s.pass_rate, "n": s.n}
                for name, s in (self.summary.scaffolds.items() if self.summary else ())
            },
        }


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
