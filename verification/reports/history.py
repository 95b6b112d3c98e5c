"""History from the run directories themselves: no shared index that runs could race on.

Every run leaves ``runs/<id>/manifest.json`` (what was asked, of whom), ``results.jsonl``
(every answer) and ``reports/summary.json`` (its certification). History is read from those
files each time it is needed; a run directory that is damaged or half-written (a run still
going, a disk that filled up) is skipped with a warning naming it, never a stop.

Comparability is decided in one place, :func:`comparability`: two runs are comparable when
:data:`COMPARABLE_FIELDS` match (a field a manifest does not have yet reads as ``None`` on
both sides, so a field added later, such as thinking settings, only needs its name added
there). A run is a *baseline* only when most of its answers were asked live
(:data:`MIN_LIVE_SHARE`): a run answered from the response cache says nothing new about the
model. A dry run is never a baseline for a model run: their providers differ.
"""

from __future__ import annotations

import contextlib
import json
import logging
import stat
from collections.abc import Collection, Iterable, Iterator, Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any, get_args

from pydantic import ValidationError

from verification.cases import TIERS, printable
from verification.catalog import default_catalog
from verification.certify.answers import check_journal
from verification.certify.results import ScaffoldResults, Status
from verification.certify.uncertified import UNCERTIFIED
from verification.errors import JournalError, StoredFileError
from verification.reports.base import RunEntry, manifest_field
from verification.store.manifests import RunManifest, read_manifest_file, run_manifests
from verification.store.records import AttemptRecord
from verification.store.run_ids import is_run_id
from verification.store.stored_files import read_stored_json, validation_problems
from verification.store.summary_file import MAX_SUMMARY_BYTES, RunSummary

__all__ = [
    "COMPARABLE_FIELDS",
    "MIN_LIVE_SHARE",
    "SHOWN_VALUE",
    "as_json_lines",
    "by_scaffold",
    "case_scores",
    "comparability",
    "entry_outcomes",
    "entry_results",
    "filter_entries",
    "live_share",
    "previous_comparable",
    "read_entry",
    "read_summary",
    "recent_comparable",
    "scan_runs",
    "selection",
    "status_rates",
    "summaries_remembered",
]

logger = logging.getLogger(__name__)

COMPARABLE_FIELDS = (
    "provider",
    "model",
    "level",
    "cases",
    "samples",
    "seed",
    "seed_sha256",
    "sizes",
    "thinking_budget",
    "variant",
    "answer",
)
"""What must match for two runs to be compared (see :func:`comparability`): ``answer`` is
the answer mode (``--answer``), traces or programs, whose pass rates measure different
things (a manifest that names none asked for traces)."""
MIN_LIVE_SHARE = 0.5
"""A baseline must have more than this share of its first answers asked live."""


SHOWN_VALUE = 120
"""The most characters of a compared field's value a note shows."""
_UNSET = {"model": "none (a dry run)", "variant": "the catalog's scaffold"}
"""What a compared field that a manifest leaves unset (``None``) means, where not "none"."""


def _said(name: str, value: Any) -> str:
    """A compared field's value in words, not Python's: what its ``None`` means, a list as
    ``8,16``, swept sizes as ``kmp at 8,16``."""
    if value is None:
        return _UNSET.get(name, "none")
    if isinstance(value, list):
        return ",".join(str(item) for item in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{key} at {_said(name, item)}" for key, item in value.items()) or "none"
    return str(value)


def comparability(a: RunManifest, b: RunManifest, *, ignoring: Collection[str] = ()) -> list[str]:
    """Why two runs are not comparable (``"seed 7 != 42"``); empty when they are. The
    fields ``ignoring`` names are not compared (a ``--baseline`` pair's own ``variant``)."""
    reasons = []
    if a.model_runs and b.run_id in a.model_runs.values():
        reasons.append("asked together (another model of the same invocation)")
    for name in COMPARABLE_FIELDS:
        left, right = manifest_field(a, name), manifest_field(b, name)
        if isinstance(left, dict) or isinstance(right, dict):
            left, right = _differing(left, right, a.scaffolds.keys() & b.scaffolds.keys())
        if left != right and name not in ignoring:
            # An edited manifest's value is shown, never a wall of it or its control codes.
            shown = [printable(_said(name, side), SHOWN_VALUE) for side in (left, right)]
            reasons.append(f"{name} {shown[0]} != {shown[1]}")
    return reasons


def _differing(left: Any, right: Any, shared: Collection[str]) -> tuple[Any, Any]:
    """Two runs' per-scaffold values (the sizes each swept) as they bear on the scaffolds
    both hold, and only where they differ: a scaffold added to the catalog made every
    earlier run of it incomparable, and the gate silent for all the others (a helper's
    hunt), and a note cut short showed both sides alike."""
    if not all(isinstance(side, dict) or side is None for side in (left, right)):
        return left, right  # an edited manifest's value of another kind: compared as it is
    a, b = left or {}, right or {}
    keys = sorted(key for key in a.keys() | b.keys() if key in shared and a.get(key) != b.get(key))
    return (
        {key: a[key] for key in keys if key in a} or None,
        {key: b[key] for key in keys if key in b} or None,
    )


_STATUSES = frozenset(get_args(Status)) | {UNCERTIFIED}


_Signature = tuple[int, int, int, int]
_REMEMBERED: ContextVar[dict[Path, tuple[_Signature, RunSummary]] | None] = ContextVar(
    "summaries_remembered", default=None
)


@contextlib.contextmanager
def summaries_remembered() -> Iterator[None]:
    """While it lasts, a ``summary.json`` read again unchanged (the same file, size, times)
    is the summary read before: a run's reports read every earlier run's summary for their
    history, then again for the results folder's index. A file that was not a summary is
    read (and warned about) again each time, as before."""
    token = _REMEMBERED.set({})
    try:
        yield
    finally:
        _REMEMBERED.reset(token)


def read_summary(run_dir: Path) -> RunSummary | None:
    """A run's ``summary.json``, validated (a file anyone may have edited: its run id and
    statuses reach new reports, so they must be what a run writes); ``None``, with a
    warning naming the file unless it is simply missing, when it is not a summary."""
    path = run_dir / "reports" / "summary.json"
    remembered = _REMEMBERED.get()
    signature = None if remembered is None else _signature(path)
    if remembered is not None and signature is not None:
        seen = remembered.get(path)
        if seen is not None and seen[0] == signature:
            return seen[1]
    summary = _read_summary(path)
    if remembered is not None and signature is not None and summary is not None:
        remembered[path] = (signature, summary)
    return summary


def _signature(path: Path) -> _Signature | None:
    """What changes when the regular file ``path`` is written or replaced (``None``: no
    regular file there, read each time). Not its ctime: publishing a run's reports links
    its files and removing an older publication unlinks them, which changes the ctime of a
    file that is the same file still."""
    try:
        status = path.lstat()
    except OSError:
        return None
    if not stat.S_ISREG(status.st_mode):
        return None
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)


def _read_summary(path: Path) -> RunSummary | None:
    try:
        summary = RunSummary.model_validate(read_stored_json(path, max_bytes=MAX_SUMMARY_BYTES))
    except FileNotFoundError:
        return None
    except (OSError, StoredFileError) as exc:
        logger.warning("earlier summary skipped: %s", exc)
        return None
    except ValidationError as exc:  # one line, not pydantic's dump (hunt hh)
        logger.warning(
            "earlier summary skipped: %s: not a run summary (%s)", path, validation_problems(exc)
        )
        return None
    strange = [s.status for s in summary.scaffolds.values() if s.status not in _STATUSES]
    if not is_run_id(summary.run_id) or strange:
        logger.warning("earlier summary skipped: %s: its run id or a status is not one", path)
        return None
    if summary.run_id != path.parent.parent.name:  # another run's, copied in (hunt hh)
        logger.warning(
            "earlier summary skipped: %s: it is run %s's summary, not this run's",
            path,
            printable(summary.run_id, 80),
        )
        return None
    return summary


def read_entry(run_dir: Path) -> RunEntry:
    """The run in ``run_dir`` (:class:`StoredFileError` when its manifest is damaged,
    ``FileNotFoundError`` when it has none)."""
    manifest = read_manifest_file(run_dir / "manifest.json")
    manifest = manifest.model_copy(update={"run_id": run_dir.name})
    return RunEntry(run_dir=run_dir, manifest=manifest, summary=read_summary(run_dir))


def scan_runs(results_dir: Path) -> list[RunEntry]:
    """Every readable run under ``results_dir/runs``, oldest first; each damaged one is
    skipped with a warning naming it (:func:`~verification.store.manifests.run_manifests`)."""
    runs = results_dir / "runs"
    entries = [
        RunEntry(runs / m.run_id, m, read_summary(runs / m.run_id))
        for m in run_manifests(results_dir)
    ]
    return sorted(entries, key=lambda entry: (entry.manifest.created_at, entry.run_id))


def live_share(records: list[AttemptRecord]) -> float:
    """The share of first answers (first attempt of each case and sample) not served from
    the response cache; 0.0 when there is none."""
    first = {(r.scaffold, r.case_id, r.epoch): r for r in records if r.attempt == 1}
    answered = [r for r in first.values() if r.outcome != "infra_error"]
    if not answered:
        return 0.0
    return sum(r.source != "cache" for r in answered) / len(answered)


def selection(manifest: RunManifest) -> str | None:
    """Why a run's cases are a selection, not its plan's (``None``: its plan's): its
    failures rerun (``--rerun-failed``), cases picked by name (``--case``, ``-k``) or some
    tiers (``--tier``). Such a run is no baseline, and ``compare`` claims no verdict on it:
    a selection by outcome favours the rerun by chance alone (regression to the mean)."""
    if manifest.reruns:
        return f"asked only the cases run {manifest.reruns} failed (--rerun-failed)"
    if manifest.case_filter:
        return "asked only cases picked by name (--case or -k)"
    if not set(manifest.tiers) >= set(TIERS):
        return "asked only some tiers (--tier)"
    return None


def _is_baseline(entry: RunEntry) -> bool:
    manifest = entry.manifest
    if manifest.shard is not None:  # a slice of a plan: its merged run may be one
        return False
    # A two-case smoke run as the baseline would leave a gate no power to fire.
    if selection(manifest) is not None:
        return False
    if entry.summary is None:
        return False
    if not any(s.from_cache for s in entry.summary.scaffolds.values()):
        return any(s.n for s in entry.summary.scaffolds.values())  # all live: no journal read
    try:
        return live_share(entry.records()) > MIN_LIVE_SHARE
    except (OSError, JournalError) as exc:
        logger.warning("history: %s: journal unreadable (%s): skipped", entry.run_dir, exc)
        return False


def _earlier_comparable(results_dir: Path, manifest: RunManifest) -> Iterator[RunEntry]:
    """Comparable baselines created before ``manifest``'s run, newest first."""
    for entry in reversed(scan_runs(results_dir)):
        if entry.run_id == manifest.run_id or entry.manifest.created_at >= manifest.created_at:
            continue
        if not comparability(entry.manifest, manifest) and _is_baseline(entry):
            yield entry


def previous_comparable(results_dir: Path, manifest: RunManifest) -> RunEntry | None:
    """The latest earlier run comparable with ``manifest``'s and fit to be a baseline."""
    return next(_earlier_comparable(results_dir, manifest), None)


def recent_comparable(results_dir: Path, manifest: RunManifest, limit: int) -> list[RunEntry]:
    """Up to ``limit`` earlier comparable baselines, oldest first (a trend's points)."""
    found: list[RunEntry] = []
    for entry in _earlier_comparable(results_dir, manifest):
        if len(found) == limit:
            break
        found.append(entry)
    return found[::-1]


def case_scores(results: ScaffoldResults) -> dict[str, float]:
    """Case id -> its score: the share of its counted samples that passed at the first
    attempt (0 or 1 with one sample; infrastructure errors are no answer). Paired tests
    pair these, so every sample counts, not only the first."""
    tallies: dict[str, tuple[int, int]] = {}
    for r in results.results:
        if r.outcome != "infra_error":
            good, seen = tallies.get(r.test_case.id, (0, 0))
            tallies[r.test_case.id] = (good + r.passed, seen + 1)
    return {case: good / seen for case, (good, seen) in tallies.items()}


def by_scaffold(records: Iterable[AttemptRecord]) -> dict[str, list[AttemptRecord]]:
    """Each scaffold's records, in journal order. :meth:`ScaffoldResults.from_records`
    folds only its scaffold's records of a journal: handed those alone, it walks the
    journal once for all the scaffolds, not once for each."""
    grouped: dict[str, list[AttemptRecord]] = {}
    for record in records:
        grouped.setdefault(record.scaffold, []).append(record)
    return grouped


def entry_results(entry: RunEntry) -> dict[str, ScaffoldResults]:
    """A run's per-scaffold results, folded from its journal; a journal ``report`` refuses
    is refused here too (:func:`~verification.certify.answers.check_journal`)."""
    journal = entry.records()
    check_journal(entry.manifest, journal, default_catalog())
    records = by_scaffold(journal)
    return {
        name: ScaffoldResults.from_records(
            name, records.get(name, []), planned=len(scaffold.case_ids)
        )
        for name, scaffold in entry.manifest.scaffolds.items()
    }


def entry_outcomes(entry: RunEntry) -> dict[str, dict[str, float]]:
    """Scaffold -> :func:`case_scores` of an earlier run."""
    return {name: case_scores(r) for name, r in entry_results(entry).items()}


def as_json_lines(entries: list[RunEntry]) -> str:
    """``history --json``: a JSON array of :meth:`RunEntry.as_json`."""
    return json.dumps([entry.as_json() for entry in entries], indent=2) + "\n"


def filter_entries(
    entries: list[RunEntry], *, model: str | None, scaffold: str | None
) -> list[RunEntry]:
    """Runs of ``model`` (the model asked) that certified ``scaffold``, when given."""
    chosen = []
    for entry in entries:
        if model is not None and manifest_field(entry.manifest, "model") != model:
            continue
        if scaffold is not None and scaffold not in entry.manifest.scaffolds:
            continue
        chosen.append(entry)
    return chosen


def status_rates(entry: RunEntry, scaffold: str | None) -> Mapping[str, tuple[str, float | None]]:
    """Scaffold -> (status, pass rate) from the run's summary (only ``scaffold``, if given);
    no rate where nothing was counted (hunt ag: "0.0%" of no answer read as all wrong)."""
    if entry.summary is None:
        return {}
    return {
        name: (s.status, s.pass_rate if s.n else None)
        for name, s in entry.summary.scaffolds.items()
        if scaffold is None or name == scaffold
    }
