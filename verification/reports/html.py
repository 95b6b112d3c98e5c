"""``index.html``: one self-contained page of a run, every case of it browsable.

The page is a single file that opens from disk, a CI artifact or a published folder: its
style and script are inline, it loads nothing (a Content-Security-Policy from
``default-src 'none'`` allows only its own style and script, by their sha256), and the run's
data sits in a JSON block with every ``<`` written as ``\\u003c`` so no string in it can end
the block. The script puts model text on the page through ``textContent`` only, so a reply
is shown, never run. Replies are cut to :data:`SHOWN_REPLY_CHARS` with their length and a
pointer to the journal, and drawn as cases are scrolled to, so a page of thousands of cases
opens quickly.
"""

from __future__ import annotations

import base64
import hashlib
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from verification.cases import printable
from verification.certify.results import THRESHOLDS, ScaffoldResults, TestResult
from verification.errors import ConfigurationError
from verification.reports.base import ReportContext, write_report
from verification.reports.compiled import template_bytecode
from verification.reports.programs import program_records, programs_html
from verification.reports.shown import (
    BLOCK_JSON,
    SHOWN_REPLY_CHARS,
    answer_differences,
    safe_json,
    shown_answer,
    shown_text,
    value_json,
)
from verification.reports.summary import summary_of
from verification.store.manifests import RunManifest, latest_run_id
from verification.store.paths import RunPaths
from verification.store.records import AttemptRecord
from verification.store.summary_file import RunSummary

__all__ = [
    "HTML_REPORT_NAME",
    "SHOWN_REPLY_CHARS",
    "HtmlReporter",
    "answer_differences",
    "answer_view",
    "attempt_view",
    "attempts_by_case",
    "journal_name",
    "page_data",
    "page_heading",
    "page_path",
    "page_style",
    "page_template",
    "page_text",
    "render_page",
    "run_model",
    "safe_json",
    "scaffolds_named",
    "shown_text",
]

HTML_REPORT_NAME = "index.html"


@dataclass(frozen=True)
class _Assets:
    style: str
    script: str
    csp: str


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


@cache
def _assets() -> _Assets:
    folder = files("verification.reports") / "templates"
    style = (folder / "index.css").read_text(encoding="utf-8")
    script = (folder / "index.js").read_text(encoding="utf-8")
    # 'none' for everything else: no request of any kind, no form, no base.
    csp = (
        f"default-src 'none'; script-src {_sha256(script)}; style-src {_sha256(style)}; "
        "base-uri 'none'; form-action 'none'"
    )
    return _Assets(style, script, csp)


def page_style() -> tuple[str, str]:
    """The pages' style sheet and the Content-Security-Policy of a page that has it and no
    script (the results folder's index): nothing else is loaded or run."""
    style = _assets().style
    policy = f"default-src 'none'; style-src {_sha256(style)}; base-uri 'none'; form-action 'none'"
    return style, policy


@cache
def page_template(name: str = "index.html.j2") -> jinja2.Template:
    """A page's template from ``reports/templates``, every value it is given escaped."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("verification.reports", "templates"),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
        bytecode_cache=template_bytecode("pages"),
    )
    return env.get_template(name)


def journal_name(run_id: str) -> str:
    """Where a run's journal is, from the results folder (what a cut reply points to)."""
    return f"runs/{run_id}/results.jsonl"


def attempt_view(record: AttemptRecord, journal: str) -> dict[str, Any]:
    """One attempt as the page lists it: outcome, reason and the raw reply, cut."""
    return {
        "sample": record.epoch,
        "attempt": record.attempt,
        "outcome": record.outcome,
        "level": record.level,
        "reason": printable(record.reason, 2000),
        "raw": shown_text(record.raw_response),
        "chars": record.raw_response_chars,
        "cut": record.raw_response is not None and record.raw_response_chars > SHOWN_REPLY_CHARS,
        "source": record.source,
        "journal": journal,
    }


def answer_view(result: TestResult) -> dict[str, Any]:
    """An answer's verdict and parsed answer (cut: :func:`shown_answer`), with its
    differences to the expected one."""
    answer, diff = shown_answer(result.actual, answer_differences(result.actual, result.expected))
    return {
        "outcome": result.outcome,
        "level": result.level,
        "message": printable(result.validation_message, 2000),
        "answer": answer,
        "diff": diff,
    }


def attempts_by_case(records: Sequence[AttemptRecord]) -> dict[str, list[AttemptRecord]]:
    """Each case's attempts, in journal order."""
    attempts: dict[str, list[AttemptRecord]] = defaultdict(list)
    for record in records:
        attempts[record.case_id].append(record)
    return attempts


_CaseParts = tuple[dict[str, Any], Any, Any, dict[str, Any]]  # before, input, expected, after


def _case_parts(
    results: Mapping[str, ScaffoldResults], records: Sequence[AttemptRecord], journal: str
) -> list[_CaseParts]:
    attempts = attempts_by_case(records)
    parts = []
    for scaffold in results.values():
        samples: dict[str, list[TestResult]] = defaultdict(list)
        for result in scaffold.results:
            samples[result.test_case.id].append(result)
        for case_id, answers in samples.items():
            chain = attempts.get(case_id, [])
            shown = next((a for a in answers if not a.passed), answers[0])
            first = chain[0] if chain else None
            tokens = {"input": 0, "output": 0}
            for record in chain:
                tokens["input"] += record.usage.get("input_tokens", 0)
                tokens["output"] += record.usage.get("output_tokens", 0)
            head = {
                "id": case_id,
                "scaffold": scaffold.scaffold,
                "tier": shown.test_case.tier,
                "size": first.size if first else shown.test_case.size,
                **answer_view(shown),
                "outcome": "passed" if all(a.passed for a in answers) else shown.outcome,
            }
            tail = {
                "samples": len(answers),
                "samples_passed": sum(a.passed for a in answers),
                "tokens": tokens,
                "latency_s": shown.latency_s,
                "source": ", ".join(sorted({r.source or "live" for r in chain})) or "live",
                "attempts": [attempt_view(r, journal) for r in chain],
            }
            parts.append((head, shown.test_case.input, shown.expected, tail))
    return parts


def _case_rows(
    results: Mapping[str, ScaffoldResults], records: Sequence[AttemptRecord], journal: str
) -> list[dict[str, Any]]:
    return [
        {**head, "input": safe_json(given), "expected": safe_json(expected), **tail}
        for head, given, expected, tail in _case_parts(results, records, journal)
    ]


def _plan_position(manifest: RunManifest) -> Callable[[Mapping[str, Any]], tuple[int, int]]:
    """Where a row (its scaffold and id) comes in the order the run planned its cases (the
    results fold them by id)."""
    position = {
        case_id: i
        for scaffold in manifest.scaffolds.values()
        for i, case_id in enumerate(scaffold.case_ids)
    }
    scaffolds = {name: i for i, name in enumerate(manifest.scaffolds)}
    return lambda row: (
        scaffolds.get(row["scaffold"], len(scaffolds)),
        position.get(row["id"], len(position)),
    )


def _run_fields(manifest: RunManifest, summary: RunSummary) -> list[tuple[str, str]]:
    fields = [
        (
            "model",
            f"none ({manifest.run_label or 'DRY RUN'})"  # REPLAY too, as the reports say
            if manifest.dry_run
            else str(manifest.model_requested),
        ),
        ("provider", str(manifest.provider.get("provider", "unknown"))),
        ("level", manifest.level or "-"),
        (
            "seed",
            "private (sha256 " + (manifest.seed_sha256 or "?")[:12] + ")"
            if manifest.seed_private
            else str(manifest.seed),
        ),
        ("samples", str(manifest.samples)),
        ("started", manifest.created_at),
        ("finished", manifest.finished_at or "not finished"),
        ("code version", manifest.code_version),
        ("certifies", "yes" if summary.certifies else "no"),
    ]
    if manifest.models_returned:
        fields.insert(1, ("models answering", ", ".join(manifest.models_returned)))
    if not manifest.dry_run and summary.cost is not None and summary.cost.usd is not None:
        fields.append(("cost", f"${summary.cost.usd:.4f}"))
    return [(name, printable(value, 300)) for name, value in fields]


def scaffolds_named(names: Sequence[str]) -> str:
    """The scaffolds of a heading: each named, up to four (a whole catalog is a count)."""
    return ", ".join(names) if len(names) <= 4 else f"{len(names)} scaffolds"


def run_model(manifest: RunManifest) -> str:
    """Who answered a run, as a heading names it."""
    if manifest.dry_run:
        return f"{manifest.run_label or 'DRY RUN'}, no model asked"
    return str(manifest.model_requested)


def page_heading(manifest: RunManifest) -> str:
    """The page's heading: the run's scaffolds, its model and its id."""
    heading = f"{scaffolds_named(list(manifest.scaffolds))}: {run_model(manifest)}"
    return printable(f"{heading}, run {manifest.run_id}", 300)


def _page_head(manifest: RunManifest, summary: RunSummary) -> dict[str, Any]:
    """The page's data but its cases."""
    return {
        "title": page_heading(manifest),
        "run": {
            "title": page_heading(manifest),
            "run_id": manifest.run_id,
            "dry_run": manifest.dry_run,
            "run_label": manifest.run_label,
            "fields": _run_fields(manifest, summary),
        },
        "summary": summary.model_dump(mode="json"),
        "certify": THRESHOLDS["CERTIFIED"],
    }


def page_data(
    manifest: RunManifest,
    results: Mapping[str, ScaffoldResults],
    records: Sequence[AttemptRecord],
    summary: RunSummary,
) -> dict[str, Any]:
    """What the page shows, as JSON data (``summary`` is what ``summary.json`` holds)."""
    journal = journal_name(manifest.run_id)
    return {
        **_page_head(manifest, summary),
        "cases": sorted(_case_rows(results, records, journal), key=_plan_position(manifest)),
    }


def render_page(data: Mapping[str, Any], programs: Markup | None = None) -> str:
    """The page of ``data`` (:func:`page_data`), with code mode's ``programs`` section
    (escaped HTML, :func:`~verification.reports.programs.programs_html`) if any."""
    return _page(str(data["title"]), BLOCK_JSON(data), programs)


def _page(title: str, block: str, programs: Markup | None) -> str:
    assets = _assets()
    # With '<' escaped no string can close the script element or open a comment in it.
    block = block.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return page_template().render(
        title=title,
        csp=assets.csp,
        style=Markup(assets.style),
        script=Markup(assets.script),
        data=Markup(block),
        programs=programs or Markup(""),
    )


def page_text(
    manifest: RunManifest,
    results: Mapping[str, ScaffoldResults],
    records: Sequence[AttemptRecord],
    summary: RunSummary,
    programs: Markup | None = None,
) -> str:
    """``render_page(page_data(...), programs)`` written at once: each case's input and
    expected answer written once, from the value the run holds (not written, read, written)."""
    head = _page_head(manifest, summary)
    position = _plan_position(manifest)
    parts = sorted(
        _case_parts(results, records, journal_name(manifest.run_id)),
        key=lambda part: position(part[0]),
    )
    cases = ",".join(
        BLOCK_JSON(before)[:-1]
        + ',"input":'
        + value_json(given)
        + ',"expected":'
        + value_json(expected)
        + ","
        + BLOCK_JSON(after)[1:]
        for before, given, expected, after in parts
    )
    block = BLOCK_JSON(head)[:-1] + ',"cases":[' + cases + "]}"
    return _page(str(head["title"]), block, programs)


class HtmlReporter:
    """``index.html``: the run's summary and every case, in one self-contained page."""

    name = "html"

    def write(self, context: ReportContext) -> list[Path]:
        context.output_dir.mkdir(parents=True, exist_ok=True)
        summary = summary_of(context)
        page = page_text(
            context.manifest,
            context.results,
            context.records,
            summary,
            programs_html(program_records(context)),
        )
        return [write_report(context.output_dir / HTML_REPORT_NAME, page)]


def page_path(results_dir: Path, run_id: str | None = None) -> Path:
    """The page of run ``run_id`` under ``results_dir`` (default: the newest run's).
    Raises :class:`ConfigurationError` when that run has no page (written before pages
    were, or its reports never written), naming the command that writes it."""
    run_id = run_id or latest_run_id(results_dir)
    paths = RunPaths(results_dir, run_id)
    if not paths.run_dir.is_dir():
        raise ConfigurationError(f"no run {run_id} under {results_dir / 'runs'}")
    path = paths.reports / HTML_REPORT_NAME
    if not path.is_file():
        raise ConfigurationError(
            f"run {run_id} has no {HTML_REPORT_NAME}: `report {run_id}` writes its reports"
        )
    return path
