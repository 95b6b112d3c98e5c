"""A swept size decided on fewer inputs than its plan's cap claims what the plan read on
them gives, as a scaffold's status does: n_queens' board of side 4 has 8 inputs, all a
sweep can count there, and a model right on 85% of them answers all 8 right in 27% of
runs. Its row said CERTIFIED beside sizes decided by the plan's looks, and the envelope
"holds at every size tried", with no word of that risk."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import math
from pathlib import Path

from scipy.stats import binom

from tests.certify.test_copies_counted_once import IDS, PLAN, _answers
from verification.certify.envelope import run_split
from verification.certify.envelope_search import EnvelopeResult, SizeTried
from verification.certify.input_keys import input_key
from verification.certify.sequential import fixed_plan
from verification.certify.statuses import THRESHOLDS
from verification.config import load_settings
from verification.registry import SPECS
from verification.reports.envelope_search import search_markdown
from verification.reports.generator import write_run_reports
from verification.run.looks import size_point
from verification.runner import VerificationRunner


def test_a_size_whose_inputs_ran_out_reads_the_plan_short() -> None:
    # 40 cases at the size, 20 inputs, all right: the point cut on those 20 decides.
    point = size_point("kmp", 12, IDS, PLAN, _answers(copies=True), final=True)
    assert (point.status, point.n) == ("CERTIFIED", 20)
    assert point.short_plan == dataclasses.replace(PLAN, looks=(20,), cap=20)
    # decided by a look of the plan: its whole OC
    assert size_point("kmp", 12, IDS, PLAN, _answers(copies=False), final=True).short_plan is None
    # a fixed plan (the quick level's 35) counts each input once too, and reads short on
    # what it had (hunt dd: 8 inputs of n_queens in 35 cases claimed the 35 cases' OC)
    fixed = size_point("kmp", 12, IDS, fixed_plan(35), _answers(copies=True), final=True)
    assert (fixed.n, fixed.status) == (20, "CERTIFIED")
    assert fixed.short_plan == dataclasses.replace(fixed_plan(35), looks=(20,), cap=20)
    whole = size_point("kmp", 12, IDS[:35], fixed_plan(35), _answers(copies=False), final=True)
    assert whole.n == 35 and whole.short_plan is None
    # nothing decided, nothing claimed: 20 of 40 answers lost is INCOMPLETE
    lost = _answers(copies=False)[:20]
    assert size_point("kmp", 12, IDS, PLAN, lost, final=True).status == "INCOMPLETE"
    assert size_point("kmp", 12, IDS, PLAN, lost, final=True).short_plan is None


def test_n_queens_smallest_board_states_its_own_risk(tmp_path: Path) -> None:
    settings = load_settings(provider="reference", results_dir=tmp_path, sizes=[4, 8])
    run = asyncio.run(VerificationRunner(settings).run(["n_queens"]))
    write_run_reports(run.paths, run.manifest, run.results, records=run.records)
    results = run.results["n_queens"]
    small, large = results.size_points
    # Every input the sweep drew at size 4, each counted once: all there are to count.
    split = run_split(SPECS["n_queens"], run.manifest)
    assert split is not None
    at_4 = set(split.sizes[4])
    inputs = {input_key(r.test_case.input) for r in results.results if r.test_case.id in at_4}
    assert small.n == len(inputs) < PLAN.looks[0]  # short of the plan's first look
    assert small.short_plan is not None and small.short_plan.cap == small.n
    assert large.short_plan is None  # 30 inputs: decided at a look of the plan
    # Its one look is the point cut on its n: certified when at least 90% pass. Exactly,
    # by the binomial law, independently of the plan's own code.
    needed = math.ceil(THRESHOLDS["CERTIFIED"] * small.n)
    at_85 = math.ceil(100 * binom.sf(needed - 1, small.n, 0.85) - 1e-9)
    assert at_85 > 5  # far more than the level's promise of at most 5
    claim = (
        f"which ended at {small.n} answered inputs, short of its cap (its last look the rate on "
        f"those {small.n}), a scaffold whose true pass rate is 85% is certified in at most "
        f"{at_85} runs of 100"
    )
    report = (run.paths.reports / "n_queens.md").read_text()
    envelope = report.split("## Size envelope")[1]
    assert f"| 4 | {small.n} | 100.0% |" in envelope
    assert f"| CERTIFIED, ended short at {small.n} |" in envelope
    assert "- Size 4: By this plan (standard: a look every 10 cases from 20, at most" in envelope
    assert claim in envelope and "- Size 8:" not in envelope
    said = "holds at every size tried (board side 4 to 8); 4 decided on fewer inputs"
    assert f"**Size envelope: {said}" in report.replace("\\(", "(").replace("\\)", ")")
    summary = json.loads((run.paths.reports / "summary.json").read_text())["scaffolds"]
    sweep = {point["size"]: point for point in summary["n_queens"]["sweep"]}
    assert claim in sweep[4]["short_oc"] and sweep[8]["short_oc"] is None
    assert summary["n_queens"]["envelope"].startswith(said)
    # what every size's decision claims: the level's plan, cut at its cap per size
    assert summary["n_queens"]["size_oc"].startswith("By this plan (standard: a look every 10")
    assert f"**What a size's decision claims.** {summary['n_queens']['size_oc']}" in envelope


def test_a_quick_sweep_says_its_sizes_stand_on_a_weak_plan(tmp_path: Path) -> None:
    # Hunt bb: the quick level decides each size on a fixed 35 cases, which certifies a size
    # whose true rate is 85% in about 21 runs of 100; its sizes said CERTIFIED and nothing
    # said what that claims.
    settings = load_settings(
        provider="reference", results_dir=tmp_path, level="quick", sizes=[8, 16]
    )
    run = asyncio.run(VerificationRunner(settings).run(["kmp"]))
    write_run_reports(run.paths, run.manifest, run.results, records=run.records)
    needed = math.ceil(THRESHOLDS["CERTIFIED"] * 35)
    at_85 = math.ceil(100 * binom.sf(needed - 1, 35, 0.85) - 1e-9)
    claim = (
        "By this plan (35 cases, the rate alone decides, a weak plan) a scaffold whose true "
        f"pass rate is 85% is certified in {at_85} runs of 100"
    )
    summary = json.loads((run.paths.reports / "summary.json").read_text())["scaffolds"]["kmp"]
    assert summary["size_oc"].startswith(claim)
    report = (run.paths.reports / "kmp.md").read_text()
    assert f"**What a size's decision claims.** {claim}" in report


def test_an_envelope_search_marks_a_size_decided_short() -> None:
    tried = [
        SizeTried(4, "CERTIFIED", 8, 1.0, False, 100, 50, None, ended_short=True),
        SizeTried(8, "CERTIFIED", 30, 1.0, False, 100, 50, None),
    ]
    outcome = EnvelopeResult("n_queens", "board side", 8, None, tuple(tried), None, ())
    rows = [line for line in search_markdown(outcome).splitlines() if line[:4] in ("| 1 ", "| 2 ")]
    assert [row.split(" | ")[2] for row in rows] == ["CERTIFIED, ended short at 8", "CERTIFIED"]


def test_a_quick_size_counts_each_input_once_and_reads_short(tmp_path: Path) -> None:
    # Hunt dd: at the quick level n_queens' board of side 4 showed n = 35 and claimed the 35
    # cases' OC (21 in 100 at 85%) on 8 inputs whose copies are answered alike.
    settings = load_settings(provider="reference", results_dir=tmp_path, level="quick", sizes=[4])
    run = asyncio.run(VerificationRunner(settings).run(["n_queens"]))
    write_run_reports(run.paths, run.manifest, run.results, records=run.records)
    (point,) = run.results["n_queens"].size_points
    split = run_split(SPECS["n_queens"], run.manifest)
    assert split is not None
    at_4 = set(split.sizes[4])
    inputs = {
        input_key(r.test_case.input)
        for r in run.results["n_queens"].results
        if r.test_case.id in at_4
    }
    assert point.n == len(inputs) < len(at_4)
    needed = math.ceil(THRESHOLDS["CERTIFIED"] * point.n)
    at_85 = math.ceil(100 * binom.sf(needed - 1, point.n, 0.85) - 1e-9)
    claim = (
        f"- Size 4: By this plan (35 cases, the rate alone decides, a weak plan), which ended "
        f"at {point.n} answered inputs, short of its 35 (the rate on those {point.n} decided), "
        f"a scaffold whose true pass rate is 85% is certified in {at_85} runs of 100"
    )
    report = (run.paths.reports / "n_queens.md").read_text()
    assert claim in report
    # The level's n counts the level's cases: the sweep's copies are no repeats of them
    # (hunt ee: "5 of 5 planned; 45 of them repeat an earlier case's input").
    results = run.results["n_queens"]
    level = [r for r in results.results if r.test_case.id not in at_4]
    assert results.repeated_inputs == len(level) - len(
        {input_key(r.test_case.input) for r in level}
    )
    assert f"{results.repeated_inputs} of them repeat" in report or not results.repeated_inputs
    assert f"{len(at_4) - point.n} of them repeat" not in report


def test_under_a_fixed_plan_an_error_on_an_input_answered_later_lost_nothing() -> None:
    # Hunt ee: one error on the first case of an input whose copy was answered left a quick
    # size INCOMPLETE (1 unfinished of 9 inputs' cases). No look reads a fixed plan in
    # order: the input was answered, and its error lost nothing.
    records = _answers(copies=True, copy_outcome="infra_error")
    first_lost = [  # each input's first case lost to an error, its copy answered
        record.model_copy(update={"case_id": IDS[k ^ 1], "index": k ^ 1})
        for k, record in enumerate(records)
    ]
    fixed = size_point("kmp", 12, IDS, fixed_plan(40), first_lost, final=True)
    assert (fixed.n, fixed.status) == (20, "CERTIFIED")
    assert fixed.short_plan == dataclasses.replace(fixed_plan(40), looks=(20,), cap=20)
    # A sequential plan's looks read the plan's order: there the first case's error is the
    # input's own, and a resume asks it again.
    assert size_point("kmp", 12, IDS, PLAN, first_lost, final=True).status == "INCOMPLETE"
