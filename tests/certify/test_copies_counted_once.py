"""A sequential plan's looks count each input once: a case asked with the input of a case
before it in the plan's order is answered and shown, but no look counts it, and it is not
missing either. The plan's boundaries are exact for independent answers, and copies of one
prompt are answered alike: n_queens' standard level draws 126 inputs in its 180 cases, and
counting each copy certified a model right on 85% of its inputs in about 17% of runs, where
the plan promises at most 5% (6.1% on 126 inputs, exactly: the looks then read the inputs
alone)."""

from __future__ import annotations

import asyncio
import dataclasses
import math
from pathlib import Path

import pytest

from tests.support.records import attempt_record
from verification.certify.input_keys import input_key
from verification.certify.looked import look_decision
from verification.certify.operating import operating_characteristic
from verification.certify.results import ScaffoldResults
from verification.certify.sequential import plan_for
from verification.config import load_settings
from verification.registry import SPECS
from verification.reports.generator import ReportGenerator, render_summary, summary_data
from verification.run.looks import size_point
from verification.runner import VerificationRunner
from verification.store.records import AttemptRecord

PLAN = plan_for("standard")
IDS = [f"kmp-simple-{k:03d}" for k in range(40)]


def _answers(
    copies: bool, outcome: str = "passed", copy_outcome: str | None = None
) -> list[AttemptRecord]:
    """40 answers to kmp's first 40 cases: each its own input, or (``copies``) each input
    asked twice in a row, 20 inputs in all (the second ``copy_outcome``, if given)."""
    return [
        attempt_record(
            case,
            copy_outcome if copies and copy_outcome and k % 2 else outcome,
            input={"text": k // 2 if copies else k},
        )
        for k, case in enumerate(IDS)
    ]


def test_a_look_counts_each_input_once() -> None:
    distinct = ScaffoldResults.from_records(
        "kmp", _answers(copies=False), planned=40, plan=PLAN, order=IDS, final=False
    )
    assert distinct.decision is not None and distinct.decision.status == "CERTIFIED"
    assert distinct.decision.n == 30 and distinct.copies == 0
    # The same 40 right answers on 20 inputs: 20 independent answers, too few for a look
    # of 30 to certify on (the first look, at 20, certifies on none).
    copied = ScaffoldResults.from_records(
        "kmp", _answers(copies=True), planned=40, plan=PLAN, order=IDS, final=False
    )
    assert copied.decision is not None and copied.decision.status == "UNDECIDED"
    assert (copied.decision.n, copied.copies) == (20, 20)
    # the runner's look reads the same
    got = look_decision("kmp", _answers(copies=True), planned=40, plan=PLAN, order=IDS, samples=1)
    assert got == copied.decision


def test_copies_are_answered_shown_and_not_counted_nor_missing(tmp_path: Path) -> None:
    results = ScaffoldResults.from_records(
        "kmp", _answers(copies=True, outcome="failed"), planned=40, plan=PLAN, order=IDS
    )
    assert results.status == "FAILED"  # not INCOMPLETE: no copy is a missing answer
    assert results.n == 20 and results.missing == 0 and len(results.results) == 40
    # FAILED at the look of 20 inputs, the 20th at the 39th case: the copy after it was
    # answered past the decision, as an input past it would be.
    assert (results.copies, results.asked_after) == (19, 1)
    text = ReportGenerator(tmp_path).render_scaffold_report(results)
    assert "19 more case(s) repeat the input of a case before them" in text
    assert "1 case(s) answered past it are shown, not counted" in text


def test_a_run_whose_inputs_ran_out_claims_what_the_plan_read_on_them_gives(
    tmp_path: Path,
) -> None:
    # 20 inputs, all right, and nothing more to ask: the point cut on 20 decides, and the
    # status claims that plan's OC (looks up to 20, the rate at 20), not the whole plan's.
    results = ScaffoldResults.from_records(
        "kmp", _answers(copies=True), planned=40, plan=PLAN, order=IDS
    )
    assert results.decision is not None and results.decision.look is None
    assert (results.status, results.n) == ("CERTIFIED", 20)
    read = dataclasses.replace(PLAN, looks=(20,), cap=20)
    assert results.short_plan == read
    certified = math.ceil(100 * operating_characteristic(read, 0.85).certified)
    whole = math.ceil(100 * operating_characteristic(PLAN, 0.85).certified)
    assert certified > whole  # 20 inputs claim far less than the plan's 180
    text = ReportGenerator(tmp_path).render_scaffold_report(results)
    assert (
        "which ended at 20 answered inputs, short of its cap (its last look the rate on those "
        f"20), a scaffold whose true pass rate is 85% is certified in at most {certified} runs"
    ) in text
    # a run that reached a look claims the whole plan's OC
    distinct = ScaffoldResults.from_records(
        "kmp", _answers(copies=False), planned=40, plan=PLAN, order=IDS
    )
    assert distinct.short_plan is None
    assert f"certified in at most {whole} runs" in ReportGenerator(
        tmp_path / "distinct"
    ).render_scaffold_report(distinct)


def test_a_copy_lost_to_an_error_is_no_unfinished_answer() -> None:
    # Every input answered right; only its second case lost to errors (hunt x: the errors
    # left holes in the looks' windows, and the run INCOMPLETE, though a copy counts for
    # nothing answered or not).
    records = _answers(copies=True, copy_outcome="infra_error")
    final = ScaffoldResults.from_records("kmp", records, planned=40, plan=PLAN, order=IDS)
    assert (final.status, final.n, final.copies, final.infra_errors) == ("CERTIFIED", 20, 0, 20)
    # No worst case below the rate: a copy's answer counts for nothing, lost or not (hunt
    # aa: 6 errored copies read "worst case 83.3% had they failed" beside a 100% rate).
    assert final.worst_case_rate is None
    going = ScaffoldResults.from_records(
        "kmp", records, planned=40, plan=PLAN, order=IDS, final=False
    )
    got = look_decision("kmp", records, planned=40, plan=PLAN, order=IDS)
    assert going.decision is not None and got == going.decision  # 20 inputs: undecided yet
    # The first case lost and its copy answered: the input counts at its copy, and the
    # error is the first case's own (a resume asks it again).
    swapped = [
        record.model_copy(update={"case_id": IDS[k ^ 1], "index": k ^ 1})
        for k, record in enumerate(records)
    ]
    final = ScaffoldResults.from_records("kmp", swapped, planned=40, plan=PLAN, order=IDS)
    assert (final.n, final.copies, final.infra_errors) == (20, 0, 20)
    assert final.status == "INCOMPLETE"  # 20 of the 40 judged are lost, and none is a copy


def test_an_incomplete_status_claims_no_plan_read_short(tmp_path: Path) -> None:
    # 40 answered of 80 planned: INCOMPLETE, decided by nothing, so no "ended at" claim.
    results = ScaffoldResults.from_records(
        "kmp", _answers(copies=True), planned=80, plan=PLAN, order=IDS
    )
    assert results.status == "INCOMPLETE" and results.short_plan is None
    assert "ended at" not in ReportGenerator(tmp_path).render_scaffold_report(results)


def test_the_summary_says_each_scaffold_s_claim_read_short(tmp_path: Path) -> None:
    output = tmp_path / "out"
    settings = load_settings(provider="reference", results_dir=output, cases=None)
    run = asyncio.run(VerificationRunner(settings).run(["kmp"]))
    short = ScaffoldResults.from_records(
        "kmp", _answers(copies=True), planned=40, plan=PLAN, order=IDS
    )
    assert short.short_plan is not None
    text = render_summary(run.manifest, [short])
    assert "> **What a status claims.** By this plan (standard:" in text
    claimed = "kmp: By this plan (standard: a look every 10 cases from 20, at most 180), which "
    assert f" {claimed}ended at 20 answered inputs, short of its cap" in text


def test_a_size_point_counts_each_input_once() -> None:
    point = size_point("kmp", 12, IDS, PLAN, _answers(copies=True), final=True)
    assert point.decision is not None and point.decision.n == 20
    assert point.n == 20 and point.status == "CERTIFIED"  # no copy is missing either
    point = size_point("kmp", 12, IDS, PLAN, _answers(copies=False), final=False)
    assert point.decision is not None and point.decision.n == 30


@pytest.mark.slow  # every scaffold's standard level, in process: about a second
def test_each_scaffolds_looks_count_its_distinct_inputs(tmp_path: Path) -> None:
    settings = load_settings(provider="reference", results_dir=tmp_path)
    run = asyncio.run(VerificationRunner(settings).run(list(SPECS)))
    summary = summary_data(run.manifest, list(run.results.values()))["scaffolds"]
    copied = 0
    for name, results in run.results.items():
        answered = [r for r in results.results if r.outcome != "infra_error"]
        inputs = {input_key(r.test_case.input) for r in answered}
        assert results.n <= len(inputs), name  # each input counted once at most
        assert results.n + results.asked_after + results.copies == len(answered), name
        assert (summary[name]["n"], summary[name]["copies"]) == (results.n, results.copies)
        # the size curves show what counts: no copy, no answer past the decision (hunt aa)
        assert sum(n for _, n in results.per_size.values()) <= results.n, name
        copied += results.copies
    assert copied  # the default draws hold copies (n_queens' and newton_raphson's tiers)
