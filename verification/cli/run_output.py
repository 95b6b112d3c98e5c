"""What a run that ended prints: its summary, cost and exit code, or how to resume it."""

from __future__ import annotations

import contextlib
import math
import os
import shlex
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from verification.cli.exit_codes import regression_exit, results_exit_code
from verification.cli.terminal import sigterm_as_ctrl_c
from verification.errors import VerificationError

if TYPE_CHECKING:
    from verification.certify.answers import TestResult
    from verification.config import RunConfig
    from verification.runner import RunResult, VerificationRunner

__all__ = [
    "NO_OUTPUTS",
    "RunOutputs",
    "finish_run",
    "larger_budget",
    "print_annotations",
    "print_cost",
    "print_run_notes",
    "print_summary",
    "say_how_to_resume",
]


def larger_budget(budget: float, spent: float | None) -> float:
    """The budget a resume stopped at ``budget`` is offered: twice it, or twice what was
    spent where that is more (usage past the worst cases a run reserved passed the budget,
    and twice the budget stopped again at once: hunt qq), rounded up to two significant
    figures.

    Examples
    --------
    >>> larger_budget(1.0, 0.8), larger_budget(1.0, 7350.0), larger_budget(0.0045, None)
    (2.0, 15000.0, 0.009)
    >>> larger_budget(1e-13, None), larger_budget(5e-324, None) > 0
    (2e-13, True)
    """
    wanted = min(2 * max(budget, spent or 0.0), sys.float_info.max)
    if not 0 < wanted < math.inf:
        return wanted
    places = 1 - math.floor(math.log10(wanted))  # two significant figures
    step = 10.0**-places
    if step == 0.0 or not math.isfinite(step):  # past what a double holds: as it is
        return wanted
    return min(
        max(round(math.ceil(wanted / step - 1e-9) * step, places), wanted), sys.float_info.max
    )


def say_how_to_resume(
    runner: VerificationRunner, prog: str, *, asked: bool = False, bar: Any = None
) -> None:
    """Tell how to go on with a run that stopped (once its directory exists): ``asked``
    when the user stopped it (Ctrl-C, SIGTERM), which is no failure to fix. A progress
    ``bar`` still shown is taken down first: a live bar wraps what is printed beside it at
    the terminal's width, and a command wrapped so fails when pasted."""
    if bar is not None:
        bar.close()
    if not runner.run_id:
        return
    from verification.cases import printable
    from verification.run.resuming import resume_command

    asks_no_model = runner.provider is not None and runner.provider.dry_run
    command = resume_command(
        runner.run_id,
        runner.settings,
        prog=prog,
        model=None if asks_no_model else runner.model,
    )
    why = "stopped as asked" if asked else "stopped by the error below"
    then = "continue with" if asked else "after fixing the cause, continue with"
    print(
        f"run {runner.run_id}: {why}; its finished answers are kept in its journal; "
        # Shell quoting leaves a control character as it is: escaped, no name in the
        # command (an edited manifest's model, say) writes to the terminal.
        f"{then}: {printable(command)}",
        file=sys.stderr,
    )
    # A pair's first run: the second never began. (A bare run that asked a bare arm's
    # failures again is no pair's; one that is goes unsaid, a hint lost.)
    if runner.arm in ("bare", "current") and runner.reruns is None:
        # --resume finishes this run alone, and nothing said so (hunt ii). A stop in the
        # second run is said where the pair is run (RunCommands._verify_with_baseline).
        print(
            f"run {runner.run_id} is the first ({runner.arm}) run of a --baseline pair: "
            "--resume finishes it alone; the pair's command, given again, makes both runs "
            "and their comparison, the answers already asked coming from the response cache "
            "(unless --no-cache)",
            file=sys.stderr,
        )


@dataclass(frozen=True)
class RunOutputs:
    """What a finished run writes and decides beyond its reports, as ``verify`` and
    ``merge`` are asked: CI files, ``--export`` files, the summary as JSON, the gate."""

    junit_xml: Path | None = None
    junit_cases: Path | None = None
    fail_on_regression: bool = False
    exports: Sequence[Path] = ()
    as_json: bool = False
    """Standard output is the run's ``summary.json`` alone; the lines for people go to
    standard error."""

    def named(self) -> str:
        """The options given, as the command line names them (empty when none is)."""
        return " and ".join(
            option
            for option, value in (
                ("--export", self.exports),
                ("--json", self.as_json),
                ("--junit-xml", self.junit_xml),
                ("--junit-cases", self.junit_cases),
                ("--fail-on-regression", self.fail_on_regression),
            )
            if value
        )


NO_OUTPUTS = RunOutputs()
"""A run asked for its reports alone."""


def _for_people(outputs: RunOutputs) -> contextlib.AbstractContextManager[Any]:
    """Where the lines for people go: standard error when standard output carries the
    run's ``--json`` summary, else standard output."""
    if outputs.as_json:
        return contextlib.redirect_stdout(sys.stderr)
    return contextlib.nullcontext()


def finish_run(
    outcome: RunResult,
    outputs: RunOutputs,
    *,
    settings: RunConfig,
    prog: str,
    junit_append: bool = False,
    json_out: TextIO | None = None,
) -> int:
    """Write a finished run's reports (and its ``outputs``), print its summary and cost
    (and the command that goes on with it, asked with ``settings`` as ``prog``), and return
    its exit code. ``junit_append``: the run's JUnit suite joins the file an earlier model
    of the invocation wrote (and its cases' suites the cases file)."""
    from verification.reports.ci import run_reporters
    from verification.reports.exports import export_reporters
    from verification.reports.generator import write_run_reports

    reporters = run_reporters(
        junit_xml=outputs.junit_xml,
        step_summary=os.environ.get("GITHUB_STEP_SUMMARY"),
        junit_append=junit_append,
        junit_cases=outputs.junit_cases,
    )
    try:
        with sigterm_as_ctrl_c():
            summary = write_run_reports(
                outcome.paths,
                outcome.manifest,
                outcome.results,
                costs=outcome.costs,
                reporters=(*reporters, *export_reporters(outputs.exports, outcome.paths)),
                records=outcome.records,
            )
    except (KeyboardInterrupt, VerificationError, OSError) as exc:
        # Ctrl-C or SIGTERM, or a report that cannot be written (a full disk): every answer
        # is kept, the reports not all.
        command = shlex.join(
            [
                *shlex.split(prog),
                "report",
                outcome.paths.run_id,
                "--output",
                str(settings.results_dir),
            ]
        )
        why = (
            "stopped as asked while its reports were written"
            if isinstance(exc, KeyboardInterrupt)
            else "its reports could not all be written (the error below)"
        )
        if not isinstance(exc, KeyboardInterrupt):
            # The statuses are known: a report that cannot be written does not hide them.
            with _for_people(outputs):
                print_summary(
                    outcome.results.values(),
                    outcome.manifest.run_label,
                    None,
                    outcome.manifest.level,
                )
        print(
            f"run {outcome.paths.run_id}: {why}; every answer is in its journal; write its "
            f"reports with: {command}",
            file=sys.stderr,
        )
        raise
    with _for_people(outputs):
        print_summary(
            outcome.results.values(), outcome.manifest.run_label, summary, outcome.manifest.level
        )
        print_run_notes(outcome)
        print_cost(outcome, settings, prog)
        if outcome.manifest.shard is not None:
            print(
                f"shard {outcome.manifest.shard.index}/{outcome.manifest.shard.count}: not "
                "published to <output>/reports; `merge` the shards' run folders for the run"
            )
    if outputs.as_json:  # to ``json_out``: the caller's standard output, where it took it over
        summary_text = (outcome.paths.reports / "summary.json").read_text("utf-8")
        print(summary_text, end="", file=json_out or sys.stdout)
    code = results_exit_code(outcome.results.values(), outcome.manifest.level)
    with _for_people(outputs):
        if os.environ.get("GITHUB_ACTIONS") == "true":
            print_annotations(outcome, summary)
        return regression_exit(
            summary,
            code,
            results_dir=outcome.paths.results_dir,
            prog=prog,
            fail=outputs.fail_on_regression,
        )


def print_summary(
    results: Any, label: str | None, summary: Path | None, level: str | None = None
) -> None:
    """Each scaffold's status line, then what the statuses alone do not say, then where the
    run's summary report is (``summary`` ``None``: it could not be written)."""
    from verification.reports.base import shown_rate

    if label:
        print(f"{label}: no model was asked; this run certifies no model.")
    results = list(results)
    if level == "quick":
        print("quick level: a smoke test; it certifies nothing and exits 0 unless errors.")
    for reason in dict.fromkeys(r.uncertified for r in results if r.uncertified):
        print(f"NOT CERTIFIED: {reason}; each status reads UNCERTIFIED.")
    for r in results:
        low, high = r.interval
        mark = " (borderline)" if r.borderline else ""
        worst = r.worst_case_rate
        errors = f"infra errors {r.infra_errors}" + (
            f": worst case {100 * worst:.1f}% had they failed" if worst is not None else ""
        )
        # The status counts the level's errors; those of a sweep's sizes are listed below
        # too, and read as a contradiction beside a 0 (hunt ff).
        swept = sum(t.outcome == "infra_error" for t in r.results) - r.infra_errors
        if r.size_points and swept > 0:
            errors += f"; {swept} more at the swept sizes"
        print(
            f"{r.scaffold:<24} {r.shown_status + mark:<24} {shown_rate(r.pass_rate, r.n):>6} "
            f"(n={r.n}, 95% CI {100 * low:.1f}-{100 * high:.1f}%, {errors})"
        )
    print_infra_reasons(results)
    for r in results:  # a harness defect the status line alone does not name
        if r.incomplete_reason and r.incomplete_reason.startswith("validator"):
            print(f"{r.scaffold}: INCOMPLETE, {r.incomplete_reason} (its report says why)")
    from verification.llm.dry_run import ReferenceProvider

    if label == ReferenceProvider.label:
        # The reference answers every case right: a failure is the spec's, not a model's.
        for r in results:
            if r.status in ("PARTIAL", "FAILED"):
                print(
                    f"{r.scaffold}: {r.status} on the reference's own answers, a defect of its "
                    f"spec (render_answer, the parser or the validator): `check {r.scaffold}` "
                    "names it"
                )
    from verification.cases import printable

    if summary is None:
        print("report: not written (see below)")
    else:
        print(f"report: {printable(str(summary))}")


def print_infra_reasons(results: list[Any]) -> None:
    """Why the answers that hit infrastructure errors were lost: each reason once, with how
    many cases it took (a replay file lacking a scaffold's cases is one line, not forty)."""
    from verification.reports.base import infra_reasons

    for r in results:
        for reason, cases in infra_reasons(r)[:3]:
            print(
                f"{r.scaffold}: {len(cases)} infrastructure error(s), not counted: {reason} "
                f"(e.g. {cases[0]})"
            )


def print_annotations(outcome: RunResult, summary: Path) -> None:
    """Under GitHub Actions, an ``::error`` line on each scaffold file that failed or
    regressed (the regressions read from the run's ``summary.json`` beside ``summary``)."""
    from verification.reports.ci import github_annotations
    from verification.store.summary_file import RunSummary

    data = RunSummary.from_json(summary.with_suffix(".json").read_bytes())
    workspace = Path(os.environ.get("GITHUB_WORKSPACE") or Path.cwd())
    for line in github_annotations(
        outcome.manifest,
        outcome.results.values(),
        data.regressions or (),
        data.previous_run_id,
        workspace=workspace,
    ):
        print(line)


def print_run_notes(outcome: RunResult, arm: str | None = None) -> None:
    """Say on the terminal what the reports say of how the answers came: from the response
    cache (no model was called for them), or fewer because a look of the plan decided; each
    line led by ``arm``, the run's label in a pair (hunt ad: a pair said none of it)."""
    for line in _run_notes(outcome):
        print(line if arm is None else f"{arm}: {line}")


def _run_notes(outcome: RunResult) -> Iterator[str]:
    """The lines of :func:`print_run_notes`."""
    from verification.certify.envelope_search import envelope_result
    from verification.certify.sequential import plan_from_record
    from verification.run.answers import CONTEXT_REFUSED

    stops = outcome.manifest.early_stops or {}
    cached = {r.scaffold: r.from_cache for r in outcome.results.values() if r.from_cache}
    for r in outcome.results.values():
        searched = envelope_result(r, outcome.manifest, ())
        if searched is not None:
            yield f"{r.scaffold}: envelope search: {searched.listed}"
        if len(cached) == 1 and r.from_cache:
            yield (
                f"{r.scaffold}: {r.from_cache} answer(s) from the response cache (no model "
                "call; --no-cache asks the model again)"
            )
        refused = sum((c.validation_message or "").startswith(CONTEXT_REFUSED) for c in r.results)
        if refused:
            yield (
                f"{r.scaffold}: {refused} case(s) did not fit the model's context window "
                "(the server refused them, HTTP 400; none of that size or larger was asked "
                "after): not counted; give the server a larger context (vLLM "
                "--max-model-len, llama.cpp -c), then --resume asks them"
            )
        odd = _unknown_stop_reasons(r.results)
        if odd:
            yield (
                f"{r.scaffold}: {odd} (judged as finished replies: a reply the server cut short "
                "fails as a wrong answer, not as truncated)"
            )
        stop = stops.get(r.scaffold)
        if stop is not None:
            # The look and its cases are the level's plan's: a swept run's case ids also
            # hold every size's cases, each size decided by a plan of its own.
            record = outcome.manifest.plan
            planned = (
                plan_from_record(record).cap
                if record is not None
                else len(outcome.manifest.scaffolds[r.scaffold].case_ids)
            )
            decided = f"{r.scaffold}: stopped early at n = {r.n}: look {stop.look} of {stop.looks}"
            if stop.cases == r.n:
                decided += f" decided after {stop.cases} of {planned} planned cases"
            else:  # asked past the deciding case (copies, errors, answers in flight): hunt gg
                decided += (
                    f" decided on the first {r.n} counted; {stop.cases} of {planned} planned "
                    "cases had been asked (copies of an earlier input, and cases past the "
                    "deciding one, are shown, not counted)"
                )
            yield f"{decided}; the cases not asked are not missing"

    if len(cached) > 1:  # one line, not one per scaffold (a run of the catalog: 33)
        yield (
            f"{sum(cached.values())} answer(s) from the response cache, for {len(cached)} "
            "scaffold(s) (no model call for them; --no-cache asks the model again; each scaffold's "
            "count is in its report)"
        )


def _unknown_stop_reasons(results: Iterable[TestResult]) -> str:
    """How many judged replies ended with a stop reason the harness does not read (none
    of :data:`~verification.llm.replies.KNOWN_STOP_REASONS`, or none at all), and which;
    empty when there is none."""
    from verification.cases import printable
    from verification.llm.replies import KNOWN_STOP_REASONS

    odd = Counter(
        c.stop_reason
        for c in results
        if c.outcome != "infra_error" and c.stop_reason not in KNOWN_STOP_REASONS
    )
    if not odd:
        return ""
    named = [
        "no stop reason" if reason is None else printable(repr(reason), 40)
        for reason, _ in odd.most_common(3)
    ]
    more = f" and {len(odd) - 3} more" if len(odd) > 3 else ""
    return (
        f"{odd.total()} reply(ies) ended with a stop reason the harness does not read: "
        f"{', '.join(named)}{more}"
    )


def print_cost(outcome: RunResult, settings: RunConfig, prog: str, arm: str | None = None) -> None:
    """The run's cost (none in a dry run), and how to go on where its budget stopped it;
    each line led by ``arm``, the run's label in a pair."""
    lead = "" if arm is None else f"{arm}: "
    from verification.cases import printable
    from verification.certify.costs import total_cost
    from verification.store.pricing import free_price

    manifest = outcome.manifest
    if manifest.dry_run or manifest.cost_basis is None:
        return
    basis = manifest.cost_basis
    cost = total_cost(outcome.costs, basis)
    paid_nothing = not cost.live_calls and not cost.batch_answers  # every answer cached
    usd = (
        f"${cost.usd or 0.0:.4f}"
        if cost.usd is not None or paid_nothing
        else f"unknown (no price known for {printable(basis.model, 100)}: set VERIFY_PRICES; "
        f"a model on your own server costs nothing with {free_price(basis.model)})"
    )
    batch = f" and {cost.batch_answers} batch answer(s)" if cost.batch_answers else ""
    # A provider that never marks a prompt for caching has nothing to say of it every run.
    cache = f"; prompt cache: {cost.prompt_cache.detail}" if basis.prompt_caching else ""
    # A resume's line is the whole run's, as its reports are, and says what it asked itself
    # (hunt vv: "for 30 live call(s)" of a resume that sent none read as its own).
    now = outcome.calls_now
    run = "" if now is None else f" in the run's journal, {now} of them by this resume"
    print(f"{lead}cost: {usd} for {cost.live_calls} live call(s){batch}{run}{cache}")
    if cost.worst_case_calls:
        print(
            f"{lead}cost: {cost.worst_case_calls} call(s) came back with no readable token counts: "
            "each is counted above at its worst case (its prompt estimated, its whole output "
            "budget)"
        )
    if manifest.stopped_by_budget and basis.max_cost is not None:
        from verification.run.resuming import resume_command

        spent = "an unknown sum" if cost.usd is None else f"${cost.usd:.4f}"
        command = resume_command(
            manifest.run_id,
            settings.model_copy(update={"results_dir": outcome.paths.results_dir}),
            prog=prog,
            model=manifest.model_requested,
            max_cost=larger_budget(basis.max_cost, cost.usd),
        )
        past = ""
        if cost.usd is not None and cost.usd > basis.max_cost:
            # A resume that asked nothing was given less than the run had spent before it:
            # no answer reported too much (hunt ak: it was blamed on their token counts).
            past = (
                "; the run had spent that before this resume, more than the budget given"
                if outcome.calls_now == 0
                else "; the answers reported more tokens than their worst cases allowed, so "
                "the spend is already past the budget"
            )
        print(
            f"{lead}stopped at the --max-cost budget: {spent} of ${basis.max_cost:g} spent{past}, "
            "and a case is started only when its worst case (its prompt and its whole output "
            "budget, for each attempt it may make) fits in what is left; continue with "
            f"a larger budget: {printable(command)}",
            file=sys.stderr,
        )
