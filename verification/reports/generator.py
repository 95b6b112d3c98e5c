"""Markdown and JSON certification reports, rendered with Jinja2 from results.

The two outputs are reporters (:class:`MarkdownReporter`, :class:`SummaryJsonReporter`);
:func:`write_run_reports` runs every reporter of a run, then publishes the run's reports to
``<output>/reports`` in one atomic step. :class:`ReportGenerator` is the API reference's
facade over the same rendering.

Model text is data: every model-written string lands in a code fence longer than any run of
backticks it holds, or in a table cell with ``|``, ``<`` and line breaks escaped, so no reply
can break a report's layout.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, get_args

import jinja2
from pydantic import ValidationError

from verification.cases import is_scaffold_name
from verification.costs import ScaffoldCost, run_costs, total_cost
from verification.envelope import CASES_PER_SIZE
from verification.errors import ConfigurationError, StoredFileError
from verification.journal import (
    RunManifest,
    RunPaths,
    ScaffoldEntry,
    exclusive_lock,
    is_run_id,
    read_journal,
    run_manifests,
)
from verification.reports.base import ReportContext, Reporter, status_changes
from verification.reports.summary import MAX_SUMMARY_BYTES, RunSummary, StatusChange, build_summary
from verification.results import ScaffoldResults, Status, deciding_thresholds
from verification.stored_files import read_stored_json

__all__ = [
    "DEFAULT_REPORTERS",
    "MarkdownReporter",
    "ReportGenerator",
    "SummaryJsonReporter",
    "md_cell",
    "md_code",
    "md_fence",
    "publish_latest",
    "scaffold_report_path",
    "write_run_reports",
]

SHOWN_RESPONSE_CHARS = 20_000
_MARKER = ".verification-reports"
"""Marks a folder the harness wrote, so that only such a folder is ever replaced."""
logger = logging.getLogger(__name__)
_MARKDOWN_PUNCTUATION = re.compile(r"[\\\[\]()!*_~#|>]")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Bidirectional controls: an override from a model name or reply could make the text
that follows it read backwards (a FAILED shown as a DELIAF, a number reversed)."""


def _printable(text: str) -> str:
    """Control characters dropped; bidirectional controls and lone surrogates (not
    Unicode) written as visible escapes (``\\u202e``)."""
    text = _CONTROL.sub("", text.encode("utf-8", "backslashreplace").decode("utf-8"))
    return _BIDI.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def md_cell(value: object, limit: int = 300) -> str:
    """A value made safe for one Markdown table cell or line."""
    text = _printable(str(value)).replace("\r", " ").replace("\n", " ")
    text = text.replace("`", "'").replace("<", "&lt;")
    # Backslash-escape what Markdown could turn into links, images, emphasis or columns.
    text = _MARKDOWN_PUNCTUATION.sub(r"\\\g<0>", text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def md_code(value: object, limit: int = 300) -> str:
    """A value as an inline code span (safe in a table cell: ``|`` escaped)."""
    text = _printable(str(value)).replace("\r", " ").replace("\n", " ").replace("`", "'")
    text = text if len(text) <= limit else text[: limit - 3] + "..."
    return "`" + text.replace("|", "\\|") + "`"


def md_fence(text: str, info: str = "") -> str:
    """``text`` in a fence no line of it can close (longer than its longest backtick run)."""
    body = _printable(text)
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    marker = "`" * max(3, longest + 1)
    return f"{marker}{info}\n{body}\n{marker}"


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _num(value: float) -> str:
    """A score: whole when it is, else to two decimals (a mean of samples)."""
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


def _deciding(status: str) -> str:
    return " or ".join(_pct(t) for t in deciding_thresholds(status))


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("verification.reports", "templates"),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # Markdown; escaping is done by md_cell and md_fence
        trim_blocks=False,
        keep_trailing_newline=True,
    )
    env.globals.update(
        pct=_pct,
        num=_num,
        deciding=_deciding,
        per_size=CASES_PER_SIZE,
        cell=md_cell,
        code=md_code,
        fence=md_fence,
        shown_chars=SHOWN_RESPONSE_CHARS,
    )
    env.filters["cell"] = md_cell
    env.filters["code"] = md_code
    env.policies["json.dumps_kwargs"] = {"sort_keys": False, "ensure_ascii": False}
    return env


def scaffold_report_path(output_dir: Path, scaffold: str) -> Path:
    """Where ``<scaffold>.md`` goes: inside ``output_dir`` whatever a stored file names the
    scaffold (a name that is not one is refused, never followed as a path)."""
    if not is_scaffold_name(scaffold):
        raise ConfigurationError(
            f"{scaffold!r:.80} is not a scaffold name: no report is named after it"
        )
    return output_dir / f"{scaffold}.md"


def summary_data(manifest: RunManifest, results: Sequence[ScaffoldResults]) -> dict[str, Any]:
    """The run's summary as JSON data (``summary.json``; its shape is :class:`RunSummary`)."""
    return build_summary(manifest, results).model_dump(mode="json")


def _summary_data_with_changes(
    manifest: RunManifest,
    results: Sequence[ScaffoldResults],
    previous: dict[str, Any] | None,
    costs: Mapping[str, ScaffoldCost] | None = None,
) -> tuple[dict[str, Any], list[tuple[str, str, str]]]:
    summary = build_summary(manifest, results, costs)
    changes = status_changes({n: s.status for n, s in summary.scaffolds.items()}, previous)
    if previous:
        summary.previous_run_id = _text_or_none(previous.get("run_id"))
        summary.status_changes = [StatusChange(scaffold=n, before=b, now=a) for n, b, a in changes]
    return summary.model_dump(mode="json"), changes


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def render_scaffold_report(
    manifest: RunManifest, results: ScaffoldResults, cost: ScaffoldCost | None = None
) -> str:
    """The Markdown report of one scaffold."""
    return _environment().get_template("scaffold.md.j2").render(r=results, m=manifest, cost=cost)


def render_summary(
    manifest: RunManifest,
    results: Sequence[ScaffoldResults],
    previous: dict[str, Any] | None,
    costs: Mapping[str, ScaffoldCost] | None = None,
) -> str:
    """The Markdown summary of a run."""
    _, changes = _summary_data_with_changes(manifest, results, previous, costs)
    return (
        _environment()
        .get_template("summary.md.j2")
        .render(
            m=manifest,
            results=results,
            totals=dict(Counter(r.status for r in results)),
            previous=previous,
            changes=changes,
            cost=total_cost(costs, manifest.cost_basis) if costs else None,
        )
    )


class MarkdownReporter:
    """``<scaffold>.md`` for each scaffold and ``summary.md``."""

    name = "markdown"

    def write(self, context: ReportContext) -> list[Path]:
        context.output_dir.mkdir(parents=True, exist_ok=True)
        written = []
        for results in context.results.values():
            path = scaffold_report_path(context.output_dir, results.scaffold)
            cost = context.costs.get(results.scaffold)
            path.write_text(
                render_scaffold_report(context.manifest, results, cost), encoding="utf-8"
            )
            written.append(path)
        summary = context.output_dir / "summary.md"
        summary.write_text(
            render_summary(
                context.manifest,
                list(context.results.values()),
                context.previous,
                context.costs,
            ),
            encoding="utf-8",
        )
        return [*written, summary]


class SummaryJsonReporter:
    """``summary.json``: the run's certification as data."""

    name = "summary-json"

    def write(self, context: ReportContext) -> list[Path]:
        context.output_dir.mkdir(parents=True, exist_ok=True)
        data, _ = _summary_data_with_changes(
            context.manifest, list(context.results.values()), context.previous, context.costs
        )
        path = context.output_dir / "summary.json"
        path.write_text(json.dumps(data, indent=2, allow_nan=False) + "\n", encoding="utf-8")
        return [path]


DEFAULT_REPORTERS: tuple[Reporter, ...] = (MarkdownReporter(), SummaryJsonReporter())
"""What every run writes."""


class ReportGenerator:
    """Writes ``<scaffold>.md``, ``summary.md`` and ``summary.json`` into ``output_dir``."""

    def __init__(
        self,
        output_dir: str | Path = "verification_results/reports",
        *,
        manifest: RunManifest | None = None,
    ) -> None:
        self.output_dir = Path(output_dir)
        self.manifest = manifest

    def _manifest_for(self, results: Sequence[ScaffoldResults]) -> RunManifest:
        if self.manifest is not None:
            return self.manifest
        # Reports built outside a run (the API reference's usage): describe what we know.
        label = next((r.run_label for r in results if r.run_label), None)
        return RunManifest(
            run_id="ad-hoc",
            created_at="",
            provider={"provider": "unknown" if label is None else label.lower()},
            dry_run=label is not None,
            run_label=label,
            model_requested="unknown",
            settings={},
            seed=0,
            cases=0,
            samples=1,
            tiers=[],
            template_version="",
            code_version="",
            scaffolds={
                r.scaffold: ScaffoldEntry(file="unknown", sha256="unknown", case_ids=[])
                for r in results
            },
        )

    def render_scaffold_report(self, results: ScaffoldResults) -> str:
        """The Markdown report of one scaffold."""
        return render_scaffold_report(self._manifest_for([results]), results)

    def generate_scaffold_report(self, results: ScaffoldResults) -> Path:
        """Write ``<scaffold>.md``; returns its path."""
        self.output_dir.mkdir(parents=True, exist_ok=True)
        path = scaffold_report_path(self.output_dir, results.scaffold)
        path.write_text(self.render_scaffold_report(results), encoding="utf-8")
        return path

    def generate_summary_report(
        self, all_results: Sequence[ScaffoldResults], *, previous: dict[str, Any] | None = None
    ) -> Path:
        """Write ``summary.md`` and ``summary.json``; returns the Markdown's path."""
        context = ReportContext(
            manifest=self._manifest_for(all_results),
            results={r.scaffold: r for r in all_results},
            output_dir=self.output_dir,
            previous=previous,
        )
        SummaryJsonReporter().write(context)
        path = self.output_dir / "summary.md"
        path.write_text(
            render_summary(context.manifest, list(all_results), previous), encoding="utf-8"
        )
        return path


_STATUSES = frozenset(get_args(Status))


def _earlier_summary(run_dir: Path) -> dict[str, Any] | None:
    """The validated data of a run's ``summary.json`` (a file anyone may have edited);
    ``None``, with a warning naming the file unless it is simply missing, when it is not a
    summary. Its run id and statuses reach ``summary.md``, so they must be what a run
    writes."""
    path = run_dir / "reports" / "summary.json"
    try:
        summary = RunSummary.model_validate(read_stored_json(path, max_bytes=MAX_SUMMARY_BYTES))
    except FileNotFoundError:
        return None
    except (OSError, StoredFileError) as exc:
        logger.warning("earlier summary skipped: %s", exc)
        return None
    except ValidationError as exc:
        logger.warning("earlier summary skipped: %s: not a run summary (%s)", path, exc)
        return None
    strange = [s.status for s in summary.scaffolds.values() if s.status not in _STATUSES]
    if not is_run_id(summary.run_id) or strange:
        logger.warning("earlier summary skipped: %s: its run id or a status is not one", path)
        return None
    return summary.model_dump(mode="json")


def _previous_summary(paths: RunPaths, manifest: RunManifest) -> dict[str, Any] | None:
    """The summary of the latest run of the same provider and model created before this
    one. Earlier runs are untrusted input: a damaged one is skipped, never fatal."""
    this = (manifest.provider.get("provider"), manifest.model_requested)
    earlier = sorted(
        (
            other
            for other in run_manifests(paths.results_dir)
            if (other.provider.get("provider"), other.model_requested) == this
            and other.created_at < manifest.created_at
        ),
        key=lambda other: other.created_at,
        reverse=True,
    )
    for other in earlier:
        summary = _earlier_summary(paths.results_dir / "runs" / other.run_id)
        if summary is not None:
            return summary
    return None


def write_run_reports(
    paths: RunPaths,
    manifest: RunManifest,
    results: dict[str, ScaffoldResults],
    *,
    reporters: Sequence[Reporter] = DEFAULT_REPORTERS,
    options: Mapping[str, Any] | None = None,
    publish: bool = True,
    costs: Mapping[str, ScaffoldCost] | None = None,
) -> Path:
    """Run every reporter into the run's reports folder, then (unless ``publish`` is false:
    an older run re-rendered) publish that folder to ``<results_dir>/reports``; returns the
    run's ``summary.md``."""
    context = ReportContext(
        manifest=manifest,
        results=results,
        output_dir=paths.reports,
        previous=_previous_summary(paths, manifest),
        options=dict(options or {}),
        costs=run_costs(manifest, read_journal(paths.journal)) if costs is None else costs,
    )
    for reporter in reporters:
        reporter.write(context)
    (paths.reports / _MARKER).write_text("written by the scaffold certification harness\n")
    if publish:
        publish_latest(paths)
    return paths.reports / "summary.md"


_PUBLISHED = ".published"
"""Under the results folder: the published copies ``reports`` points at."""
_PUBLISH_LOCK = ".lock"
"""In :data:`_PUBLISHED`: held while one run publishes, so runs that finish together take
turns (a publication takes milliseconds) and none leaves a copy behind."""


def publish_latest(paths: RunPaths) -> Path | None:
    """Make ``<results_dir>/reports`` show this run's reports, in one atomic step.

    The run's reports are copied to ``<results_dir>/.published/<unique>/`` and ``reports``
    becomes a symbolic link to that copy through an atomic rename, so a reader sees the old
    reports or the new ones, never a mix or nothing. Runs publishing at once take turns
    under an OS lock, and each removes every copy but its own (a killed run's leftovers
    included). A ``reports`` folder the harness did not write is left alone. Returns the
    copy, or ``None`` when nothing was published.
    """
    latest = paths.latest_reports
    published = paths.results_dir / _PUBLISHED
    published.mkdir(parents=True, exist_ok=True)
    with exclusive_lock(published / _PUBLISH_LOCK):
        if latest.exists() and not latest.is_symlink() and not (latest / _MARKER).exists():
            logger.warning(
                "%s was not written by the harness: left alone, latest reports not copied there",
                latest,
            )
            return None
        unique = f"{paths.run_id}-{uuid.uuid4().hex[:8]}"
        copy = published / unique
        shutil.copytree(paths.reports, copy)
        link = published / f".link-{unique}"
        os.symlink(Path(_PUBLISHED) / unique, link, target_is_directory=True)
        if latest.exists() and not latest.is_symlink():
            shutil.rmtree(latest)  # a copied folder written by an older version of the harness
        os.replace(link, latest)
        for entry in published.iterdir():
            if entry.name != _PUBLISH_LOCK and entry != copy:
                _remove(entry)
    return copy


def _remove(entry: Path) -> None:
    """Remove a published copy or link that nothing shows any more."""
    try:
        if entry.is_symlink() or not entry.is_dir():
            entry.unlink()
        else:
            shutil.rmtree(entry)
    except OSError as exc:  # another process's reader may hold it open (Windows): next time
        logger.debug("%s not removed (%s)", entry, exc)
