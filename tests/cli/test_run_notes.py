"""What the reports say of how a run's answers came, the terminal says too (issue 27 item
8): answers taken from the response cache, and a scaffold a look of its plan stopped early."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support.fake_server import FakeModelServer, kmp_messages
from verification.certify.envelope import size_plan
from verification.certify.sequential import plan_for
from verification.cli import main
from verification.store.manifests import read_manifest_file
from verification.store.summary_file import RunSummary

MODEL, SEED, CASES = "claude-notes-model", 13, 4


def _run_dir(output: Path) -> Path:
    (run,) = (output / "runs").iterdir()
    return run


@pytest.mark.slow
def test_answers_from_the_cache_are_said_on_the_terminal(
    anthropic_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    anthropic_env.script([kmp_messages(SEED, CASES)] * CASES)
    argv = ["verify", "kmp", "--provider", "anthropic", "--model", MODEL, "--seed", str(SEED)]
    argv += ["--cases", str(CASES), "--concurrency", "1"]
    assert main([*argv, "--output", str(tmp_path / "first")]) == 0
    assert "from the response cache" not in capsys.readouterr().out  # every answer live
    assert main([*argv, "--output", str(tmp_path / "again")]) == 0
    assert len(anthropic_env.requests) == CASES  # the second run asked nothing
    out = capsys.readouterr().out
    summary = RunSummary.from_json(
        (_run_dir(tmp_path / "again") / "reports/summary.json").read_text()
    )
    assert f"kmp: {CASES} answer(s) from the response cache (no model call" in out
    assert summary.run_id in out


def test_a_scaffold_stopped_early_is_said_on_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "out"
    assert main(["verify", "kmp", "--provider", "reference", "--output", str(output)]) == 0
    manifest = read_manifest_file(_run_dir(output) / "manifest.json")
    stop = (manifest.early_stops or {})["kmp"]
    planned = len(manifest.scaffolds["kmp"].case_ids)
    out = capsys.readouterr().out
    assert (
        f"kmp: stopped early at n = {stop.cases}: look {stop.look} of {stop.looks} decided "
        f"after {stop.cases} of {planned} planned cases" in out
    )


def test_each_arm_of_a_pair_says_its_notes_under_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hunt ad: a ``--baseline`` pair printed none of its runs' notes (nor their costs)."""
    output = tmp_path / "out"
    argv = ["verify", "kmp", "--provider", "reference", "--baseline", "none"]
    assert main([*argv, "--output", str(output)]) == 0
    out = capsys.readouterr().out
    for run in (output / "runs").iterdir():
        manifest = read_manifest_file(run / "manifest.json")
        stop = (manifest.early_stops or {})["kmp"]
        arm = "no scaffold" if manifest.variant == "bare" else "scaffold"
        assert f"\n{arm}: kmp: stopped early at n = {stop.cases}: look {stop.look} " in out


def test_a_look_that_read_fewer_cases_than_were_asked_says_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hunt gg read "decided after 70 of 180 planned cases" of a look that decided on 60
    inputs: n_queens' small boards repeat, and its copies are asked but counted by no look."""
    output = tmp_path / "out"
    assert main(["verify", "n_queens", "--provider", "reference", "--output", str(output)]) == 0
    manifest = read_manifest_file(_run_dir(output) / "manifest.json")
    stop = (manifest.early_stops or {})["n_queens"]
    summary = json.loads((output / "reports" / "summary.json").read_text())
    n = summary["scaffolds"]["n_queens"]["n"]
    assert stop.cases > n  # the point of the test: copies asked before the deciding case
    out = capsys.readouterr().out
    assert (
        f"n_queens: stopped early at n = {n}: look {stop.look} of {stop.looks} decided on the "
        f"first {n} counted; {stop.cases} of {len(manifest.scaffolds['n_queens'].case_ids)} "
        "planned cases had been asked" in out
    )


@pytest.mark.slow
def test_a_swept_run_promises_what_its_plans_ask(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 27 item 4: the header said 35 cases at each swept size and the terminal counted
    # every size's cases as the level's, while each size is decided by a plan of its own.
    output = tmp_path / "out"
    argv = ["verify", "dijkstra", "--sizes", "4,8,12,16", "--provider", "reference"]
    assert main([*argv, "--output", str(output)]) == 0
    out = capsys.readouterr().out
    run = _run_dir(output)
    manifest = read_manifest_file(run / "manifest.json")
    level, swept = plan_for(manifest.level or ""), size_plan(manifest.level)
    header = next(
        line
        for line in (run / "reports/summary.md").read_text().splitlines()
        if line.startswith("Run ")
    )
    promised = re.search(
        r"up to (\d+) cases per scaffold, .* plus up to (\d+) cases at each", header
    )
    assert promised is not None, header
    assert [int(n) for n in promised.groups()] == [level.cap, swept.cap], header
    assert f"each decided by its own `{swept.name}` plan" in header
    stop = (manifest.early_stops or {})["dijkstra"]
    assert f"after {stop.cases} of {level.cap} planned cases" in out, out
    result = RunSummary.from_json((run / "reports/summary.json").read_text()).scaffolds["dijkstra"]
    assert result.n <= level.cap
    assert [point.size for point in result.sweep] == [4, 8, 12, 16]
    assert all(0 < point.n <= swept.cap for point in result.sweep)


def _right_replies(names: list[str]) -> dict[str, str]:
    """The right reply to each case of ``names`` a run of :data:`CASES` cases with
    :data:`SEED` asks, by its user prompt."""
    from verification.config import packaged_scaffolds_dir
    from verification.llm.prompt_builder import PromptBuilder
    from verification.registry import get_spec
    from verification.runner import plan_cases

    builder = PromptBuilder(packaged_scaffolds_dir())
    return {
        builder.build(name, case.input).user: get_spec(name).render_answer(case.expected)
        for name, cases in plan_cases(names, seed=SEED, cases=CASES).items()
        for case in cases
    }


@pytest.mark.slow
def test_answers_of_several_scaffolds_from_the_cache_are_said_in_one_line(
    anthropic_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt t: a run of the catalog from the cache printed 33 such lines, one per scaffold.
    names = ["kmp", "rabin_karp", "bfs"]
    replies = _right_replies(names)
    anthropic_env.script(
        [lambda sent: anthropic_env.message(replies[sent.json["messages"][0]["content"]])]
        * len(replies)
    )
    argv = ["verify", *names, "--provider", "anthropic", "--model", MODEL, "--seed", str(SEED)]
    argv += ["--cases", str(CASES), "--concurrency", "1"]
    assert main([*argv, "--output", str(tmp_path / "first")]) == 0
    assert main([*argv, "--output", str(tmp_path / "again")]) == 0
    assert len(anthropic_env.requests) == len(replies)  # the second run asked nothing
    lines = [line for line in capsys.readouterr().out.splitlines() if "response cache" in line]
    assert lines == [
        f"{len(replies)} answer(s) from the response cache, for {len(names)} scaffold(s) (no "
        "model call for them; --no-cache asks the model again; each scaffold's count is in "
        "its report)"
    ]
