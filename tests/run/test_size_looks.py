"""Each swept size is asked look by look of its own plan (issue 23 item 3): a thorough run
asks a size's cases in the sweep's order until that size's plan decides, beside the level's
looks, and a run that asks every size to its cap and decides afterwards reaches the same
envelope on the same cases."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.calibrations import calibrating_each_case_once
from tests.support.copies import cases_asked, first_of_each_input
from tests.support.draws import drawing_each_case_once
from verification.catalog import default_catalog
from verification.certify.envelope import run_split, sweep_sizes
from verification.certify.sequential import decide
from verification.cli import main
from verification.config import load_settings, resolve_settings
from verification.run.plan import FIXED
from verification.runner import VerificationRunner
from verification.store.journal import read_journal
from verification.store.manifests import read_manifest_file
from verification.store.records import AttemptRecord
from verification.store.summary_file import RunSummary

SCAFFOLD = "kmp"
SEED = 11


@pytest.fixture(scope="module", autouse=True)
def _drawn_once() -> Iterator[None]:
    """The dry run, the run that looks and the run that asks all draw the same sweep: each case
    is drawn once (tests/support/draws.py), and calibrated once (tests/support/calibrations.py)."""
    with drawing_each_case_once(), calibrating_each_case_once():
        yield


def _right(size: int, place: int) -> bool | None:
    """Whether the script answers the ``place``-th case at ``size`` (in the sweep's order)
    right; ``None``: cut by the output budget. By size: all right, nine in ten, three in
    four, and none (the first five cut)."""
    smallest, second, third, _ = sweep_sizes(default_catalog()[SCAFFOLD])
    if size == smallest:
        return True
    if size == second:
        return place % 10 != 3
    if size == third:
        return place % 4 != 0
    return None if place < 5 else False


def _script(record: AttemptRecord, place: dict[str, int]) -> dict[str, object]:
    spec = default_catalog()[record.scaffold]
    right = True if record.case_id not in place else _right(record.size or 0, place[record.case_id])
    if right is None:
        return {"case_id": record.case_id, "text": "...", "stop_reason": "max_tokens"}
    answer = record.expected
    if not right:
        answer = spec.mutants(record.test_case(), random.Random(record.case_id))[0]
    return {"case_id": record.case_id, "text": spec.render_answer(answer)}


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every case a thorough run of kmp may ask, answered by the script."""
    root = tmp_path_factory.mktemp("sizes")
    settings = load_settings(
        provider="reference", level="thorough", seed=SEED, results_dir=root / "dry", cache=False
    )
    whole = asyncio.run(
        VerificationRunner(resolve_settings(settings), stopping=FIXED).run([SCAFFOLD])
    )
    split = run_split(default_catalog()[SCAFFOLD], whole.manifest)
    assert split is not None
    place = {i: k for ids in split.sizes.values() for k, i in enumerate(ids)}
    lines = [_script(r, place) for r in read_journal(whole.paths.journal)]
    path = root / "replay.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.mark.slow
def test_each_size_stops_where_its_plan_decides_and_asking_all_decides_the_same(
    replay: Path, tmp_path: Path
) -> None:
    output = tmp_path / "looked"
    options = ("--provider", "replay", "--replay-file", str(replay), "--seed", str(SEED))
    # The thorough level's fixed sweep (the automatic envelope searches its own sizes).
    sizes = ",".join(map(str, sweep_sizes(default_catalog()[SCAFFOLD])))
    argv = ["verify", SCAFFOLD, "--level", "thorough", "--sizes", sizes, *options]
    assert main([*argv, "--output", str(output)]) in (
        0,
        1,
    )
    (run_dir,) = (output / "runs").iterdir()
    manifest = read_manifest_file(run_dir / "manifest.json")
    split = run_split(default_catalog()[SCAFFOLD], manifest)
    assert split is not None and split.plan.sequential
    asked = {r.case_id for r in read_journal(run_dir / "results.jsonl")}
    looked = RunSummary.from_json((output / "reports" / "summary.json").read_text())
    points = {p.size: p for p in looked.scaffolds[SCAFFOLD].sweep}
    # A run that asks every size to its cap (decided afterwards, below): every case's input.
    settings = load_settings(
        provider="replay",
        replay_file=replay,
        level="thorough",
        seed=SEED,
        results_dir=tmp_path / "whole",
        cache=False,
    )
    runner = VerificationRunner(resolve_settings(settings), stopping=FIXED)
    whole = asyncio.run(runner.run([SCAFFOLD]))
    inputs = {r.case_id: r.input for r in read_journal(whole.paths.journal)}
    for size, ids in split.sizes.items():
        # A look counts each input once, at its first case (a small size has few inputs).
        firsts = first_of_each_input(ids, inputs)
        scripted = [_right(size, k) is True for k in firsts]
        decision = decide(split.plan, [float(ok) for ok in scripted], final=True)
        # Exactly the size's first cases up to its deciding look were asked.
        reach = cases_asked(split.plan.looks, firsts, decision.n) if decision.early else len(ids)
        assert [i for i in ids if i in asked] == ids[:reach]
        point = points[size]
        assert (point.status, point.n, point.decided_look) == (
            decision.status,
            decision.n,
            decision.look,
        )
        assert point.decided_early == decision.early
    assert points[min(points)].status == "CERTIFIED"
    assert any(p.decided_early for p in points.values())
    # A run that asks every size to its cap decides each size afterwards, the same.
    result = whole.results[SCAFFOLD]
    assert len(read_journal(whole.paths.journal)) > len(asked)
    assert result.envelope == looked.scaffolds[SCAFFOLD].envelope
    for after in result.size_points:
        shown = points[after.size]
        assert (after.status, after.n, after.score, after.truncated) == (
            shown.status,
            shown.n,
            shown.score,
            shown.truncated,
        )
    assert result.status == looked.scaffolds[SCAFFOLD].status


def test_sizes_look_as_they_go_under_a_fixed_level_plan_too(tmp_path: Path) -> None:
    # --cases 5 fixes the level's plan; the sizes keep their own sequential plan and its looks.
    output = tmp_path / "out"
    argv = ["verify", SCAFFOLD, "--provider", "reference", "--cases", "5", "--sizes", "6,20"]
    assert main([*argv, "--output", str(output), "--no-cache"]) == 0
    (run_dir,) = (output / "runs").iterdir()
    manifest = read_manifest_file(run_dir / "manifest.json")
    split = run_split(default_catalog()[SCAFFOLD], manifest)
    assert split is not None and split.plan.sequential and manifest.plan is not None
    assert not manifest.plan.upper  # the level's plan is fixed
    asked = [r.case_id for r in read_journal(run_dir / "results.jsonl")]
    at_each = decide(split.plan, [1.0] * split.plan.cap).n
    for ids in split.sizes.values():
        assert [i for i in ids if i in asked] == ids[:at_each] and at_each < len(ids)
    assert len(asked) == 5 + 2 * at_each
