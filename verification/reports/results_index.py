"""``<results>/index.html``: one static page listing every run of a results folder.

Each run is a row (newest first): its id, linked to its page when the page is there, when it
started, its model, provider and level, each scaffold's status and pass rate, and the
comparison pages (``compare --html``) it is part of; a table of every comparison page
follows. ``view`` with no run writes it and opens it, and every run's reports rewrite it
(:func:`write_results_index`), so it is current after each run.

Everything on it was read back from files anyone may have edited: each manifest and summary
is read bounded and validated (:func:`~verification.store.manifests.read_manifest_file`,
:func:`~verification.reports.history.read_summary`), a run folder that cannot be read is a
row saying so (never a stop), every text is cut and its unprintable characters escaped, and
the template escapes it all. The page runs no script and loads nothing (a
Content-Security-Policy allows only its own style, by hash), so it opens from disk.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from markupsafe import Markup

from verification.cases import printable
from verification.errors import ConfigurationError, StoredFileError
from verification.reports.base import write_report
from verification.reports.history import read_summary
from verification.reports.html import HTML_REPORT_NAME, page_style, page_template, run_model
from verification.store.locks import exclusive_lock
from verification.store.manifests import RunManifest, read_manifest_file
from verification.store.paths import leads_out
from verification.store.run_ids import is_run_id
from verification.store.summary_file import RunSummary

__all__ = [
    "INDEX_NAME",
    "MAX_LISTED",
    "Comparison",
    "IndexRow",
    "comparisons",
    "index_rows",
    "render_index",
    "write_results_index",
]

logger = logging.getLogger(__name__)

INDEX_NAME = "index.html"
"""The index's name in the results folder (beside ``runs/`` and ``reports/``)."""
MAX_LISTED = 500
"""Runs (newest first) and comparison pages listed at most: each run is two files read, and
a page of thousands of rows is read by nobody; the page says how many more there are."""
_TEXT = 200
"""Characters of any one text read back (a model's name, a reason) shown at most."""
_LOCK = ".index.lock"
"""In the results folder: held while the index is written, so runs that finish together
take turns and the last one to write has read every summary written before it."""


@dataclass(frozen=True)
class Comparison:
    """A comparison page under ``comparisons/<A>-vs-<B>/``."""

    run_a: str
    run_b: str
    href: str


@dataclass(frozen=True)
class IndexRow:
    """One run as the index lists it."""

    run_id: str
    started: str = ""
    """When the run started, to the second in UTC, as the page shows it."""
    created: str = ""
    """When the run started as its manifest says (runs are ordered by it)."""
    model: str = ""
    provider: str = ""
    level: str = ""
    statuses: tuple[tuple[str, str, str], ...] = ()
    """Each scaffold's (name, status, pass rate) from its summary."""
    page: str | None = None
    """The run's page, relative to the index; ``None`` when it is not there."""
    note: str = ""
    """What is missing: the page (pruned), the summary (not reported, or damaged)."""
    broken: str = ""
    """Why the run folder cannot be read (its manifest missing or damaged); empty if it can."""
    compared: tuple[Comparison, ...] = field(default=())

    @property
    def counts(self) -> str:
        """The statuses counted (``CERTIFIED 3, FAILED 1``), for a run of many scaffolds."""
        counted = Counter(status for _, status, _ in self.statuses)
        return ", ".join(f"{status} {n}" for status, n in sorted(counted.items()))


def _text(value: object) -> str:
    return printable(str(value), _TEXT)


def _when(created_at: str) -> str:
    try:
        moment = datetime.fromisoformat(created_at)
        if moment.tzinfo is not None:
            moment = moment.astimezone(UTC)
    except (ValueError, OverflowError):  # an edited manifest (or a moment past year 9999)
        return _text(created_at)
    return moment.strftime("%Y-%m-%d %H:%M:%S") + (" UTC" if moment.tzinfo else "")


def _page(run_dir: Path, results_dir: Path) -> str | None:
    page = run_dir / "reports" / HTML_REPORT_NAME
    if page.is_file() and not leads_out(results_dir, page):
        return f"runs/{run_dir.name}/reports/{HTML_REPORT_NAME}"
    return None


def _row(run_dir: Path, results_dir: Path, compared: tuple[Comparison, ...]) -> IndexRow:
    name = run_dir.name
    try:
        manifest = read_manifest_file(run_dir / "manifest.json")
    except FileNotFoundError:
        reason = "no manifest.json (a run whose provider could not start, or no run)"
        return IndexRow(name, broken=reason, compared=compared)
    except (OSError, StoredFileError) as exc:
        where = str(exc).replace(str(run_dir), f"runs/{name}")
        return IndexRow(name, broken=_text(where), compared=compared)
    summary_file = run_dir / "reports" / "summary.json"
    summary = read_summary(run_dir)
    page = _page(run_dir, results_dir)
    notes = []
    if summary is None:
        notes.append(
            "summary.json damaged" if summary_file.exists() else "not reported (still going?)"
        )
    if page is None:
        notes.append(f"no page: `report {name}` writes it")
    return IndexRow(
        run_id=name,
        started=_when(manifest.created_at),
        created=manifest.created_at,
        model=_text(run_model(manifest)),
        provider=_text(manifest.provider.get("provider", "unknown")),
        level=_text(manifest.level or "-")
        + ("" if summary is None or summary.certifies else " (certifies nothing)"),
        statuses=_statuses(manifest, summary),
        page=page,
        note="; ".join(notes),
        compared=compared,
    )


def _statuses(
    manifest: RunManifest, summary: RunSummary | None
) -> tuple[tuple[str, str, str], ...]:
    if summary is None:
        return tuple((_text(name), "not reported", "") for name in manifest.scaffolds)
    return tuple(
        (_text(name), s.status, f"{100 * s.pass_rate:.1f}% of {s.n}" if s.n else "none counted")
        for name, s in summary.scaffolds.items()
    )


def _run_folders(results_dir: Path) -> list[Path]:
    """Every run folder under ``runs/``, newest first (a run id starts with its time)."""
    runs = results_dir / "runs"
    try:
        found = [p for p in runs.iterdir() if is_run_id(p.name) and p.is_dir()]
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise ConfigurationError(f"{runs}: cannot be listed ({exc.strerror or exc})") from None
    return sorted(found, key=lambda p: p.name, reverse=True)


def comparisons(results_dir: Path) -> list[Comparison]:
    """Every comparison page under ``comparisons/`` whose folder names two runs, newest B
    first (a folder of another name, or without its page, is no comparison)."""
    folder = results_dir / "comparisons"
    try:
        names = sorted((p.name for p in folder.iterdir()), reverse=True)
    except OSError:
        return []
    found = []
    for name in names:
        run_a, _, run_b = name.partition("-vs-")
        page = folder / name / HTML_REPORT_NAME
        if not (is_run_id(run_a) and is_run_id(run_b)) or not page.is_file():
            continue
        if leads_out(results_dir, page):
            continue
        found.append(Comparison(run_a, run_b, f"comparisons/{name}/{HTML_REPORT_NAME}"))
    found.sort(key=lambda c: (c.run_b, c.run_a), reverse=True)
    return found


def index_rows(results_dir: Path) -> tuple[list[IndexRow], int]:
    """The newest :data:`MAX_LISTED` runs of ``results_dir`` as rows, and how many older
    runs are not listed."""
    folders = _run_folders(results_dir)
    pages = comparisons(results_dir)
    # A run id starts with its second; runs started within one second are ordered by when
    # they started, so every run of the last second listed is read before the cut.
    last = folders[MAX_LISTED - 1].name[:16] if len(folders) > MAX_LISTED else ""
    rows: list[IndexRow] = []
    for run_dir in folders:
        if len(rows) >= MAX_LISTED and run_dir.name[:16] < last:
            break
        compared = tuple(c for c in pages if run_dir.name in (c.run_a, c.run_b))
        rows.append(_row(run_dir, results_dir, compared))
    rows.sort(key=lambda row: (row.run_id[:16], row.created, row.run_id), reverse=True)
    return rows[:MAX_LISTED], max(len(folders) - MAX_LISTED, 0)


def render_index(results_dir: Path) -> str:
    """The index page of ``results_dir``."""
    rows, older = index_rows(results_dir)
    pages = comparisons(results_dir)
    style, csp = page_style()
    return page_template("runs.html.j2").render(
        csp=csp,
        style=Markup(style),
        folder=_text(results_dir.resolve().name),
        rows=rows,
        older=older,
        comparisons=pages[:MAX_LISTED],
        more_comparisons=max(len(pages) - MAX_LISTED, 0),
        broken=sum(bool(row.broken) for row in rows),
    )


def write_results_index(results_dir: Path) -> Path:
    """Write ``<results_dir>/index.html`` (under a lock, runs finishing together taking
    turns); returns it. A :class:`ConfigurationError` when it cannot be written."""
    path = results_dir / INDEX_NAME
    if path.is_dir() and not path.is_symlink():
        # The index's own name: "give a file's name" (write_report's words) asked for what
        # nobody had given (hunt hh).
        raise ConfigurationError(
            f"{path} is a folder where the results index goes: move it away, and the index "
            "is written there"
        )
    try:
        results_dir.mkdir(parents=True, exist_ok=True)
        with exclusive_lock(results_dir / _LOCK):
            return write_report(path, render_index(results_dir))
    except OSError as exc:
        raise ConfigurationError(f"{path}: cannot be written ({exc.strerror or exc})") from None
