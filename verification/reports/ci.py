"""Outputs for CI systems: a JUnit XML file and the GitHub Actions job summary.

JUnit (``--junit-xml PATH``): one ``testsuite`` per model (a run that asked none is named
by what answered it) and one ``testcase`` per scaffold, ``classname`` the suite and ``name``
the scaffold, failing only as its status does: a ``failure`` when it is PARTIAL or FAILED or
dropped significantly against the previous comparable run, an ``error`` when INCOMPLETE, so a
CERTIFIED scaffold with one wrong case is a green test. Its cases ride along: each case id a
``property`` whose value is its outcome (first sample), and ``system-out`` the failed cases
with their reasons. Several models of one invocation write one file, a suite each. On
request (``--junit-cases PATH``) a second file holds each case as a test case of its own, a
suite per model and scaffold (:class:`JUnitCasesReporter`). Every
text is cleared of characters XML forbids (:func:`~verification.reports.xmltext.xml_text`)
and escaped by the serializer, so no reply can make the file unreadable.

Job summary: when ``GITHUB_STEP_SUMMARY`` names a file (GitHub Actions sets it in every
step), the summary table and any regressions are appended to it.

Annotations: under GitHub Actions (``GITHUB_ACTIONS=true``), each scaffold that failed
(PARTIAL or FAILED) or regressed is one ``::error file=scaffolds/<category>/<name>.md::``
workflow command (:func:`github_annotations`), so a pull request shows it on the scaffold's
file; its message and file are escaped as GitHub's workflow commands ask (``%``, CR and LF,
and in the file also ``:`` and ``,``), so no scaffold name or reason can end the command.
"""

from __future__ import annotations

import contextlib
import stat
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from pathlib import Path

from verification.cases import printable
from verification.certify.results import ScaffoldResults, TestResult
from verification.errors import ConfigurationError
from verification.reports.base import ReportContext, Reporter, RunComparison, shown_rate
from verification.reports.generator import DEFAULT_REPORTERS, md_cell
from verification.reports.xmltext import xml_text
from verification.store.manifests import RunManifest

__all__ = [
    "GithubStepSummaryReporter",
    "JUnitCasesReporter",
    "JUnitXmlReporter",
    "check_ci_outputs",
    "github_annotations",
    "run_reporters",
]

_JUNIT = "--junit-xml"
_JUNIT_CASES = "--junit-cases"
_FAILING = ("PARTIAL", "FAILED")
_STEP_SUMMARY = "GITHUB_STEP_SUMMARY"

_MESSAGE_CHARS = 1000
_SYSTEM_OUT_CHARS = 200_000
"""A scaffold's per-case lines (each cut at the message's length) at most."""
_BODY_CHARS = 10_000
"""A failure's or error's body: the reason at more length than its message attribute, cut
as that is (a validator's reason may quote a whole answer: megabytes)."""


def _cut(text: str, limit: int) -> str:
    """``text`` fit for XML and cut to ``limit`` characters (``...`` marking a cut), without
    clearing more of it than is kept."""
    return xml_text(text[: limit + 1], limit)


def _line(text: str, limit: int) -> str:
    """:func:`_cut` of ``text`` as one line: a line break, a bidi override or any other
    character that is not printable escaped (a model's label or exception text forged
    "passed" lines in CI logs: hunts pp and rr)."""
    return _cut(printable(text[: limit + 1]), limit)


def _refuse_other_kinds(path: Path, named: str) -> None:
    """Refuse a path that exists as anything but a regular file: a folder cannot be
    written as one, and opening a FIFO would wait for a reader for ever."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return
    except (OSError, ValueError) as exc:
        raise ConfigurationError(f"{named} {path}: cannot be used ({exc})") from None
    if not stat.S_ISREG(mode):
        raise ConfigurationError(f"{named} {path}: not a regular file, so it is not written")


@contextlib.contextmanager
def _writing(path: Path, named: str) -> Iterator[None]:
    """Check ``path`` first, and report a write that fails naming the option or setting."""
    _refuse_other_kinds(path, named)
    try:
        yield
    except OSError as exc:
        raise ConfigurationError(
            f"{named} {path}: cannot be written ({exc.strerror or exc})"
        ) from None


def check_ci_outputs(
    junit_xml: Path | None, step_summary: str | None, junit_cases: Path | None = None
) -> None:
    """Refuse, before a run asks anything, CI output paths that exist but are no file (and
    the cases file where the scaffolds' goes: the second would overwrite the first)."""
    if junit_xml is not None:
        _refuse_other_kinds(junit_xml, _JUNIT)
    if junit_cases is not None:
        _refuse_other_kinds(junit_cases, _JUNIT_CASES)
        if junit_xml is not None and junit_cases.absolute() == junit_xml.absolute():
            raise ConfigurationError(
                f"{_JUNIT_CASES} {junit_cases}: the file {_JUNIT} names too; give each its own"
            )
    if step_summary:
        _refuse_other_kinds(Path(step_summary), _STEP_SUMMARY)


def _case_verdict(result: TestResult) -> str:
    """One case's outcome in a word or three (``failed at level 2``)."""
    if result.outcome == "infra_error":
        return "infrastructure error"
    if result.passed:
        return "passed"
    return f"{result.outcome} at level {result.level}" if result.level else result.outcome


def _scaffold_testcase(
    results: ScaffoldResults,
    classname: str,
    planned: list[str],
    regressed_against: str | None,
) -> ET.Element:
    """The test case of one scaffold: failing when its status fails it (PARTIAL, FAILED, or
    a significant drop against ``regressed_against``), an error when it is INCOMPLETE; its
    cases ride along as properties (case id -> outcome) and system-out (with reasons)."""
    first = [r for r in results.results if r.epoch == 0]
    case = ET.Element(
        "testcase",
        classname=_cut(classname, _MESSAGE_CHARS),
        name=_cut(results.scaffold, _MESSAGE_CHARS),
        time=f"{sum(r.latency_s for r in first):.3f}",
    )
    low, high = results.interval
    figures = {
        "status": results.shown_status,
        "pass_rate": f"{results.pass_rate:.6f}",
        "n": str(results.n),
        "interval_95": f"{low:.6f} to {high:.6f}",
    }
    properties = ET.SubElement(case, "properties")
    for name, value in figures.items():
        ET.SubElement(properties, "property", name=name, value=value)
    answered = {r.test_case.id for r in first}
    unanswered = [case_id for case_id in planned if case_id not in answered]
    for r in first:
        ET.SubElement(
            properties,
            "property",
            name=_cut(r.test_case.id, _MESSAGE_CHARS),
            value=_case_verdict(r),
        )
    for case_id in unanswered:
        ET.SubElement(
            properties, "property", name=_cut(case_id, _MESSAGE_CHARS), value="not answered"
        )
    summary = (
        f"{results.shown_status}: pass rate {shown_rate(results.pass_rate, results.n)} "
        f"(n={results.n}, 95% interval {100 * low:.1f}% to {100 * high:.1f}%)"
    )
    lines = [
        # One line each: a reason quotes the model (a label with a line break and a bidi
        # override forged "astar-simple-000: passed" lines in CI logs: hunt pp).
        _line(f"{r.test_case.id}: {_case_verdict(r)}: {r.validation_message}", _MESSAGE_CHARS)
        for r in first
        if not r.passed
    ]
    lines += [f"{case_id}: not answered (interrupted run)" for case_id in unanswered]
    why = []
    if results.shown_status in _FAILING:
        why.append(summary)
    if regressed_against is not None:
        why.append(f"a significant drop against run {regressed_against}")
    if why:
        message = "; ".join(why)
        failure = ET.SubElement(
            case,
            "failure",
            message=_cut(message, _MESSAGE_CHARS),
            type="regression" if results.shown_status not in _FAILING else results.shown_status,
        )
        failure.text = _cut("\n".join([message, *lines[:10]]), _BODY_CHARS)
    elif results.shown_status == "INCOMPLETE":
        text = f"{summary}: {results.incomplete_reason or 'unfinished'}"
        error = ET.SubElement(case, "error", message=_cut(text, _MESSAGE_CHARS), type="INCOMPLETE")
        error.text = _cut(text, _BODY_CHARS)
    out = ET.SubElement(case, "system-out")
    out.text = xml_text("\n".join([summary, *lines]), _SYSTEM_OUT_CHARS)
    return case


def _suite_name(manifest: RunManifest) -> str:
    """A suite per model: the model asked; for a run that asked none, what answered it (and
    the model it stood for, one of several)."""
    if manifest.dry_run or not manifest.model_requested:
        stood_for = [m for m, run in (manifest.model_runs or {}).items() if run == manifest.run_id]
        label = f"none ({manifest.run_label or 'no model'})"
        return f"{stood_for[0]}: {label}" if stood_for else label
    return manifest.model_requested


class JUnitXmlReporter:
    """One ``testcase`` per scaffold in a ``testsuite`` named after the model, written to
    ``path`` (``append``: a suite added to the file an earlier model of the same invocation
    wrote, so several models write one file)."""

    name = "junit-xml"

    def __init__(self, path: Path, *, append: bool = False) -> None:
        self.path = path
        self.append = append

    def _root(self, title: str) -> ET.Element:
        if self.append and self.path.is_file():
            try:
                root = ET.parse(self.path).getroot()
            except (ET.ParseError, OSError):
                root = None
            if root is not None and root.tag == "testsuites":
                return root
        return ET.Element("testsuites", name=xml_text(title))

    def write(self, context: ReportContext) -> list[Path]:
        manifest = context.manifest
        root = self._root(f"scaffold certification {manifest.run_id}")
        suite_name = _line(_suite_name(manifest), _MESSAGE_CHARS)
        suite = ET.SubElement(root, "testsuite", name=suite_name)
        ET.SubElement(
            ET.SubElement(suite, "properties"), "property", name="run_id", value=manifest.run_id
        )
        comparison = context.comparison
        regressed = set(comparison.regressions) if comparison is not None else set()
        for name, results in context.results.items():
            planned = manifest.scaffolds.get(name)
            previous = comparison.previous_run_id if comparison and name in regressed else None
            case_ids = list(planned.case_ids) if planned else []
            suite.append(_scaffold_testcase(results, suite_name, case_ids, previous))
        suite.set("tests", str(len(suite.findall("testcase"))))
        suite.set("failures", str(len(suite.findall("testcase/failure"))))
        suite.set("errors", str(len(suite.findall("testcase/error"))))
        suite.set("skipped", "0")
        with _writing(self.path, _JUNIT):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            ET.ElementTree(root).write(self.path, encoding="utf-8", xml_declaration=True)
        return [self.path]


def _case_testcase(result: TestResult, classname: str) -> ET.Element:
    """One case's test case: failing as the case did (its first sample), an error for an
    infrastructure error."""
    case = ET.Element(
        "testcase",
        classname=classname,
        name=_line(result.test_case.id, _MESSAGE_CHARS),
        time=f"{result.latency_s:.3f}",
    )
    if not result.passed:
        verdict = _case_verdict(result)
        kind = "error" if result.outcome == "infra_error" else "failure"
        element = ET.SubElement(
            case, kind, message=_line(f"{verdict}: {result.validation_message}", _MESSAGE_CHARS)
        )
        element.set("type", result.outcome)
        element.text = _line(result.validation_message, _BODY_CHARS)
    return case


class JUnitCasesReporter(JUnitXmlReporter):
    """``--junit-cases PATH``: each case's result, a ``testsuite`` per model and scaffold
    (``model: scaffold``) and a ``testcase`` per case, failing as the case did; a planned
    case not asked (an interrupted run) is skipped. The scaffolds' file stays green for a
    CERTIFIED scaffold with a wrong case; this one shows that case."""

    name = "junit-cases"

    def write(self, context: ReportContext) -> list[Path]:
        manifest = context.manifest
        root = self._root(f"scaffold certification {manifest.run_id}: cases")
        model = _suite_name(manifest)
        for name, results in context.results.items():
            suite_name = _line(f"{model}: {name}", _MESSAGE_CHARS)
            suite = ET.SubElement(root, "testsuite", name=suite_name)
            ET.SubElement(
                ET.SubElement(suite, "properties"), "property", name="run_id", value=manifest.run_id
            )
            first = [r for r in results.results if r.epoch == 0]
            for result in first:
                suite.append(_case_testcase(result, suite_name))
            answered = {r.test_case.id for r in first}
            planned = manifest.scaffolds.get(name)
            for case_id in planned.case_ids if planned else []:
                if case_id not in answered:
                    case = ET.SubElement(
                        suite, "testcase", classname=suite_name, name=_line(case_id, 200)
                    )
                    ET.SubElement(case, "skipped", message="not asked (an unfinished run)")
            for count, path in (
                ("tests", "testcase"),
                ("failures", "testcase/failure"),
                ("errors", "testcase/error"),
                ("skipped", "testcase/skipped"),
            ):
                suite.set(count, str(len(suite.findall(path))))
        with _writing(self.path, _JUNIT_CASES):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            ET.ElementTree(root).write(self.path, encoding="utf-8", xml_declaration=True)
        return [self.path]


def _model(manifest: RunManifest) -> str:
    if manifest.dry_run:
        return f"none ({md_cell(manifest.run_label)})"
    return md_cell(manifest.model_requested)


class GithubStepSummaryReporter:
    """Appends the summary table to the job summary file GitHub Actions names."""

    name = "github-step-summary"

    def __init__(self, path: Path) -> None:
        self.path = path

    def write(self, context: ReportContext) -> list[Path]:
        m = context.manifest
        title = f" ({m.run_label}: certifies no model)" if m.run_label else ""
        lines = [
            f"## Scaffold certification{title}",
            "",
            f"Run `{m.run_id}`, model {_model(m)}, provider {md_cell(m.provider.get('provider'))}.",
            "",
            "| Scaffold | Status | Pass rate | n | 95% interval |",
            "|---|---|---|---|---|",
        ]
        for reason in dict.fromkeys(
            r.uncertified for r in context.results.values() if r.uncertified
        ):
            lines[3:3] = [f"**NOT CERTIFIED:** {md_cell(reason)}.", ""]
        for r in context.results.values():
            low, high = r.interval
            mark = " (borderline)" if r.borderline else ""
            lines.append(
                f"| {md_cell(r.scaffold)} | **{r.shown_status}**{mark} | "
                f"{shown_rate(r.pass_rate, r.n)} | {r.n} | {100 * low:.1f}% to {100 * high:.1f}% |"
            )
        comparison = context.comparison
        if comparison is None:
            # A night with no baseline read like a quiet one (a helper's hunt).
            lines += ["", "No earlier comparable run: the regression gate compared nothing."]
        else:
            lines += ["", f"Compared with run `{comparison.previous_run_id}`."]
            for change in comparison.status_changes:
                before, now = change.before, change.now
                lines.append(f"- {change.scaffold}: {before} -> {now} ({change.direction_text})")
            if comparison.regressions:
                before, now = comparison.previous_run_id, m.run_id
                lines.append(
                    f"- **Regressions:** {', '.join(comparison.regressions)} (this run `{now}` "
                    f"against run `{before}`; the cases side by side: "
                    f"`python -m verification compare {before} {now}`)"
                )
            lines += _gate_lines(comparison)
        with _writing(self.path, _STEP_SUMMARY), self.path.open("a", encoding="utf-8") as file:
            file.write("\n".join(lines) + "\n\n")
        return [self.path]


def _gate_lines(comparison: RunComparison) -> list[str]:
    """What the regression gate could see, as summary.md says it: its power, the scaffolds
    paired with an earlier run or given no verdict, and those edited: a quiet night's job
    summary said nothing of any of it (a helper's hunt)."""
    lines = []
    if comparison.paired:
        powers = sorted(row.power for row in comparison.paired)
        lines.append(
            f"- Regression gate: {len(comparison.paired)} scaffold(s) compared on their shared "
            f"cases; its power to catch a drop from 0.90 to 0.80 is {powers[0]:.2f} to "
            f"{powers[-1]:.2f}."
        )
    for row in comparison.paired:
        if row.baseline:
            lines.append(
                f"- {row.scaffold}: compared with run `{md_cell(row.baseline)}` (run "
                f"`{md_cell(comparison.previous_run_id)}` had it INCOMPLETE)."
            )
        if row.withheld and not row.significant:
            lines.append(
                f"- No verdict on {row.scaffold} beyond a significant drop: "
                f"{md_cell(row.withheld)}."
            )
    if comparison.edited:
        lines.append(
            f"- Edited since run `{comparison.previous_run_id}`: {', '.join(comparison.edited)}."
        )
    return lines


def run_reporters(
    *,
    junit_xml: Path | None = None,
    step_summary: str | None = None,
    junit_append: bool = False,
    junit_cases: Path | None = None,
) -> tuple[Reporter, ...]:
    """Every reporter of a run: the default ones, JUnit when a path is given (``junit_append``:
    its suite added to the file an earlier model of the invocation wrote), each case's
    result when ``junit_cases`` names a second file, the job summary when GitHub Actions
    names a file (an empty name is none)."""
    reporters: list[Reporter] = list(DEFAULT_REPORTERS)
    if junit_xml is not None:
        reporters.append(JUnitXmlReporter(junit_xml, append=junit_append))
    if junit_cases is not None:
        reporters.append(JUnitCasesReporter(junit_cases, append=junit_append))
    if step_summary:
        reporters.append(GithubStepSummaryReporter(Path(step_summary)))
    return tuple(reporters)


def _escape_data(text: str) -> str:
    """A workflow command's message as GitHub reads it back (its ``escapeData``)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    """A workflow command's property value (its ``escapeProperty``)."""
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _repository_path(file: str, workspace: Path) -> str:
    """The scaffold file as the repository names it: relative to the checkout (GitHub's
    workspace), else its last three parts (``scaffolds/<category>/<name>.md``)."""
    path = Path(file)
    try:
        return path.resolve().relative_to(workspace.resolve()).as_posix()
    except (ValueError, OSError):
        return Path(*path.parts[-3:]).as_posix() if len(path.parts) >= 3 else path.as_posix()


def github_annotations(
    manifest: RunManifest,
    results: Iterable[ScaffoldResults],
    regressions: Iterable[str] = (),
    previous_run_id: str | None = None,
    *,
    workspace: Path,
) -> list[str]:
    """One ``::error`` workflow command per scaffold that failed (PARTIAL or FAILED) or
    regressed against ``previous_run_id``, on its scaffold file (relative to
    ``workspace``)."""
    regressed = set(regressions)
    lines = []
    for r in results:
        failing = r.shown_status in _FAILING
        if not failing and r.scaffold not in regressed:
            continue
        entry = manifest.scaffolds.get(r.scaffold)
        if entry is None:
            continue
        words = [f"{r.scaffold}: {r.shown_status}, pass rate {shown_rate(r.pass_rate, r.n)}"]
        words[0] += f" (n={r.n}) in run {manifest.run_id}"
        if r.scaffold in regressed:
            words.append(f"a significant drop against run {previous_run_id}")
        where = _escape_property(_repository_path(entry.file, workspace))
        lines.append(f"::error file={where}::{_escape_data('; '.join(words))}")
    return lines
