"""The lift at a size only one arm of a pair tried (each arm's envelope search climbs and
narrows on its own answers): that arm's own rate, its decision and its price are shown, and
no difference, test or lift is claimed where the arms share no case. A pair's reports take
the lift their caller folded, and say once what its figures are."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import pytest
from scipy.stats import binomtest

from verification.certify.lift import PairLift, lift_sentence, scaffold_lift
from verification.certify.results import results_from_journal
from verification.cli import main
from verification.reports.generator import write_run_reports
from verification.reports.lift import lift_markdown, pair_lift, render_lift
from verification.store.journal import read_journal
from verification.store.manifests import RunManifest, read_manifest_file
from verification.store.paths import RunPaths
from verification.store.records import AttemptRecord


@pytest.mark.slow  # a dry-run pair over two sizes: a few seconds
def test_a_size_only_one_arm_tried_shows_that_arm_alone(tmp_path: Path) -> None:
    argv = ["verify", "kmp", "--level", "quick", "--sizes", "10,30", "--provider", "reference"]
    assert main([*argv, "--baseline", "none", "--output", str(tmp_path)]) == 0
    arms = {}
    for run in (tmp_path / "runs").iterdir():
        manifest = read_manifest_file(run / "manifest.json")
        records = read_journal(run / "results.jsonl")
        results = results_from_journal(manifest, records)["kmp"]
        arms[manifest.variant] = (results, records)
    (bare, bare_records), (scaffold, scaffold_records) = arms["bare"], arms[None]
    # The bare arm's search stopped below the largest size: it never tried it.
    bare = dataclasses.replace(bare, size_points=bare.size_points[:1])
    lift = scaffold_lift(bare, scaffold, bare_records, scaffold_records)
    paired, alone = lift.sizes
    first = scaffold.size_points[0].cases
    inputs = {json.dumps(r.input, sort_keys=True) for r in scaffold_records if r.case_id in first}
    assert paired.paired and paired.comparison.shared == len(inputs)  # each input once
    point = scaffold.size_points[-1]
    assert (alone.size, alone.paired, alone.comparison.shared) == (point.size, False, 0)
    assert alone.bare_rate is None and alone.bare_status is None
    assert alone.scaffold_rate == pytest.approx(point.pass_rate)
    assert alone.scaffold_status == point.status
    spent = [r for r in scaffold_records if r.case_id in point.cases]
    tokens = sum(math.ceil(r.raw_response_chars / 4) for r in spent) / len(point.cases)
    assert alone.scaffold_tokens.per_case == pytest.approx(tokens)
    assert alone.bare_tokens.per_case is None and alone.token_ratio is None
    assert not alone.lifted and not alone.lowered
    shown = render_lift(PairLift("a", "b", {"kmp": lift})).splitlines()
    (row,) = [line.split() for line in shown if line.startswith(f"{point.size} ")]
    assert row[:5] == [str(point.size), "0", "-", f"{100 * point.pass_rate:.1f}%", "-"]


@pytest.mark.slow  # a dry-run pair: a few seconds
def test_a_pairs_reports_take_the_lift_given_and_say_what_its_figures_are_once(
    tmp_path: Path,
) -> None:
    argv = ["verify", "kmp", "--level", "quick", "--sizes", "10", "--provider", "reference"]
    assert main([*argv, "--baseline", "none", "--output", str(tmp_path)]) == 0
    arms = {}
    for run in (tmp_path / "runs").iterdir():
        paths = RunPaths(tmp_path, run.name)
        manifest = paths.read_manifest()
        records = read_journal(paths.journal)
        arms[manifest.variant] = (manifest, results_from_journal(manifest, records), records)
    lift = pair_lift(arms["bare"], arms[None])
    # The bare run's journal gone: the scaffold run's reports cannot read it back, and
    # leave the lift out, unless the caller gives the lift it folded (as verify does).
    bare_journal = RunPaths(tmp_path, lift.bare_run).journal
    bare_journal.rename(tmp_path / "elsewhere.jsonl")
    manifest, results, _ = arms[None]
    paths = RunPaths(tmp_path, manifest.run_id)
    summary = paths.reports / "summary.json"
    write_run_reports(paths, manifest, results, publish=False)
    assert json.loads(summary.read_text(encoding="utf-8"))["lift"] is None
    write_run_reports(paths, manifest, results, publish=False, lift=lift)
    written = json.loads(summary.read_text(encoding="utf-8"))["lift"]["kmp"]
    assert written["sentence"] == lift_sentence(lift.scaffolds["kmp"])
    # Several scaffolds: each its sentence and table, what the figures are said once.
    two = PairLift("a", "b", {"kmp": lift.scaffolds["kmp"], "lcs": lift.scaffolds["kmp"]})
    for text in (render_lift(two), lift_markdown(two)):
        assert text.count("case scores on the cases both arms decided") == 1
        assert text.count(lift_sentence(lift.scaffolds["kmp"])) == 2


def test_no_lift_is_claimed_over_an_incomplete_arm(tmp_path: Path) -> None:
    # A helper's hunt: a bare arm whose wrong answers were counted and whose other answers
    # were errors read INCOMPLETE, and the pair still said "the scaffold lifts the pass rate".
    manifest, right = _dry_run(tmp_path, "kmp", "--cases", "24")
    wrong = [
        r.model_copy(update={"outcome": "failed" if k % 2 else "infra_error", "level": 3})
        for k, r in enumerate(right)
    ]
    scaffold = results_from_journal(manifest, right)["kmp"]
    bare = results_from_journal(manifest, wrong)["kmp"]
    assert bare.status == "INCOMPLETE" and scaffold.status != "INCOMPLETE"
    lift = scaffold_lift(bare, scaffold, wrong, right)
    assert lift.overall.lifted  # the counted answers alone would claim it
    sentence = lift_sentence(lift)
    assert "No lift is claimed: the bare arm is INCOMPLETE" in sentence
    assert "lifts" not in sentence


def test_no_lift_is_claimed_where_an_arm_lost_answers_the_other_gave(tmp_path: Path) -> None:
    # Hunt kk 3: both arms alike, the scaffold arm's would-be failures came back as errors
    # (a tenth: not INCOMPLETE), and the pair said "the scaffold lifts the pass rate".
    manifest, right = _dry_run(tmp_path, "kmp", "--cases", "40")
    wrong = set(range(0, 40, 10)) | set(range(1, 40, 10))  # the same 8 inputs in both arms
    lost = set(range(0, 40, 10))  # of which the scaffold arm lost 4 to errors
    bare_records = [
        r.model_copy(update={"outcome": "failed", "level": 3}) if k in wrong else r
        for k, r in enumerate(right)
    ]
    scaffold_records = [
        r.model_copy(update={"outcome": "infra_error", "level": None})
        if k in lost
        else r.model_copy(update={"outcome": "failed", "level": 3})
        if k in wrong
        else r
        for k, r in enumerate(right)
    ]
    bare = results_from_journal(manifest, bare_records)["kmp"]
    scaffold = results_from_journal(manifest, scaffold_records)["kmp"]
    assert "INCOMPLETE" not in (bare.status, scaffold.status)
    lift = scaffold_lift(bare, scaffold, bare_records, scaffold_records)
    assert lift.lost == (
        "the scaffold arm lost 4 answer(s) to infrastructure errors on cases the bare arm answered",
    )
    sentence = lift_sentence(lift)
    assert sentence.startswith(
        "No lift is claimed: the scaffold arm lost 4 answer(s) to infrastructure errors"
    )
    assert "lifts" not in sentence and "adds nothing" not in sentence
    # Lost where the other arm has no answer either, nothing is hidden: the claim stands.
    both = [
        r.model_copy(update={"outcome": "infra_error", "level": None}) if k in lost else r
        for k, r in enumerate(bare_records)
    ]
    again = scaffold_lift(
        results_from_journal(manifest, both)["kmp"], scaffold, both, scaffold_records
    )
    assert again.lost == () and not lift_sentence(again).startswith("No lift is claimed")


def test_the_lift_over_every_case_counts_each_input_once(tmp_path: Path) -> None:
    # Hunt x: the lift's row of every case counted copies of one input apart (90 shared
    # cases of n_queens' 60 inputs) where its status and `compare` count each once.
    manifest, right = _dry_run(tmp_path, "kmp", "--cases", "24")
    # Every input asked three times (cases 3k, 3k+1, 3k+2), the bare arm wrong on each.
    copied = [
        r.model_copy(update={"input": right[3 * (k // 3)].input}) for k, r in enumerate(right)
    ]
    wrong = [r.model_copy(update={"outcome": "failed", "level": 3}) for r in copied]
    scaffold = results_from_journal(manifest, copied)["kmp"]
    bare = results_from_journal(manifest, wrong)["kmp"]
    lift = scaffold_lift(bare, scaffold, wrong, copied)
    assert lift.overall.comparison.shared == len(right) // 3
    assert (
        lift.overall.bare_tokens == scaffold_lift(bare, scaffold, wrong, right).overall.bare_tokens
    )


def _dry_run(
    tmp_path: Path, *argv: str, exits: tuple[int, ...] = (0,)
) -> tuple[RunManifest, list[AttemptRecord]]:
    """The manifest and journal of ``verify *argv`` with the reference provider (its only
    run in ``tmp_path``), which exits with one of ``exits``."""
    done = main(["verify", *argv, "--provider", "reference", "--output", str(tmp_path)])
    assert done in exits
    (run,) = (tmp_path / "runs").iterdir()
    return read_manifest_file(run / "manifest.json"), read_journal(run / "results.jsonl")


def _quick_board_of_4(
    tmp_path: Path,
) -> tuple[RunManifest, list[AttemptRecord], list[AttemptRecord]]:
    """A quick dry run of n_queens swept at side 4 (8 inputs in 35 cases): its manifest, its
    journal, and the journal's lines of every case asked at the size."""
    argv = ("n_queens", "--level", "quick", "--sizes", "4")
    manifest, right = _dry_run(tmp_path, *argv, exits=(0, 1))
    return manifest, right, [r for r in right if "-s4-" in r.case_id]


def test_a_size_s_lift_counts_each_input_once_under_a_fixed_plan(tmp_path: Path) -> None:
    # Hunt bb: the quick level decides each size on a fixed 35 cases, copies kept; n_queens'
    # board of side 4 has 8 inputs, and its row paired the 35 cases apart, so 3 inputs the
    # bare arm got wrong read as 13 discordant pairs: p 0.0002, "lifts", where the 8
    # inputs give the exact sign test's 0.25.
    manifest, right, at_4 = _quick_board_of_4(tmp_path)
    scaffold = results_from_journal(manifest, right)["n_queens"]
    (point,) = scaffold.size_points
    inputs = sorted({json.dumps(r.input, sort_keys=True) for r in at_4})
    missed = set(inputs[:3])  # the bare arm wrong on 3 inputs, each of their copies alike
    wrong = [
        r.model_copy(update={"outcome": "failed", "level": 3})
        if json.dumps(r.input, sort_keys=True) in missed
        else r
        for r in right
    ]
    bare = results_from_journal(manifest, wrong)["n_queens"]
    (row,) = scaffold_lift(bare, scaffold, wrong, right).sizes
    assert len(at_4) > len(inputs) == point.n  # copies among its cases, each input once
    assert row.comparison.shared == len(inputs)
    assert math.isclose(row.comparison.p_value, binomtest(3, 3, 0.5).pvalue)
    assert not row.lifted


def test_an_arm_undecided_at_its_smallest_size_is_said_so(tmp_path: Path) -> None:
    # Hunt ee: the lift said the bare arm was certified "at none of the sizes tried" where its
    # smallest size was INCOMPLETE, not failed; its own envelope says "undecided from ...".
    manifest, right, at_4 = _quick_board_of_4(tmp_path)
    lost = sorted({json.dumps(r.input, sort_keys=True) for r in at_4})[:2]  # 2 of 8 inputs
    errored = [
        r.model_copy(update={"outcome": "infra_error", "level": None, "answer": None})
        if r in at_4 and json.dumps(r.input, sort_keys=True) in lost
        else r
        for r in right
    ]
    scaffold = results_from_journal(manifest, right)["n_queens"]
    bare = results_from_journal(manifest, errored)["n_queens"]
    assert [p.status for p in bare.size_points] == ["INCOMPLETE"]
    sentence = lift_sentence(scaffold_lift(bare, scaffold, errored, right))
    assert "without, undecided from the smallest size tried" in sentence
    assert "at none of the sizes tried" not in sentence
    swapped = lift_sentence(scaffold_lift(scaffold, bare, right, errored))
    assert swapped.startswith("With the scaffold undecided from the smallest size tried; ")
