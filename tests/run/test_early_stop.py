"""``--early-stop`` (issue 16 item 6): planned looks, tiers interleaved, Bonferroni-widened
intervals; a replayed run stops each scaffold where an independent computation of the
interval (scipy's normal quantile, the Wilson bounds as the roots of their quadratic) says
it is decided, its unasked cases are not missing, and the reports say where it stopped."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import norm

from verification.cases import TIERS, parse_case_id
from verification.catalog import default_catalog
from verification.cli import main
from verification.run.early_stop import LOOK_MIN_N, MAX_LOOKS, interleaved, look_points
from verification.run.plan import plan_cases
from verification.store.journal import read_journal
from verification.store.manifests import read_manifest_file
from verification.store.records import AttemptRecord
from verification.store.summary_file import RunSummary

CASES = 100
RIGHT = {"kmp": lambda index: True, "bfs": lambda index: False, "dfs": lambda i: i % 4 != 0}
"""Which of a scaffold's cases the script answers right: all, none, three in four."""


def _verify(output: Path, *options: str) -> int:
    return main(["verify", *options, "--output", str(output), "--no-cache"])


def _run_dir(output: Path) -> Path:
    (run_dir,) = (output / "runs").iterdir()
    return run_dir


def _wilson_by_roots(x: float, n: int, z: float) -> tuple[float, float]:
    """The Wilson bounds: the p where (x/n - p)^2 = z^2 p (1 - p) / n."""
    k = z * z / n
    low, high = sorted(np.roots([1 + k, -(2 * x / n + k), (x / n) ** 2]).real)
    return max(0.0, float(low)), min(1.0, float(high))


def _decided(x: float, n: int, looks: int) -> bool:
    z = float(norm.ppf(1 - 0.05 / (2 * looks)))
    low, high = _wilson_by_roots(x, n, z)
    rate = x / n
    thresholds = (0.9,) if rate >= 0.9 else (0.5, 0.9) if rate >= 0.5 else (0.5,)
    return all(not (low < t <= high) for t in thresholds)


@pytest.mark.parametrize("min_n", [5, 20, 50])
def test_looks_are_few_late_enough_and_end_at_the_plan(min_n: int) -> None:
    for planned in range(1, 301):
        points = look_points(planned, min_n)
        assert 1 <= len(points) <= MAX_LOOKS
        assert points == sorted(set(points)) and points[-1] == planned
        assert points[0] == min(min_n, planned)


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


@pytest.fixture(scope="module")
def stopped_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A standard run of kmp, bfs and dfs with --early-stop, answered from a script."""
    root = tmp_path_factory.mktemp("early")
    names = list(RIGHT)
    plan = (*names, "--cases", str(CASES), "--seed", "5")
    assert _verify(root / "dry", *plan, "--provider", "reference") == 0
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
    assert _verify(output, *plan, *options) == 1  # bfs FAILED
    return output


def _first_answers(run_dir: Path) -> dict[str, list[AttemptRecord]]:
    asked: dict[str, list[AttemptRecord]] = {}
    for record in read_journal(run_dir / "results.jsonl"):
        if record.attempt == 1:
            asked.setdefault(record.scaffold, []).append(record)
    return asked


@pytest.mark.slow
def test_each_scaffold_stops_where_its_widened_interval_decides(stopped_run: Path) -> None:
    run_dir = _run_dir(stopped_run)
    manifest = read_manifest_file(run_dir / "manifest.json")
    summary = RunSummary.from_json((stopped_run / "reports" / "summary.json").read_text())
    asked = _first_answers(run_dir)
    points = look_points(CASES, LOOK_MIN_N["standard"])
    stops = manifest.early_stops or {}
    assert "bfs" in stops and "kmp" in stops  # none right decides at once; all right later
    for name, right in RIGHT.items():
        order = manifest.scaffolds[name].case_ids
        indices = [parse_case_id(i).index for i in order]  # type: ignore[union-attr]
        expected = CASES
        for look, point in enumerate(points[:-1], start=1):
            score = sum(right(index) for index in indices[:point])
            if _decided(score, point, len(points)):
                expected = point
                assert stops[name].look == look and stops[name].looks == len(points)
                break
        else:
            assert name not in stops
        # Exactly the first cases of the interleaved order were asked, every tier among them.
        assert sorted(r.case_id for r in asked[name]) == sorted(order[:expected])
        assert {r.tier for r in asked[name]} == set(TIERS)
        data = summary.scaffolds[name]
        assert data.n == expected and data.missing == 0 and data.status != "INCOMPLETE"
        assert data.stopped_early_at == (expected if name in stops else None)
        report = (stopped_run / "reports" / f"{name}.md").read_text()
        assert (f"**Stopped early at n = {expected}.**" in report) == (name in stops)
    assert summary.scaffolds["bfs"].status == "FAILED"


@pytest.mark.slow
def test_a_resumed_early_stopped_run_asks_nothing_more(stopped_run: Path) -> None:
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


@pytest.mark.parametrize(
    ("options", "says"),
    [
        (("--sizes", "10,20"), "size sweep"),
        (("--level", "thorough"), "size sweep"),
        (("--shard", "1/2"), "--shard"),
    ],
)
def test_early_stop_is_refused_where_no_look_can_decide(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: tuple[str, ...], says: str
) -> None:
    code = _verify(tmp_path / "out", "kmp", "--provider", "reference", "--early-stop", *options)
    assert code == 2
    assert says in capsys.readouterr().err
    assert not (tmp_path / "out" / "runs").exists()
