"""Code mode in the reports: each program of a scaffold, its verdicts by tier and size, its
first failing case and its time against the reference's, from the journal alone.

A program's record (:class:`~verification.store.records.ProgramRun`) holds every case's
outcome, level, reason and time, so ``report`` re-renders a code-mode run without running
anything. pass@1 is the share of programs that pass every case; pass@k the unbiased
estimate of Chen et al. (:mod:`verification.certify.pass_at_k`). Program text and outputs are
model-written: in Markdown each sits in a fence no line of it can close, on the page each is
escaped text.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup

from verification.cases import printable
from verification.certify.pass_at_k import pass_at_ks
from verification.reports.base import ReportContext
from verification.store.records import AttemptRecord, ProgramRun
from verification.store.summary_file import ProgramsSummary, RunSummary

__all__ = [
    "ProgramView",
    "SizeVerdict",
    "program_views",
    "programs_html",
    "programs_markdown",
    "programs_summary",
    "with_programs",
]

SHOWN_SOURCE_CHARS = 20_000
"""A program longer than this is cut in a report (the journal keeps it)."""


@dataclass(frozen=True)
class SizeVerdict:
    """A program's cases of one tier at one size: how many passed, failed, were not run."""

    tier: str
    size: int | None
    passed: int
    failed: int
    not_run: int


@dataclass(frozen=True)
class ProgramView:
    """One program as a report shows it."""

    program_id: str
    outcome: str
    level: int | None
    reason: str
    run: ProgramRun | None

    @property
    def passed(self) -> bool:
        return self.outcome == "passed"

    @property
    def sizes(self) -> list[SizeVerdict]:
        """Verdicts by tier and size, tiers in suite order, sizes increasing."""
        if self.run is None:
            return []
        groups: dict[tuple[str, int | None], list[str]] = {}
        for case in self.run.cases:
            groups.setdefault((case.tier, case.size), []).append(case.outcome)
        tiers = list(dict.fromkeys(case.tier for case in self.run.cases))
        return [
            SizeVerdict(
                tier,
                size,
                outcomes.count("passed"),
                outcomes.count("failed"),
                outcomes.count("not_run"),
            )
            for (tier, size), outcomes in sorted(
                groups.items(), key=lambda g: (tiers.index(g[0][0]), g[0][1] or 0)
            )
        ]

    @property
    def handled_up_to(self) -> int | None:
        """The largest size at which, and below which, every case passed within its time
        limit (``None`` when the smallest size already failed)."""
        if self.run is None:
            return None
        reached = None
        for size in sorted({c.size or 0 for c in self.run.cases}):
            if any(c.outcome != "passed" for c in self.run.cases if (c.size or 0) == size):
                break
            reached = size
        return reached

    @property
    def first_failing_size(self) -> int | None:
        """The size of the program's first failing case."""
        if self.run is None or self.run.first_failure is None:
            return None
        failed = self.run.first_failure.case_id
        return next((c.size for c in self.run.cases if c.case_id == failed), None)

    @property
    def harness_per_case(self) -> float | None:
        """The harness's own seconds per case the program ran (reading it, the sandbox
        beyond the cases' round trips, judging); ``None`` for a program sharing another's
        run, whose time is that one's."""
        if self.run is None or self.run.shared_with:
            return None
        ran = sum(c.outcome != "not_run" for c in self.run.cases)
        return self.run.harness_seconds / ran if ran else None

    @property
    def time_ratio(self) -> float | None:
        """The median, over the cases it ran, of its time over the reference's."""
        if self.run is None:
            return None
        ratios = [
            c.seconds / c.reference_seconds
            for c in self.run.cases
            if c.seconds is not None and c.reference_seconds > 0
        ]
        return statistics.median(ratios) if ratios else None


def program_views(records: Sequence[AttemptRecord], scaffold: str) -> list[ProgramView]:
    """The programs of ``scaffold`` in the journal, by id (each one's last attempt)."""
    last: dict[str, AttemptRecord] = {}
    for record in records:
        if record.scaffold == scaffold and record.is_program:
            last[record.case_id] = record
    views = []
    for identifier, record in sorted(last.items()):
        run = record.program
        shared = last.get(run.shared_with) if run and run.shared_with else None
        if run is not None and shared is not None and shared.program and not run.cases:
            # Executed once with the program it shares its source with: those cases.
            run = run.model_copy(update={"cases": shared.program.cases})
        views.append(ProgramView(identifier, record.outcome, record.level, record.reason, run))
    return views


def _fence(text: str, info: str = "") -> str:
    body = "\n".join(printable(line) for line in text.splitlines())
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    marker = "`" * max(3, longest + 1)
    return f"{marker}{info}\n{body}\n{marker}"


def _line(text: object, limit: int = 300) -> str:
    shown = printable(str(text), limit).replace("`", "'").replace("|", "\\|")
    return "`" + shown + "`"


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value * 1000:.2f} ms"


def _counted(views: Sequence[ProgramView]) -> list[ProgramView]:
    return [v for v in views if v.outcome in ("passed", "failed", "truncated")]


def programs_markdown(records: Sequence[AttemptRecord], scaffold: str) -> str:
    """The code-mode section of ``scaffold``'s Markdown report (empty without programs)."""
    views = program_views(records, scaffold)
    if not views:
        return ""
    counted = _counted(views)
    passing = sum(v.passed for v in counted)
    lines = [
        "",
        "## Programs (code mode)",
        "",
        f"{passing} of {len(counted)} programs pass every case "
        f"({len(views) - len(counted)} not counted: infrastructure errors or refusals).",
        "",
    ]
    for k, value in pass_at_ks(len(counted), passing).items():
        lines.append(f"- pass@{k}: {value:.1%}")
    lines += [
        "",
        "| program | verdict | first failing case | handled up to size | time vs reference "
        "| harness per case |",
        "|---|---|---|---|---|---|",
    ]
    for view in views:
        failure = view.run.first_failure if view.run else None
        first = (
            f"{_line(failure.case_id)} (size {view.first_failing_size}, level {failure.level})"
            if failure
            else ("-" if view.passed else _line(view.reason, 120))
        )
        ratio = view.time_ratio
        lines.append(
            f"| {view.program_id} | {view.outcome} | {first} | "
            f"{'-' if view.handled_up_to is None else view.handled_up_to} | "
            f"{'-' if ratio is None else f'{ratio:.2f}x'} | {_seconds(view.harness_per_case)} |"
        )
    for view in views:
        lines += ["", f"### {view.program_id}: {view.outcome}", ""]
        if view.run is None or (view.run.source is None and not view.run.shared_with):
            lines.append(f"No program: {_line(view.reason)}")
            continue
        if view.run.shared_with:
            lines.append(
                f"The same source as {view.run.shared_with}, executed once: its results "
                "are that program's, shown there."
            )
            continue
        lines += ["| tier | size | passed | failed | not run |", "|---|---|---|---|---|"]
        lines += [
            f"| {s.tier} | {s.size} | {s.passed} | {s.failed} | {s.not_run} |" for s in view.sizes
        ]
        failure = view.run.first_failure
        if failure is not None:
            lines += [
                "",
                f"First failing case {_line(failure.case_id)} at size "
                f"{view.first_failing_size}, level {failure.level}: {_line(failure.reason)}",
                "",
                "Input:",
                "",
                _fence(failure.input, "json"),
                "",
                "Expected:",
                "",
                _fence(failure.expected, "json"),
                "",
                "Actual:",
                "",
                _fence(failure.actual or "(no value)", "json"),
            ]
        lines += ["", "| case | outcome | program time | reference time |", "|---|---|---|---|"]
        lines += [
            f"| {c.case_id} | {c.outcome} | {_seconds(c.seconds)} | "
            f"{_seconds(c.reference_seconds)} |"
            for c in view.run.cases
        ]
        source = view.run.source or ""
        lines += ["", "Program:", "", _fence(source[:SHOWN_SOURCE_CHARS], "python")]
    return "\n".join(lines) + "\n"


def programs_html(records: Sequence[AttemptRecord]) -> Markup:
    """The page's code-mode section: every program of every scaffold, as escaped text
    (empty without programs)."""
    scaffolds = list(dict.fromkeys(r.scaffold for r in records if r.is_program))
    if not scaffolds:
        return Markup("")
    parts = [Markup('<h2 id="programs">Programs (code mode)</h2>')]
    for scaffold in scaffolds:
        views = program_views(records, scaffold)
        counted = _counted(views)
        passing = sum(v.passed for v in counted)
        ks = ", ".join(f"pass@{k} {v:.1%}" for k, v in pass_at_ks(len(counted), passing).items())
        parts.append(
            Markup("<h3>{}</h3><p>{} of {} programs pass every case; {}</p>").format(
                scaffold, passing, len(counted), ks
            )
        )
        for view in views:
            parts.append(_program_html(view))
    return Markup("").join(parts)


def _program_html(view: ProgramView) -> Markup:
    run = view.run
    head = Markup("<details><summary>{}: {} {}</summary>").format(
        view.program_id, view.outcome, printable(view.reason, 300)
    )
    if view.harness_per_case is not None:
        head += Markup("<p>The harness's own time per case: {}</p>").format(
            _seconds(view.harness_per_case)
        )
    if run is None or run.source is None or run.shared_with:
        shared = run.shared_with if run is not None else None
        note = Markup("<p>The same source as {}, executed once.</p>").format(shared)
        return head + (note if shared else Markup("")) + Markup("</details>")
    rows = Markup("").join(
        Markup("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>").format(
            s.tier, s.size, s.passed, s.failed, s.not_run
        )
        for s in view.sizes
    )
    body = Markup(
        "<table><thead><tr><th>tier</th><th>size</th><th>passed</th><th>failed</th>"
        "<th>not run</th></tr></thead><tbody>{}</tbody></table>"
    ).format(rows)
    if run.first_failure is not None:
        failure = run.first_failure
        body += Markup(
            "<p>First failing case {} (size {}, level {}): {}</p>"
            "<p>Input</p><pre>{}</pre><p>Expected</p><pre>{}</pre><p>Actual</p><pre>{}</pre>"
        ).format(
            failure.case_id,
            view.first_failing_size,
            failure.level,
            _text(failure.reason),
            _text(failure.input),
            _text(failure.expected),
            _text(failure.actual or "(no value)"),
        )
    times = Markup("").join(
        Markup("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>").format(
            c.case_id, c.outcome, _seconds(c.seconds), _seconds(c.reference_seconds)
        )
        for c in run.cases
    )
    body += Markup(
        "<table><thead><tr><th>case</th><th>outcome</th><th>program time</th>"
        "<th>reference time</th></tr></thead><tbody>{}</tbody></table><pre>{}</pre>"
    ).format(times, _text(run.source[:SHOWN_SOURCE_CHARS]))
    return head + body + Markup("</details>")


def _text(text: str) -> str:
    """A program's text or output for the page, its lines and tabs kept and every other
    character that is not printable escaped (a page saved and read with ``cat`` shows no
    escape code): HTML escaping, markupsafe's, comes after."""
    return "\n".join(
        "\t".join(printable(part) for part in line.split("\t")) for line in text.split("\n")
    )


def programs_summary(records: Sequence[AttemptRecord], scaffold: str) -> ProgramsSummary | None:
    """``summary.json``'s figures of ``scaffold``'s programs (``None`` without any)."""
    views = program_views(records, scaffold)
    if not views:
        return None
    counted = _counted(views)
    passing = sum(v.passed for v in counted)
    return ProgramsSummary(
        programs=len(counted),
        passing=passing,
        pass_at_k={str(k): v for k, v in pass_at_ks(len(counted), passing).items()},
        first_failing_sizes={v.program_id: v.first_failing_size for v in counted if not v.passed},
        handled_up_to={v.program_id: v.handled_up_to for v in counted},
        harness_seconds_per_case={
            v.program_id: round(v.harness_per_case, 9)
            for v in counted
            if v.harness_per_case is not None
        },
    )


def program_records(context: ReportContext) -> list[AttemptRecord]:
    """The run's code-mode program records, in journal order: picked from the journal once
    per context, for every report that shows the programs."""
    shared = context.shared.get("programs")
    if shared is None:
        shared = context.shared["programs"] = [r for r in context.records if r.is_program]
    return list(shared)


def with_programs(summary: RunSummary, records: Sequence[AttemptRecord]) -> RunSummary:
    """``summary`` with each code-mode scaffold's :class:`ProgramsSummary` filled in."""
    if not any(r.is_program for r in records):
        return summary
    scaffolds = {
        name: entry.model_copy(update={"programs": programs_summary(records, name)})
        for name, entry in summary.scaffolds.items()
    }
    return summary.model_copy(update={"scaffolds": scaffolds})
