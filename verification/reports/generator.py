"""Markdown and JSON certification reports, rendered with Jinja2 from results.

The two outputs are reporters (:class:`MarkdownReporter`, :class:`SummaryJsonReporter`);
:func:`write_run_reports` runs every reporter of a run, then publishes the run's reports to
``<output>/reports`` in one atomic step (:mod:`verification.reports.publishing`).
:class:`ReportGenerator` is the API reference's facade over the same rendering.

Model text is data: every model-written string lands in a code fence longer than any run of
backticks it holds, or in a table cell with ``|``, ``<`` and line breaks escaped, so no reply
can break a report's layout.
"""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from verification.cases import is_scaffold_name
from verification.certify.costs import ScaffoldCost, run_costs, total_cost
from verification.certify.envelope import run_size_plan, size_plan_of
from verification.certify.lift import PairLift
from verification.certify.operating import oc_sentence
from verification.certify.results import ScaffoldResults, deciding_thresholds
from verification.certify.sequential import CertificationPlan, plan_from_record
from verification.errors import ConfigurationError
from verification.reports.base import (
    ReportContext,
    Reporter,
    RunComparison,
    RunEntry,
    infra_reasons,
    shown_rate,
    write_report,
)
from verification.reports.charts import (
    TREND_RUNS,
    SvgChartReporter,
    scaffold_chart_name,
    summary_charts,
)
from verification.reports.compiled import template_bytecode
from verification.reports.envelope_search import search_markdown, search_results
from verification.reports.history import recent_comparable, summaries_remembered
from verification.reports.html import HtmlReporter
from verification.reports.lift import lift_markdown, linked_lift
from verification.reports.models import ModelTable, ModelTableReporter, model_table
from verification.reports.programs import program_records, programs_markdown
from verification.reports.publishing import REPORTS_MARKER, publish_latest
from verification.reports.reasons import failure_groups, level_name
from verification.reports.regressions import compare_with_previous
from verification.reports.results_index import write_results_index
from verification.reports.summary import build_summary, summary_of
from verification.store.journal import read_journal
from verification.store.manifests import RunManifest, ScaffoldEntry
from verification.store.paths import RunPaths
from verification.store.records import AttemptRecord

__all__ = [
    "DEFAULT_REPORTERS",
    "MarkdownReporter",
    "ReportGenerator",
    "SummaryJsonReporter",
    "md_cell",
    "md_code",
    "md_code_text",
    "md_fence",
    "publish_latest",
    "scaffold_report_path",
    "write_run_reports",
]

SHOWN_RESPONSE_CHARS = 20_000
logger = logging.getLogger(__name__)
_MARKDOWN_PUNCTUATION = re.compile(r"[\\\[\]()!*_~#|>]")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
"""C0 controls but tab and line breaks, DEL, and the C1 controls (U+0080 to U+009F: U+009B
alone starts a terminal escape sequence where ESC [ would, and a report is read with
``cat`` too)."""
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


def md_code(value: object, limit: int = 300, *, in_table: bool = True) -> str:
    """A value as an inline code span that shows it as it is (its backticks too: the span's
    fence is longer than any run of them), safe in a table cell (``|`` escaped, which GFM
    takes out of a cell's code before it shows it); ``in_table`` false: for a paragraph, a
    heading or a list, where a ``\\|`` would show its backslash (hunt pp: a name with a
    backtick or a ``|`` was shown changed)."""
    text = _printable(str(value)).replace("\r", " ").replace("\n", " ")
    text = text if len(text) <= limit else text[: limit - 3] + "..."
    if in_table:
        text = text.replace("|", "\\|")
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    spaced = text.startswith(" ") and text.endswith(" ") and text.strip(" ")  # U+0020 only
    if text.startswith("`") or text.endswith("`") or spaced:
        text = f" {text} "  # CommonMark strips one space from each end of such a span
    return f"{fence}{text}{fence}"


def md_code_text(value: object, limit: int = 300) -> str:
    """:func:`md_code` outside a table."""
    return md_code(value, limit, in_table=False)


def md_fence(text: str, info: str = "") -> str:
    """``text`` in a fence no line of it can close (longer than its longest backtick run)."""
    body = _printable(text)
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    marker = "`" * max(3, longest + 1)
    return f"{marker}{info}\n{body}\n{marker}"


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _signed(value: float) -> str:
    """A difference of rates in percentage points, signed (``+2.5 pp``)."""
    return f"{100 * value:+.1f} pp"


def _num(value: float) -> str:
    """A score: whole when it is, else to two decimals (a mean of samples)."""
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


def _claim(
    plan: CertificationPlan | None,
    samples: int,
    short: CertificationPlan | None = None,
    copies: tuple[int, ...] = (),
) -> str | None:
    """What a status by ``plan`` claims, from its exact OC (``None``: a run from before
    plans); ``short``: the plan as a run that ended short of its cap read it; ``copies``:
    its counted cases per distinct input."""
    if plan is None:
        return None
    return oc_sentence(plan, samples=samples, short=short, copies=copies)


def _run_plan(manifest: RunManifest) -> CertificationPlan | None:
    """The plan a run recorded (``None``: a run from before plans)."""
    return plan_from_record(manifest.plan) if manifest.plan is not None else None


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
        auto_reload=False,  # package files: no stat of a template each time it is asked for
        bytecode_cache=template_bytecode("markdown"),
    )
    env.globals.update(
        pct=_pct,
        rate=shown_rate,
        signed=_signed,
        num=_num,
        deciding=_deciding,
        claim=_claim,
        failure_groups=failure_groups,
        level_name=level_name,
        run_plan=_run_plan,
        size_plan=run_size_plan,
        cell=md_cell,
        code=md_code,
        code_text=md_code_text,
        fence=md_fence,
        shown_chars=SHOWN_RESPONSE_CHARS,
        infra_reasons=infra_reasons,
    )
    env.filters["cell"] = md_cell
    env.filters["code"] = md_code
    env.filters["code_text"] = md_code_text
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


def render_scaffold_report(
    manifest: RunManifest,
    results: ScaffoldResults,
    cost: ScaffoldCost | None = None,
    *,
    size_chart: str | None = None,
) -> str:
    """The Markdown report of one scaffold (``size_chart``: its SVG beside it, if any)."""
    return (
        _environment()
        .get_template("scaffold.md.j2")
        .render(
            r=results,
            m=manifest,
            cost=cost,
            size_chart=size_chart,
            size_plan=size_plan_of(results.size_points),
        )
    )


def render_summary(
    manifest: RunManifest,
    results: Sequence[ScaffoldResults],
    comparison: RunComparison | None = None,
    costs: Mapping[str, ScaffoldCost] | None = None,
    *,
    charts: Sequence[str] = (),
    models: ModelTable | None = None,
    lift: PairLift | None = None,
) -> str:
    """The Markdown summary of a run (``charts``: SVG files beside it, shown in order;
    ``models``: the table of the runs asked with it, several models at once; ``lift``: the
    scaffold's lift, in a run of a ``--baseline none`` pair)."""
    return (
        _environment()
        .get_template("summary.md.j2")
        .render(
            m=manifest,
            results=results,
            totals=dict(Counter(r.shown_status for r in results)),
            cost=total_cost(costs, manifest.cost_basis) if costs else None,
            costs=costs or {},
            comparison=comparison,
            charts=charts,
            models=models,
            lift=lift_markdown(lift) if lift is not None else "",
        )
    )


class MarkdownReporter:
    """``<scaffold>.md`` for each scaffold and ``summary.md``."""

    name = "markdown"

    def write(self, context: ReportContext) -> list[Path]:
        context.output_dir.mkdir(parents=True, exist_ok=True)
        written = []
        searches = search_results(context.manifest, context.results, context.records)
        # Each scaffold's section looks for its programs among these, not the whole journal.
        programs = program_records(context)
        for results in context.results.values():
            path = scaffold_report_path(context.output_dir, results.scaffold)
            chart = context.output_dir / scaffold_chart_name(results.scaffold)
            text = render_scaffold_report(
                context.manifest,
                results,
                context.costs.get(results.scaffold),
                size_chart=chart.name if chart.is_file() else None,
            )
            text += search_markdown(searches.get(results.scaffold))
            text += programs_markdown(programs, results.scaffold)
            written.append(write_report(path, text))
        summary = write_report(
            context.output_dir / "summary.md",
            render_summary(
                context.manifest,
                list(context.results.values()),
                context.comparison,
                context.costs,
                charts=[p.name for p in summary_charts(context)],
                models=model_table(context),
                lift=context.lift,
            ),
        )
        return [*written, summary]


class SummaryJsonReporter:
    """``summary.json``: the run's certification as data."""

    name = "summary-json"

    def write(self, context: ReportContext) -> list[Path]:
        context.output_dir.mkdir(parents=True, exist_ok=True)
        summary = summary_of(context)
        data = summary.model_dump(mode="json")
        path = context.output_dir / "summary.json"
        return [write_report(path, json.dumps(data, indent=2, allow_nan=False) + "\n")]


DEFAULT_REPORTERS: tuple[Reporter, ...] = (
    SvgChartReporter(),  # before the Markdown, which links the charts that exist
    MarkdownReporter(),
    SummaryJsonReporter(),
    ModelTableReporter(),
    HtmlReporter(),
)
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
            created_at=datetime.now(UTC).isoformat(timespec="microseconds"),
            provider={"provider": "unknown" if label is None else label.lower()},
            dry_run=label is not None,
            run_label=label,
            model_requested="unknown",
            settings={},
            seed=0,
            # The most a scaffold has, within a manifest's bounds (samples count too).
            cases=min(max([len(r.results) for r in results] + [1]), 10_000),
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
        return write_report(path, self.render_scaffold_report(results))

    def generate_summary_report(
        self, all_results: Sequence[ScaffoldResults], *, comparison: RunComparison | None = None
    ) -> Path:
        """Write ``summary.md`` and ``summary.json``; returns the Markdown's path."""
        context = ReportContext(
            manifest=self._manifest_for(all_results),
            results={r.scaffold: r for r in all_results},
            output_dir=self.output_dir,
            comparison=comparison,
        )
        SummaryJsonReporter().write(context)
        return write_report(
            self.output_dir / "summary.md",
            render_summary(context.manifest, list(all_results), comparison),
        )


def _summary_json(entry: RunEntry) -> dict[str, Any] | None:
    return None if entry.summary is None else entry.summary.model_dump(mode="json")


@contextlib.contextmanager
def _heap_set_aside() -> Iterator[None]:
    """The objects made before (the run's, the catalog, the modules: most of the process)
    set aside from the cyclic collector: a full collection set off by what the reports make
    (a previous run's journal read back, the page's rows) walked them all again, 70-90 ms a
    time in a process holding a few runs. A heap the caller set aside stays as it is."""
    set_aside = not gc.get_freeze_count()
    if set_aside:
        gc.freeze()
    try:
        yield
    finally:
        if set_aside:
            gc.unfreeze()


def write_run_reports(
    paths: RunPaths,
    manifest: RunManifest,
    results: dict[str, ScaffoldResults],
    *,
    reporters: Sequence[Reporter] = DEFAULT_REPORTERS,
    options: Mapping[str, Any] | None = None,
    publish: bool = True,
    costs: Mapping[str, ScaffoldCost] | None = None,
    records: Sequence[AttemptRecord] | None = None,
    lift: PairLift | None = None,
) -> Path:
    """Run every reporter into the run's reports folder, then (unless ``publish`` is false:
    an older run re-rendered) publish that folder to ``<results_dir>/reports``; returns the
    run's ``summary.md``. ``records``: the run's journal, when the caller read it already
    (its bad lines then warned about once). ``lift``: the lift of the ``--baseline none``
    pair the run is one of, when the caller has it (else its other run is read back). A run
    or reports folder that leads out of the results folder through a symbolic link is
    refused (:meth:`RunPaths.check_inside`). The cyclic collector leaves the objects made
    before alone meanwhile (:func:`_heap_set_aside`)."""
    with _heap_set_aside(), summaries_remembered():
        paths.check_inside()
        records = read_journal(paths.journal) if records is None else list(records)
        recent = recent_comparable(paths.results_dir, manifest, TREND_RUNS)
        previous = recent[-1] if recent else None
        context = ReportContext(
            manifest=manifest,
            results=results,
            output_dir=paths.reports,
            previous=None if previous is None else _summary_json(previous),
            options=dict(options or {}),
            costs=run_costs(manifest, records) if costs is None else costs,
            comparison=(
                None
                if previous is None
                else compare_with_previous(previous, results, manifest, recent[-2::-1])
            ),
            history=tuple(recent),
            records=records,
            lift=lift or linked_lift(paths.results_dir, manifest, results, records),
        )
        for reporter in reporters:
            reporter.write(context)
        marker = "written by the scaffold certification harness\n"
        write_report(paths.reports / REPORTS_MARKER, marker)
        if publish and manifest.shard is None:  # a shard alone is never the latest run's reports
            publish_latest(paths)
        try:
            write_results_index(paths.results_dir)
        except ConfigurationError as exc:  # the run's own reports are written: never a stop
            logger.warning("the results folder's index is not written: %s", exc)
        return paths.reports / "summary.md"
