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
import json
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
from verification.reports.summary import summary_of
from verification.store.json_text import JsonText
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
SHOWN_REPLY_CHARS = 20_000
"""A raw reply longer than this is cut on the page (the journal keeps it)."""
SHOWN_ANSWER_CHARS = SHOWN_REPLY_CHARS
"""A parsed answer whose JSON is longer than this is cut on the page, as replies are."""


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


def shown_text(text: str | None, limit: int = SHOWN_REPLY_CHARS) -> str | None:
    """``text`` cut to ``limit`` characters, each line's unprintable characters (NUL,
    terminal escapes, bidirectional overrides, lone surrogates) written as visible escapes,
    so a reply cannot reorder or hide what follows it."""
    if text is None:
        return None
    shown = text[:limit]
    if shown.replace("\n", "").isprintable():  # most replies: nothing to escape, one pass in C
        return shown
    return "\n".join(printable(line) for line in shown.split("\n"))


def answer_differences(answer: Any, expected: Mapping[str, Any]) -> dict[str, list[int] | None]:
    """The answer's fields that differ from the expected answer: a list field maps to the
    positions that differ (``[]`` when only its length does), any other field to ``None``.
    A field only one of them has differs."""
    if not isinstance(answer, dict):
        return {}
    marks: dict[str, list[int] | None] = {key: None for key in expected if key not in answer}
    for key, value in answer.items():
        want = expected.get(key, _MISSING)
        if value == want and type(value) is type(want):
            continue
        if isinstance(value, list) and isinstance(want, list):
            marks[key] = [i for i, item in enumerate(value) if i >= len(want) or item != want[i]]
        else:
            marks[key] = None
    return marks


_MISSING = object()


# ``json.dumps`` with options builds its encoder per call; made once, each writes the same
# text (several times per answer shown), without ``encode``'s Python layer (JsonText).
_SAFE_JSON = JsonText(default=str, allow_nan=False)
_SHOWN_JSON = JsonText(default=str, allow_nan=False, ensure_ascii=False)
_TEXT_JSON = JsonText(ensure_ascii=False)
# The page's block: ASCII JSON keeps lone surrogates as escapes. Without json's marks for
# cycles: what they write holds none (values read back from JSON text, or _plain's, which
# is bounded in depth), and the marks cost as much as the writing.
_BLOCK_JSON = JsonText(
    ensure_ascii=True, allow_nan=False, separators=(",", ":"), check_circular=False
)
_PLAIN_JSON = JsonText(default=str, allow_nan=False, separators=(",", ":"), check_circular=False)


def safe_json(value: Any) -> Any:
    """Model data as JSON values (a parsed answer may hold anything json writes; NaN and
    infinity, which JSON cannot, as their repr)."""
    try:
        return json.loads(_SAFE_JSON(value))
    except ValueError:  # NaN or infinity in a parsed answer: shown as text
        return repr(value)


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


def shown_answer(
    answer: Any, diff: Mapping[str, list[int] | None]
) -> tuple[Any, dict[str, list[int] | None]]:
    """A parsed answer and its differences as the page shows them: whole when its JSON
    holds at most :data:`SHOWN_ANSWER_CHARS` characters; else each field longer than its
    share is shown as the start of its JSON text, marked cut (and, if it differs, marked
    whole), and an answer that is no object, or whose field names alone are too long, is
    shown as the start of its JSON text. The journal keeps the whole answer."""
    try:
        text = _SHOWN_JSON(answer)
    except ValueError:  # NaN or infinity in a parsed answer: shown as text (safe_json's repr)
        value: Any = repr(answer)
    else:
        # safe_json's value, from the text measured: the text of that value is no longer
        # (only a key written twice, such as 1 and "1", is dropped), so one short enough
        # stands for both and most answers are written once, not twice.
        value = json.loads(text)
        if len(text) <= SHOWN_ANSWER_CHARS:
            return value, dict(diff)
    text = _TEXT_JSON(value)
    if len(text) <= SHOWN_ANSWER_CHARS:
        return value, dict(diff)
    names = _TEXT_JSON(list(value)) if isinstance(value, dict) else text
    if not isinstance(value, dict) or len(names) > SHOWN_ANSWER_CHARS // 2:
        return _cut_json(text, SHOWN_ANSWER_CHARS), {}
    share = (SHOWN_ANSWER_CHARS - len(names)) // max(len(value), 1)
    shown: dict[str, Any] = {}
    marks = dict(diff)
    for key, item in value.items():
        item_text = _TEXT_JSON(item)
        shown[key] = item if len(item_text) <= share else _cut_json(item_text, share)
        if key in marks and shown[key] is not item:
            marks[key] = None
    return shown, marks


def _cut_json(text: str, limit: int) -> str:
    return f"{text[:limit]} ... (cut: {len(text)} characters; the journal holds them all)"


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
        ("model", "none (dry run)" if manifest.dry_run else str(manifest.model_requested)),
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
    return _page(str(data["title"]), _BLOCK_JSON(data), programs)


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


_SCALARS = frozenset({str, int, float, bool, type(None)})
_JSON_TYPES = _SCALARS | {dict, list, tuple}
_PLAIN_DEPTH = 32


def _plain(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is JSON's own types alone (no subclass), every key a string, at most
    :data:`_PLAIN_DEPTH` deep: its JSON text read back and written again is then the same
    (a key 1 beside "1", or an object json does not know, could make them differ)."""
    kind = type(value)
    if kind is dict:
        if not set(map(type, value)) <= {str}:
            return False
        items: Any = value.values()
    elif kind is list or kind is tuple:
        items = value
    else:
        return kind in _SCALARS
    kinds = set(map(type, items))
    if kinds <= _SCALARS:
        return True
    if depth >= _PLAIN_DEPTH or not kinds <= _JSON_TYPES:
        return False  # deeper (or a cycle): the value is read back as safe_json does
    return all(type(item) in _SCALARS or _plain(item, depth + 1) for item in items)


def _value_json(value: Any) -> str:
    """``safe_json(value)`` as the page's block writes it: from ``value`` itself when that
    writes the same text (:func:`_plain`), without reading its JSON back."""
    if not _plain(value):
        return _BLOCK_JSON(safe_json(value))
    try:
        return _PLAIN_JSON(value)
    except ValueError:  # NaN or infinity: shown as text, as safe_json shows it
        return _BLOCK_JSON(repr(value))


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
        _BLOCK_JSON(before)[:-1]
        + ',"input":'
        + _value_json(given)
        + ',"expected":'
        + _value_json(expected)
        + ","
        + _BLOCK_JSON(after)[1:]
        for before, given, expected, after in parts
    )
    block = _BLOCK_JSON(head)[:-1] + ',"cases":[' + cases + "]}"
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
