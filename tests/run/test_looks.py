"""The certification plan's looks (issue 23 item 1): a standard run asks each scaffold's
cases look by look (tiers interleaved) and stops where an independent computation of the
plan's two Wald tests (scipy's binomial log-likelihoods) and the point status agree; its
unasked cases are not missing, the reports say where it stopped, and a run that asks the
whole plan and looks afterwards reaches the same verdicts on the same cases."""

from __future__ import annotations

import asyncio
import json
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from tests.support.calibrations import calibrating_each_case_once
from tests.support.copies import cases_asked, first_of_each_input
from tests.support.draws import drawing_each_case_once
from verification.cases import TIERS, PlannedCase, parse_case_id
from verification.catalog import default_catalog
from verification.certify.operating import operating_characteristic
from verification.certify.sequential import plan_for
from verification.cli import main
from verification.compose.multimodel import ModelRuns
from verification.config import load_settings, resolve_settings
from verification.run.case_plan import planned_cases
from verification.run.looks import interleaved
from verification.run.plan import FIXED, plan_cases
from verification.runner import VerificationRunner
from verification.store.journal import read_journal
from verification.store.manifests import read_manifest_file
from verification.store.records import AttemptRecord
from verification.store.summary_file import RunSummary

RIGHT: dict[str, Callable[[int], bool]] = {
    "kmp": lambda index: True,
    "bfs": lambda index: False,
    "dfs": lambda index: index % 4 != 0,
    "lcs": lambda index: index % 10 != 3,
}
"""Which of a scaffold's cases the script answers right: all, none, three in four, nine in
ten (a rate at the threshold, which no early look decides)."""


@pytest.fixture(scope="module", autouse=True)
def _drawn_once() -> Iterator[None]:
    """The runs here draw the same suite of four scaffolds again and again: each case is drawn once
    (tests/support/draws.py), and calibrated once (tests/support/calibrations.py)."""
    with drawing_each_case_once(), calibrating_each_case_once():
        yield


def _verify(output: Path, *options: str) -> int:
    return main(["verify", *options, "--output", str(output), "--no-cache"])


def _run_dir(output: Path) -> Path:
    (run_dir,) = (output / "runs").iterdir()
    return run_dir


def _wald(passed: int, n: int, p0: float, p1: float, risk: float) -> int:
    """Wald's test of p0 against p1 at ``risk`` each way, from scipy's log-pmfs."""
    from scipy.stats import binom  # here: collecting this module should not import scipy

    ratio = binom.logpmf(passed, n, p1) - binom.logpmf(passed, n, p0)
    if ratio >= math.log((1 - risk) / risk):
        return 1
    return -1 if ratio <= math.log(risk / (1 - risk)) else 0


def _point(passed: int, n: int) -> str:
    rate = Fraction(passed, n)
    return "CERTIFIED" if rate >= 0.9 else "PARTIAL" if rate >= Fraction(1, 2) else "FAILED"


def _expected_stop(right: list[bool], cap: int) -> tuple[int, str, bool]:
    """Where the standard plan decides on answers to distinct inputs (``right``, in plan
    order), what, and whether early (at a look before the cap), computed afresh; inputs
    fewer than the cap end at the point cut on them all."""
    for n in range(20, cap + 1, 10):
        if n > len(right):
            return len(right), _point(sum(right), len(right)), False
        passed = sum(right[:n])
        point = _point(passed, n)
        if n == cap:
            return n, point, False
        tests = (_wald(passed, n, 0.85, 0.95, 0.05), _wald(passed, n, 0.40, 0.60, 0.10))
        decided = {(1, 1): "CERTIFIED", (-1, 1): "PARTIAL", (-1, -1): "FAILED"}.get(tests)
        if decided == point:
            return n, point, True
    raise AssertionError("the cap is a look")


def test_every_prefix_past_the_groups_holds_every_tier_and_size() -> None:
    planned = plan_cases(["kmp"], seed=3, cases=40, sweep={"kmp": [10, 20, 30]})["kmp"]
    order = interleaved(planned)
    assert sorted(c.id for c in order) == sorted(c.id for c in planned)

    def group(identifier: str) -> tuple[str, int | None]:
        key = parse_case_id(identifier)
        assert key is not None
        return key.tier, key.size

    groups = {group(c.id) for c in planned}
    smallest = min(Counter(group(c.id) for c in planned).values())
    for end in range(len(groups), smallest * len(groups) + 1):
        assert {group(c.id) for c in order[:end]} == groups


def test_cases_planned_to_be_drawn_later_interleave_as_drawn_ones() -> None:
    # interleave groups a planned case by the parts it was planned with, not its id parsed
    sweep = {"kmp": [10, 20, 30]}
    later = planned_cases(["kmp"], seed=3, cases=40, sweep=sweep, lazily=lambda spec: True)
    drawn = plan_cases(["kmp"], seed=3, cases=40, sweep=sweep)["kmp"]
    assert all(isinstance(case, PlannedCase) for case in later["kmp"])
    assert [c.id for c in later["kmp"]] == [c.id for c in drawn]
    assert [c.id for c in interleaved(later["kmp"])] == [c.id for c in interleaved(drawn)]
    assert [c.size for c in later["kmp"]] == [c.size for c in drawn]


@pytest.fixture(scope="module")
def stopped_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A standard run of four scaffolds answered from a script (``--early-stop`` given, as
    old command lines do: it changes nothing)."""
    root = tmp_path_factory.mktemp("looks")
    names = list(RIGHT)
    cap = plan_for("standard").cap
    # every case id the plan may ask, answered right by the reference
    dry = ("--provider", "reference", "--cases", str(cap), "--seed", "5")
    assert _verify(root / "dry", *names, *dry) == 0
    catalog = default_catalog()
    lines = []
    for record in read_journal(_run_dir(root / "dry") / "results.jsonl"):
        spec = catalog[record.scaffold]
        answer = record.expected
        if not RIGHT[record.scaffold](record.index):
            answer = spec.mutants(record.test_case(), random.Random(record.case_id))[0]
        lines.append({"case_id": record.case_id, "text": spec.render_answer(answer)})
    replay = root / "replay.jsonl"
    replay.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    output = root / "run"
    options = ("--provider", "replay", "--replay-file", str(replay), "--early-stop")
    assert _verify(output, *names, "--seed", "5", *options) == 1  # bfs FAILED
    return output


def _first_answers(run_dir: Path) -> dict[str, list[AttemptRecord]]:
    asked: dict[str, list[AttemptRecord]] = {}
    for record in read_journal(run_dir / "results.jsonl"):
        if record.attempt == 1:
            asked.setdefault(record.scaffold, []).append(record)
    return asked


@pytest.mark.slow
def test_each_scaffold_stops_where_the_plan_decides(stopped_run: Path) -> None:
    run_dir = _run_dir(stopped_run)
    manifest = read_manifest_file(run_dir / "manifest.json")
    summary = RunSummary.from_json((stopped_run / "reports" / "summary.json").read_text())
    asked = _first_answers(run_dir)
    plan = plan_for("standard")
    stops = manifest.early_stops or {}
    assert manifest.plan is not None and manifest.plan.cap == plan.cap
    drawn = plan_cases(list(RIGHT), seed=5, cases=plan.cap)
    for name, right in RIGHT.items():
        order = manifest.scaffolds[name].case_ids
        assert len(order) == plan.cap
        indices = [parse_case_id(i).index for i in order]  # type: ignore[union-attr]
        # A look counts each input once, at its first case (a copy answers alike).
        firsts = first_of_each_input(order, {case.id: case.input for case in drawn[name]})
        n, status, early = _expected_stop([right(indices[k]) for k in firsts], plan.cap)
        expected = cases_asked(plan.looks, firsts, n) if early else plan.cap
        # Exactly the first cases of the interleaved order were asked, every tier among them.
        assert sorted(r.case_id for r in asked[name]) == sorted(order[:expected])
        assert {r.tier for r in asked[name]} == set(TIERS)
        data = summary.scaffolds[name]
        assert (data.status, data.n, data.missing) == (status, n, 0)
        if early:
            assert stops[name].cases == expected
            assert stops[name].look == plan.looks.index(n) + 1
        else:
            assert name not in stops
        assert data.stopped_early_at == (expected if name in stops else None)
        report = (stopped_run / "reports" / f"{name}.md").read_text()
        assert (f"**Stopped early at n = {n}.**" in report) == (name in stops)
    assert {"kmp", "bfs", "dfs"} <= set(stops)  # decided early; lcs sits at the threshold
    assert summary.scaffolds["kmp"].n == 30  # a perfect scaffold: 30 cases, not 40


@pytest.mark.slow
def test_asking_the_whole_plan_and_looking_afterwards_gives_the_same_verdicts(
    stopped_run: Path, tmp_path: Path
) -> None:
    sequential = RunSummary.from_json((stopped_run / "reports" / "summary.json").read_text())
    settings = resolve_settings(
        load_settings(
            provider="replay",
            replay_file=stopped_run.parent / "replay.jsonl",
            results_dir=tmp_path,
            seed=5,
            cache=False,
        )
    )
    runner = VerificationRunner(settings, stopping=FIXED)
    whole = asyncio.run(runner.run(list(RIGHT)))
    assert whole.manifest.early_stops is None  # it looked afterwards
    for name in RIGHT:
        result = whole.results[name]
        assert result.decision is not None
        assert (result.status, result.n) == (
            sequential.scaffolds[name].status,
            sequential.scaffolds[name].n,
        )
        assert result.asked_after == settings.cases - result.n - result.copies
        # copies past the deciding look were answered after it, as in a run that looked
        assert result.copies == sequential.scaffolds[name].copies


@pytest.mark.slow
def test_a_resumed_stopped_run_asks_nothing_more(stopped_run: Path) -> None:
    run_dir = _run_dir(stopped_run)
    before = (run_dir / "results.jsonl").read_text()
    manifest = read_manifest_file(run_dir / "manifest.json")
    replay = stopped_run.parent / "replay.jsonl"
    code = _verify(
        stopped_run, "--resume", run_dir.name, "--provider", "replay", "--replay-file", str(replay)
    )
    assert code == 1
    assert (run_dir / "results.jsonl").read_text() == before
    assert read_manifest_file(run_dir / "manifest.json").early_stops == manifest.early_stops


def test_early_stop_goes_with_a_shard_which_asks_its_whole_slice(tmp_path: Path) -> None:
    code = _verify(
        tmp_path / "out", "kmp", "--provider", "reference", "--early-stop", "--shard", "1/6"
    )
    assert code == 0
    run_dir = _run_dir(tmp_path / "out")
    manifest = read_manifest_file(run_dir / "manifest.json")
    assert manifest.early_stops is None  # a shard looks afterwards, once merged
    asked = {r.case_id for r in read_journal(run_dir / "results.jsonl")}
    assert asked == set(manifest.scaffolds["kmp"].case_ids)
    assert len(asked) == math.ceil(plan_for("standard").cap / 6)


def test_estimate_states_the_plans_average_and_prices_its_maximum(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = plan_for("standard")
    code = main(["verify", "kmp", "--estimate", "--output", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    row = next(line for line in out.splitlines() if line.startswith("kmp "))
    assert int(row.split()[1]) == plan.cap  # the requests priced: the plan's maximum
    perfect = operating_characteristic(plan, 1.0).expected_cases
    threshold = operating_characteristic(plan, 0.9).expected_cases
    assert f"at most {plan.cap} level cases" in out
    assert f"on average {perfect:.0f} when every answer is right (p = 1.00)" in out
    assert f"{threshold:.0f} at a true pass rate of 0.90" in out
    main(["verify", "kmp", "--estimate", "--cases", "12", "--output", str(tmp_path)])
    assert "every one of the 12 level cases" in capsys.readouterr().out


def test_a_code_mode_estimate_states_its_plan_in_programs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = plan_for("standard")
    argv = ["verify", "kmp", "--estimate", "--answer", "code", "--output", str(tmp_path)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("kmp "))
    assert int(row.split()[1]) == plan.cap  # a request per program, the plan's maximum
    perfect = operating_characteristic(plan, 1.0).expected_cases
    assert f"at most {plan.cap} programs" in out and "level cases" not in out
    assert f"on average {perfect:.0f} when every answer is right (p = 1.00)" in out
    assert main([*argv, "--cases", "5"]) == 0
    assert "every one of the 5 programs" in capsys.readouterr().out


@pytest.mark.slow
def test_shards_merged_are_decided_as_the_run_that_looked(
    stopped_run: Path, tmp_path: Path
) -> None:
    sequential = RunSummary.from_json((stopped_run / "reports" / "summary.json").read_text())
    replay = stopped_run.parent / "replay.jsonl"
    shards = []
    for index in (1, 2):
        output = tmp_path / f"shard{index}"
        options = ("--provider", "replay", "--replay-file", str(replay), "--seed", "5")
        _verify(output, *RIGHT, *options, "--shard", f"{index}/2")
        shards.append(str(_run_dir(output)))
    assert main(["merge", *shards, "--output", str(tmp_path / "merged")]) in (0, 1)
    merged = RunSummary.from_json((tmp_path / "merged" / "reports" / "summary.json").read_text())
    for name in RIGHT:
        assert (merged.scaffolds[name].status, merged.scaffolds[name].n) == (
            sequential.scaffolds[name].status,
            sequential.scaffolds[name].n,
        )
        assert merged.scaffolds[name].plan == sequential.scaffolds[name].plan


@pytest.mark.slow
def test_an_interrupted_run_resumed_continues_its_plan(stopped_run: Path, tmp_path: Path) -> None:
    original = _run_dir(stopped_run)
    sequential = RunSummary.from_json((stopped_run / "reports" / "summary.json").read_text())
    output = tmp_path / "out"
    copy = output / "runs" / original.name
    copy.mkdir(parents=True)
    manifest = read_manifest_file(original / "manifest.json")
    first = {name: set(entry.case_ids[:20]) for name, entry in manifest.scaffolds.items()}
    # as if killed at the first look: only the first segment answered, nothing decided
    kept = [
        line
        for line in (original / "results.jsonl").read_text().splitlines(keepends=True)
        if json.loads(line)["case_id"] in first[json.loads(line)["scaffold"]]
    ]
    (copy / "results.jsonl").write_text("".join(kept))
    cut = manifest.model_copy(update={"early_stops": {}, "interrupted": True, "finished_at": None})
    (copy / "manifest.json").write_text(cut.model_dump_json())
    replay = stopped_run.parent / "replay.jsonl"
    code = _verify(
        output, "--resume", original.name, "--provider", "replay", "--replay-file", str(replay)
    )
    assert code == 1
    resumed = read_manifest_file(copy / "manifest.json")
    assert resumed.early_stops == manifest.early_stops
    summary = RunSummary.from_json((output / "reports" / "summary.json").read_text())
    for name in RIGHT:
        assert (summary.scaffolds[name].status, summary.scaffolds[name].n) == (
            sequential.scaffolds[name].status,
            sequential.scaffolds[name].n,
        )
    asked = _first_answers(copy)
    assert {n: len(r) for n, r in asked.items()} == {
        n: len(r) for n, r in _first_answers(original).items()
    }


def test_several_models_ask_the_whole_plan_so_their_runs_pair(tmp_path: Path) -> None:
    settings = resolve_settings(
        load_settings(model="model-a,model-b", provider="anthropic", results_dir=tmp_path)
    )
    runs = ModelRuns(settings)
    assert set(runs.runners) == {"model-a", "model-b"}
    assert {runner.stopping for runner in runs.runners.values()} == {FIXED}
    assert VerificationRunner(settings.for_model("model-a")).stopping is None  # as planned
