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

import os
import re
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from verification.certify.costs import ScaffoldCost
from verification.certify.lift import PairLift
from verification.certify.paired import ALPHA, OUT_OF_REACH, PairedComparison, drop_power
from verification.certify.results import ScaffoldResults
from verification.errors import ConfigurationError
from verification.store.journal import read_journal
from verification.store.manifests import RunManifest
from verification.store.records import AttemptRecord
from verification.store.summary_file import RunSummary

__all__ = [
    "DIRECTION_TEXT",
    "ENVELOPE_SEARCH",
    "INFRA_CASE",
    "RANK",
    "Direction",
    "PairedRow",
    "ReportContext",
    "Reporter",
    "RunComparison",
    "RunEntry",
    "StatusChangeRow",
    "infra_reasons",
    "manifest_field",
    "shown_rate",
    "status_changes",
    "write_report",
]

RANK = {"FAILED": 0, "PARTIAL": 1, "CERTIFIED": 2}
"""Statuses in order; INCOMPLETE is no grade, so a change to or from it is neither a
regression nor an improvement of the scaffold."""
Direction = Literal["regression", "improvement", "not significant", "change"]
"""A status change: to a lower status with a significant drop on the shared cases
(``regression``), to a higher one with a significant rise (``improvement``), either within
the noise (``not significant``: "changed status, not significant", never an exit 5), or to
or from a status that is no grade (``change``)."""
DIRECTION_TEXT: dict[str, str] = {
    "regression": "regression",
    "improvement": "improvement",
    "not significant": "changed status, not significant",
    "change": "change",
}
"""How each direction reads in a report."""


def shown_rate(rate: float | None, n: int = 1) -> str:
    """A pass rate as a percentage to a tenth, as every view shows one; "-" where there is
    none (``None``) or nothing was counted (``n`` 0): "0.0%" of no answer read as every
    answer wrong (hunts ag, ah and aj found it in a dozen views).

    Examples
    --------
    >>> shown_rate(0.975, 40), shown_rate(0.0, 0), shown_rate(None)
    ('97.5%', '-', '-')
    """
    return "-" if rate is None or not n else f"{100 * rate:.1f}%"


ENVELOPE_SEARCH = "an envelope search"
"""How :func:`manifest_field` gives the sizes of a scaffold whose envelope a run searched."""


def manifest_field(manifest: RunManifest, name: str) -> Any:
    """A manifest's field as runs are compared on it (the provider's name, no model for a
    dry run, the answer mode its settings name, the variant its arm is where unlinked,
    lists sorted, and for the sizes of a scaffold whose envelope was searched
    :data:`ENVELOPE_SEARCH`, not the sizes tried)."""
    if name == "provider":
        return manifest.provider.get("provider")
    if name == "model":
        return None if manifest.dry_run else manifest.model_requested
    if name == "answer":  # a manifest from before code mode asked for traces, the default
        return manifest.settings.get("answer") or "trace"
    if name == "variant" and manifest.variant is None:
        # An arm whose pair was never linked (its second arm stopped) is still that arm: the
        # bare arm was an ordinary run's baseline, and its own gate read one (hunt ll 4).
        return {"bare": "bare", "draft": "draft"}.get(manifest.arm or "")
    if name == "sizes" and manifest.envelope:
        # A search's sizes are where its answers led it: a course that moved is what the gate
        # is for, and read as a run not comparable it left every scaffold ungated (hunt kk 1).
        searched = dict.fromkeys(manifest.envelope, ENVELOPE_SEARCH)
        swept = {scaffold: sorted(sizes) for scaffold, sizes in (manifest.sizes or {}).items()}
        return swept | searched
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
    significant: bool = False
    """Whether the paired test on the shared cases found a change in the status's
    direction (a drop by the regression gate, a rise by the two-sided comparison)."""

    @property
    def direction(self) -> Direction:
        if self.before not in RANK or self.now not in RANK:
            return "change"
        if not self.significant:
            return "not significant"
        return "regression" if RANK[self.now] < RANK[self.before] else "improvement"

    @property
    def direction_text(self) -> str:
        """The direction as a report reads it."""
        return DIRECTION_TEXT[self.direction]

    @property
    def lower(self) -> bool:
        """The status is lower than before (significant or not)."""
        return self.before in RANK and self.now in RANK and RANK[self.now] < RANK[self.before]


@dataclass(frozen=True)
class PairedRow:
    """One scaffold of two runs on their shared cases."""

    scaffold: str
    comparison: PairedComparison
    p_holm: float
    """The two-sided p-value, Holm-adjusted across the scaffolds compared (``compare``)."""
    p_gate: float | None = None
    """The regression gate's p-value of a drop: one-sided, Holm-adjusted within Tarone's
    family; ``None`` when the split could never reach the level (out of the family)."""
    family: int = 1
    """How many scaffolds the gate's family held."""
    withheld: str | None = None
    """Why neither run can be called better (a run lost answers the other gave, is
    INCOMPLETE, or asked a selection of cases): the figures stand, no verdict is claimed,
    and the gate reads no rise and no "no drop" from them; ``None`` when a verdict holds."""
    selected: bool = False
    """The pair's cases are a selection (one run reruns the other's failures, or asked
    cases picked by name or tier the other did not): a drop on them is as much the
    selection's as a rise, so not even a significant one is a verdict."""
    baseline: str | None = None
    """The earlier run this scaffold was compared with, where the previous run had it
    INCOMPLETE (an outage): the latest comparable one that had it whole. ``None``: the
    previous run, as every other scaffold."""
    gated: PairedComparison | None = None
    """Where a run lost answers the other gave: the comparison the gate tests, those lost
    answers counted against a drop (the earlier run's as failures, the later run's as
    passes: :func:`~verification.reports.regressions.against_drop`); ``None``: the
    shared cases' own."""

    @property
    def tested(self) -> PairedComparison:
        """The comparison the regression gate tests (:attr:`gated`, else the row's)."""
        return self.gated or self.comparison

    @property
    def significant(self) -> bool:
        """A significant drop: what the regression gate calls a regression (a drop that
        holds whatever the answers either run lost would have been)."""
        dropped = self.tested.only_a > self.tested.only_b
        return dropped and self.p_gate is not None and self.p_gate <= ALPHA

    @property
    def rose(self) -> bool:
        """A significant rise (two-sided, Holm-corrected)."""
        c = self.comparison
        return self.withheld is None and c.only_b > c.only_a and c.in_reach and self.p_holm < ALPHA

    @property
    def dropped(self) -> bool:
        """The later run (B) scored lower on more of the shared cases."""
        return self.comparison.only_a > self.comparison.only_b

    @property
    def power(self) -> float:
        """The gate's power to catch a drop from 0.90 to 0.80 at this many shared cases,
        at the level Holm's first step would test it at (in the family, as a drop puts it)."""
        return drop_power(self.comparison.shared, ALPHA / (self.family + (self.p_gate is None)))

    def verdict(self, a: str = "A", b: str = "B") -> str:
        said = self.comparison.verdict(self.p_holm, a=a, b=b)
        if self.withheld is None:
            return said
        if (
            not self.selected
            and self.dropped
            and self.comparison.in_reach
            and self.p_holm < ALPHA
            and self.significant
        ):
            # B failed significantly more of the cases both answered, and still does with
            # what either lost counted against it: the regression gate fires; say both.
            return f"{said} ({self.withheld})"
        return f"not comparable: {self.withheld}"

    def gate_verdict(self) -> str:
        """What the regression gate says of this scaffold (a significant drop that holds
        with what either run lost counted against it is one whatever else they lost)."""
        if self.significant:
            return "significant drop" + self._lost_counted()
        if self.withheld is not None:
            return f"no verdict: {self.withheld}"
        if not self.dropped:
            return "no drop"
        if self.p_gate is None:
            return OUT_OF_REACH
        return "drop within the noise at this n"

    def _lost_counted(self) -> str:
        """The split the gate tested, where lost answers changed it."""
        if self.gated is None:
            return ""
        return (
            f" (with the answers lost counted against it: {self.gated.only_a} vs "
            f"{self.gated.only_b} of {self.gated.shared})"
        )


@dataclass(frozen=True)
class RunComparison:
    """This run against the previous comparable one."""

    previous_run_id: str
    status_changes: list[StatusChangeRow]
    """Regressions first, then improvements, then changes to or from INCOMPLETE."""
    paired: list[PairedRow] = field(default_factory=list)
    """Every scaffold both runs hold, on the shared cases (previous = A, this run = B)."""
    edited: list[str] = field(default_factory=list)
    """Scaffolds whose file changed since the previous run (its sha256): a change in their
    rate is the edit's as much as the model's."""

    @property
    def rate_drops(self) -> list[PairedRow]:
        """Scaffolds that passed fewer shared cases than before, significant or not."""
        return [row for row in self.paired if row.dropped]

    @property
    def regressions(self) -> list[str]:
        """Scaffolds that regressed: a significant drop on the shared cases (a lower status
        without one is a change within the noise, not a regression)."""
        return [row.scaffold for row in self.paired if row.significant]


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
    lift: PairLift | None = None
    """In a run of a ``--baseline none`` pair: what the scaffold adds over no scaffold."""
    shared: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)
    """What reporters fold from the context and read alike (the run's summary, for
    ``summary.json`` and the page), folded by the first that asks."""


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


def write_report(path: Path, text: str) -> Path:
    """Write ``text`` to the report file ``path`` without going through what is there: a
    temporary file beside it is renamed over it, so a symbolic link there is replaced, never
    followed out of the folder, and a reader sees the old file or the new one. A FIFO (whose
    open would wait for a reader for ever), a device or a folder there is refused with a
    :class:`ConfigurationError` naming it, as is a write that fails. Returns ``path``."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise ConfigurationError(f"{path}: cannot be used ({exc.strerror or exc})") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise ConfigurationError(f"{path} is a folder: give a file's name to write there")
    if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise ConfigurationError(f"{path}: not a regular file, so nothing is written there")
    temporary = path.with_name(f".{path.name}.{os.urandom(4).hex()}.tmp")
    try:
        with temporary.open("x", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise ConfigurationError(f"{path}: cannot be written ({exc.strerror or exc})") from None
    return path


INFRA_CASE = "…"
"""What stands for a case's id in a reason :func:`infra_reasons` groups."""
_DRAWN_INDEX = re.compile(rf" case \d+ at size(?= \d+ \({INFRA_CASE}\))")


def infra_reasons(results: ScaffoldResults) -> list[tuple[str, list[str]]]:
    """The infrastructure errors of ``results`` grouped by reason, the most frequent first:
    each reason (its case's id replaced by :data:`INFRA_CASE`, so one cause reads as one
    reason) with the id of each answer's case (a case's samples each). Forty cases a replay
    file lacks are one reason, said once, not forty messages."""
    groups: dict[str, list[str]] = {}
    for result in results.results:
        if result.outcome == "infra_error":
            case_id = result.test_case.id
            reason = result.validation_message or "no reason recorded"
            if case_id in reason:
                # A case a plugin could not draw is named by its index too (drawing.py's
                # "simple case 3 at size 5 (<id>)"): one cause of a tier's cases, one reason.
                reason = reason.replace(case_id, INFRA_CASE)
                reason = _DRAWN_INDEX.sub(f" case {INFRA_CASE} at size", reason)
            groups.setdefault(reason, []).append(case_id)
    return sorted(groups.items(), key=lambda group: -len(group[1]))
