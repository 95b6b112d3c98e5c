"""The harness's own time per case, stage by stage, with the reference (dry-run) answers.

Run: ``python benchmarks/harness_overhead.py [--cases 30] [--repeat 5]``. Prints, per
scaffold, the median microseconds per case spent generating the case (generator and
reference), building its prompt, parsing the answer, validating it and journalling the
attempt, and the mean per case of folding the scaffold's results and rendering its report;
then a whole dry run in process (an instant provider: everything but the network), its wall
and CPU time per answer against the goal (:data:`GOAL_MS`, 0.4 ms): one of ``--cases``
cases a scaffold, and one of the standard level as ``verify --all`` runs it by default.
These are the figures to compare with a model's latency (seconds per answer);
``benchmarks/cold_start.py`` times ``list``, ``benchmarks/throughput.py`` the harness
beside the bare SDK.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from verification.certify.results import ScaffoldResults
from verification.config import load_settings
from verification.generators.base import TIERS, generate_case
from verification.llm.prompt_builder import PromptBuilder
from verification.llm.response_parser import ResponseParser
from verification.registry import SPECS, plan_tier_counts
from verification.reports.generator import ReportGenerator, write_run_reports
from verification.runner import VerificationRunner
from verification.store.journal import JournalWriter
from verification.store.records import AttemptRecord, cap_response

T = TypeVar("T")
STAGES = ("generate", "prompt", "parse", "validate", "journal", "fold", "report")


def _timed(fn: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, float]:
    """``fn(*args, **kwargs)`` and the seconds it took."""
    started = time.perf_counter()
    result = fn(*args, **kwargs)
    return result, time.perf_counter() - started


def per_case_stage_times(cases: int, seed: int) -> dict[str, dict[str, float]]:
    """Median seconds per case for each stage, per scaffold."""
    builder = PromptBuilder(load_settings().scaffolds_dir)
    parser = ResponseParser()
    figures: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        journal = JournalWriter(Path(folder) / "results.jsonl")
        reports = ReportGenerator(Path(folder) / "reports")
        for name, spec in SPECS.items():
            builder.get_scaffold_content(name)  # read once per run, as the runner does
            samples: dict[str, list[float]] = {stage: [] for stage in STAGES}
            records: list[AttemptRecord] = []
            counts = plan_tier_counts(cases)
            for tier in TIERS:
                for index in range(counts[tier]):
                    case, seconds = _timed(generate_case, spec, tier, index, seed=seed)
                    samples["generate"].append(seconds)
                    samples["prompt"].append(_timed(builder.build, name, case.input)[1])
                    reply = "Work shown here.\n\n" + spec.render_answer(case.expected)
                    parsed, seconds = _timed(parser.extract, name, reply)
                    samples["parse"].append(seconds)
                    verdict, seconds = _timed(
                        spec.validator.validate, parsed.answer, case.expected, case=case
                    )
                    assert verdict.is_valid, (case.id, verdict.message)
                    samples["validate"].append(seconds)
                    raw, chars, digest = cap_response(reply)
                    record = AttemptRecord(
                        scaffold=name,
                        case_id=case.id,
                        index=index,
                        epoch=0,
                        attempt=1,
                        tier=tier,
                        input=case.input,
                        expected=case.expected,
                        outcome="passed",
                        level=None,
                        reason="",
                        leniency=[],
                        answer=parsed.answer,
                        raw_response=raw,
                        raw_response_chars=chars,
                        raw_response_sha256=digest,
                        stop_reason="end_turn",
                        usage={},
                        latency_s=0.0,
                        model="reference",
                        finished_at="",
                    )
                    samples["journal"].append(_timed(journal.append, record)[1])
                    records.append(record)
            # Folding and rendering take a scaffold's answers at once: their mean per case.
            results, seconds = _timed(
                ScaffoldResults.from_records, name, records, planned=len(records)
            )
            samples["fold"].append(seconds / len(records))
            seconds = _timed(reports.render_scaffold_report, results)[1]
            samples["report"].append(seconds / len(records))
            figures[name] = {stage: statistics.median(v) for stage, v in samples.items()}
        journal.close()
    return figures


GOAL_MS = 0.4
"""The goal: the harness's own CPU per answer, end to end in process (issue 27 item 16)."""


def dry_run_seconds(cases: int | None) -> tuple[float, float, float, int]:
    """Wall and CPU time of a whole in-process dry run over every scaffold (plan, answer,
    journal, fold with calibration, reports), the CPU time of its reports alone, and the
    answers it made (each one asked: a copy of an input asked before, which no look counts,
    costs as much). ``cases`` ``None``: the standard level as ``verify --all`` runs it (its
    plan up to the cap of 180 cases a scaffold, asked look by look: the reference's right
    answers stop each scaffold at the first look that decides)."""
    with tempfile.TemporaryDirectory() as folder:
        chosen = {} if cases is None else {"cases": cases}
        settings = load_settings(provider="reference", results_dir=Path(folder), **chosen)
        started, cpu = time.perf_counter(), time.process_time()
        result = asyncio.run(VerificationRunner(settings).run(list(SPECS)))
        reports = time.process_time()
        write_run_reports(  # as the command line does after a run
            result.paths,
            result.manifest,
            result.results,
            costs=result.costs,
            records=result.records,
        )
        reports = time.process_time() - reports
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    return elapsed, cpu, reports, sum(len(r.results) for r in result.results.values())


def verdict(cpu: float, answers: int) -> str:
    """The figure against :data:`GOAL_MS`, in one line."""
    per_answer = 1000 * cpu / max(answers, 1)
    met = "met" if per_answer <= GOAL_MS else f"missed by {per_answer - GOAL_MS:.2f} ms"
    return f"{per_answer:.2f} ms CPU per answer; goal at most {GOAL_MS} ms: {met}"


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--cases", type=int, default=30)
    options.add_argument("--repeat", type=int, default=5)
    options.add_argument("--seed", type=int, default=20261122)
    args = options.parse_args()

    figures = per_case_stage_times(args.cases, args.seed)
    print(f"harness time per case, median microseconds ({args.cases} cases per scaffold)")
    print(f"{'scaffold':<16}" + "".join(f"{s:>10}" for s in STAGES) + f"{'total':>10}")
    for name, stages in figures.items():
        total = sum(stages.values())
        print(
            f"{name:<16}"
            + "".join(f"{1e6 * stages[s]:>10.0f}" for s in STAGES)
            + f"{1e6 * total:>10.0f}"
        )
    print()
    for cases, run in ((args.cases, f"--cases {args.cases}"), (None, "the standard level")):
        runs = [dry_run_seconds(cases) for _ in range(args.repeat)]
        elapsed, cpu, reports, answers = min(runs, key=lambda run: run[1])
        print(
            f"dry run of every scaffold in process, {run} (best of {args.repeat}): "
            f"{elapsed:.2f} s wall, {cpu:.2f} s CPU for {answers} answers ({reports:.2f} s "
            f"of it the reports): {verdict(cpu, answers)}, reports included"
        )


if __name__ == "__main__":
    main()
