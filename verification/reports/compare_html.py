"""``compare RUN_A RUN_B --html``: the paired comparison as a page of the run page's kind.

One row per scaffold both runs hold (the figures ``compare`` prints, on case scores: every
sample counts), then every case both answered, shown by its first sample's first attempt,
the discordant ones first (only A passed, then only B passed), each with both runs'
verdicts, parsed answers and raw replies side by side. With ``--samples`` the rows and the
case list can differ: a case's later samples are in the run pages, not here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from verification.cases import printable
from verification.certify.lift import PairLift
from verification.certify.results import ScaffoldResults, TestResult
from verification.errors import ConfigurationError
from verification.reports.base import RunEntry, write_report
from verification.reports.compare import RunPairing
from verification.reports.history import by_scaffold
from verification.reports.html import (
    HTML_REPORT_NAME,
    answer_view,
    attempt_view,
    attempts_by_case,
    journal_name,
    render_page,
    run_model,
    safe_json,
    scaffolds_named,
)
from verification.reports.lift import lift_summaries
from verification.store.paths import leads_out

__all__ = ["comparison_page_data", "default_comparison_path", "write_comparison_page"]

_ORDER = ("only A passed", "only B passed", "both failed", "both passed")
"""Discordant cases first: what changed between the runs."""


def _first_answers(entry: RunEntry, records: list[Any]) -> dict[str, dict[str, TestResult]]:
    """Scaffold -> case id -> the first sample's answer (infrastructure errors are none):
    what the page shows of each case."""
    answers = {}
    mine = by_scaffold(records)
    for name, scaffold in entry.manifest.scaffolds.items():
        planned = len(scaffold.case_ids)
        folded = ScaffoldResults.from_records(name, mine.get(name, []), planned=planned)
        answers[name] = {
            r.test_case.id: r for r in folded.results if r.epoch == 0 and r.outcome != "infra_error"
        }
    return answers


def _label(passed_a: bool, passed_b: bool) -> str:
    if passed_a == passed_b:
        return "both passed" if passed_a else "both failed"
    return "only A passed" if passed_a else "only B passed"


def comparison_page_data(pairing: RunPairing, lift: PairLift | None = None) -> dict[str, Any]:
    """What the comparison page shows, as JSON data (``lift``: a ``--baseline none``
    pair's, shown as the run pages show it)."""
    records_a, records_b = pairing.a.records(), pairing.b.records()
    answers_a, answers_b = (
        _first_answers(pairing.a, records_a),
        _first_answers(pairing.b, records_b),
    )
    chains_a, chains_b = attempts_by_case(records_a), attempts_by_case(records_b)
    journal_a, journal_b = journal_name(pairing.a.run_id), journal_name(pairing.b.run_id)
    cases = []
    for row in pairing.rows:
        a, b = answers_a[row.scaffold], answers_b[row.scaffold]
        redrawn = pairing.redrawn.get(row.scaffold, frozenset())
        for case_id in [c for c in b if c in a and c not in redrawn]:  # one question each
            first_a = [r for r in chains_a[case_id] if r.epoch == 0]
            first_b = [r for r in chains_b[case_id] if r.epoch == 0]
            result_a, result_b = a[case_id], b[case_id]
            failing = result_b if not result_b.passed else result_a
            cases.append(
                {
                    "id": case_id,
                    "scaffold": row.scaffold,
                    "tier": result_b.test_case.tier,
                    "size": first_b[0].size if first_b else None,
                    "outcome": _label(result_a.passed, result_b.passed),
                    "level": None if failing.passed else failing.level,
                    "message": "A: "
                    + answer_view(result_a)["message"]
                    + " | B: "
                    + answer_view(result_b)["message"],
                    "input": safe_json(result_b.test_case.input),
                    "expected": safe_json(result_b.expected),
                    "pair": {
                        "a": {
                            **answer_view(result_a),
                            "attempts": [attempt_view(r, journal_a) for r in first_a],
                        },
                        "b": {
                            **answer_view(result_b),
                            "attempts": [attempt_view(r, journal_b) for r in first_b],
                        },
                    },
                }
            )
    cases.sort(key=lambda case: _ORDER.index(case["outcome"]))
    fields = [
        ("A", pairing.a.run_id),
        ("B", pairing.b.run_id),
        ("models", f"{_model(pairing.a)} / {_model(pairing.b)}"),
        ("levels", f"{pairing.a.manifest.level or '-'} / {pairing.b.manifest.level or '-'}"),
        ("the runs differ in", "; ".join(pairing.differences) or "nothing history compares"),
        ("answers lost", " | ".join(pairing.losses()) or "none: each answered every case"),
        (
            "cases",
            "case scores (every sample) of each case both runs answered; rates on those "
            "cases; difference: Newcombe's paired score interval; exact sign test (McNemar "
            f"with one sample), two-sided, Holm-corrected across {len(pairing.rows)} "
            "scaffold(s)",
        ),
    ]
    named = scaffolds_named([row.scaffold for row in pairing.rows])
    title = printable(
        f"{named}: run {pairing.a.run_id} (A, {_model(pairing.a)}) against "
        f"{pairing.b.run_id} (B, {_model(pairing.b)})",
        300,
    )
    return {
        "title": title,
        "run": {
            "title": title,
            "run_id": pairing.b.run_id,
            "dry_run": False,
            "run_label": None,
            "fields": [(name, printable(value, 300)) for name, value in fields],
        },
        "summary": None,
        "pairing": [
            {
                "scaffold": row.scaffold,
                "shared": row.comparison.shared,
                "only_a": row.comparison.only_a,
                "only_b": row.comparison.only_b,
                "p_value": row.comparison.p_value,
                "p_holm": row.p_holm,
                "rate_a": row.comparison.rate_a,
                "rate_b": row.comparison.rate_b,
                "difference": row.comparison.difference,
                "interval": list(row.comparison.interval),
                "verdict": row.verdict(),
            }
            for row in pairing.rows
        ],
        "lift": None
        if lift is None
        else {name: one.model_dump(mode="json") for name, one in lift_summaries(lift).items()},
        "cases": cases,
    }


def _model(entry: RunEntry) -> str:
    return run_model(entry.manifest)


def default_comparison_path(results_dir: Path, pairing: RunPairing) -> Path:
    """``<results>/comparisons/<A>-vs-<B>/index.html``; a :class:`ConfigurationError` when
    a symbolic link there leads out of the results folder (nothing is written through it)."""
    folder = results_dir / "comparisons" / f"{pairing.a.run_id}-vs-{pairing.b.run_id}"
    if leads_out(results_dir, folder):
        raise ConfigurationError(
            f"{folder} leads out of the results folder {results_dir} through a symbolic "
            "link: give the page's path with --html PATH"
        )
    return folder / HTML_REPORT_NAME


def write_comparison_page(pairing: RunPairing, path: Path, lift: PairLift | None = None) -> Path:
    """Write the comparison page to ``path`` (a FIFO or a folder there refused, naming it),
    with a ``--baseline none`` pair's ``lift``; returns it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigurationError(f"{path.parent}: cannot be made ({exc.strerror or exc})") from None
    return write_report(path, render_page(comparison_page_data(pairing, lift)))
