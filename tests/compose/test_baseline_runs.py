"""``verify --baseline``: two linked runs on the same cases through the real Anthropic SDK
against the fake server, compared pair by pair; a repeat is answered by the response cache.

The fake model answers right only when the system prompt teaches the method (it holds the
scaffold's ``## Scaffold Instructions``), so the paired comparison has a known split."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from verification.certify.paired import paired_difference_interval
from verification.cli import main
from verification.config import packaged_scaffolds_dir
from verification.llm.bare_prompt import bare_scaffold
from verification.registry import get_spec
from verification.store.journal import read_journal
from verification.store.manifests import read_manifest_file, run_manifests
from verification.store.paths import RunPaths

if TYPE_CHECKING:
    from tests.support.fake_server import FakeModelServer, RecordedRequest, Reply

MODEL = "claude-test-model"
SEED = 5
CASES = 8


def _system(sent: RecordedRequest) -> str:
    system = sent.json.get("system", "")
    return system if isinstance(system, str) else "".join(b["text"] for b in system)


@pytest.fixture
def taught_model(fake_server: FakeModelServer, monkeypatch: pytest.MonkeyPatch) -> FakeModelServer:
    """Right answers when the method is in the system prompt, ``{}`` otherwise."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-baseline-test")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_server.base_url)
    replies = fake_server.right_kmp_replies(SEED, CASES)

    def answer(sent: RecordedRequest) -> Reply:
        if "## Scaffold Instructions" not in _system(sent):  # the bare arm: its own user prompt
            assert "follow the scaffold" not in sent.json["messages"][0]["content"]
            return fake_server.message("```json\n{}\n```")
        return fake_server.message(replies[sent.json["messages"][0]["content"]])

    fake_server.script([answer] * (2 * CASES))
    return fake_server


def _verify(output: Path, *extra: str) -> int:
    argv = ["verify", "kmp", "--provider", "anthropic", "--model", MODEL, "--seed", str(SEED)]
    code = main([*argv, "--cases", str(CASES), "--output", str(output), *extra])
    return code


def _pair(output: Path) -> tuple[Any, Any]:
    manifests = [read_manifest_file(run / "manifest.json") for run in (output / "runs").iterdir()]
    (a,) = [m for m in manifests if m.variant == "bare"]
    (b,) = [m for m in manifests if m.variant is None]
    return a, b


@pytest.mark.slow
def test_baseline_none_pairs_the_bare_model_with_the_scaffold_and_repeats_from_cache(
    taught_model: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from scipy.stats import binomtest

    output = tmp_path / "out"
    assert _verify(output, "--baseline", "none") == 0
    first = capsys.readouterr().out
    assert len(taught_model.requests) == 2 * CASES
    bare = [s for s in map(_system, taught_model.requests) if "## Scaffold Instructions" not in s]
    scaffold_text = (packaged_scaffolds_dir() / get_spec("kmp").scaffold_file).read_text()
    assert set(bare) == {bare_scaffold(scaffold_text)} and len(bare) == CASES
    assert "## Output Format" in bare[0] and "## Worked Example" not in bare[0]
    a, b = _pair(output)
    assert (a.linked_run, b.linked_run) == (b.run_id, a.run_id)
    assert a.scaffolds["kmp"].case_ids == b.scaffolds["kmp"].case_ids
    (row,) = [line.split() for line in first.splitlines() if line.startswith("kmp ")][-1:]
    p = binomtest(0, CASES, 0.5).pvalue
    assert row[:6] == ["kmp", str(CASES), "0", str(CASES), f"{p:.4f}", f"{p:.4f}"]
    assert row[-3:] == ["scaffold", "is", "better"]
    low, high = paired_difference_interval([0.0] * CASES, [1.0] * CASES)
    assert row[6:12] == ["0.0%", "100.0%", "+100.0pp", f"({100 * low:+.1f}pp", "to", "+100.0pp)"]
    assert high == 1.0
    # Each arm's cost, and each arm's answers from the cache below, said as a run says them
    # (hunt ad: a pair said neither).
    costs = [line.split(": cost: ")[0] for line in first.splitlines() if ": cost: " in line]
    assert costs == ["no scaffold", "scaffold"]
    # The scaffold run is not compared with the bare one as if it were its previous run.
    summary = json.loads((RunPaths(output, b.run_id).reports / "summary.json").read_text())
    assert summary["previous_run_id"] is None

    assert _verify(output, "--baseline", "none") == 0
    again = capsys.readouterr().out
    assert len(taught_model.requests) == 2 * CASES, "the repeat asked nothing"
    newest = sorted((output / "runs").iterdir(), key=lambda p: p.stat().st_mtime)[-2:]
    for run in newest:
        assert {r.source for r in read_journal(run / "results.jsonl")} == {"cache"}
    assert again.splitlines()[-2].split() == first.splitlines()[-2].split()
    for arm in ("no scaffold", "scaffold"):
        assert f"\n{arm}: kmp: {CASES} answer(s) from the response cache (no model" in again


def test_baseline_without_a_draft_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["verify", "kmp", "--provider", "reference", "--baseline", "--output", str(tmp_path)]
    assert main(argv) == 2
    assert "--scaffold-file" in capsys.readouterr().err


@pytest.mark.parametrize("budget", ["option", "environment"])
def test_a_pair_under_max_cost_is_refused_before_any_request(
    taught_model: FakeModelServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    budget: str,
) -> None:
    # Each arm is a run with its own budget: one invocation could spend twice --max-cost.
    monkeypatch.setenv("VERIFY_PRICES", json.dumps({MODEL: {"input": 1.0, "output": 5.0}}))
    extra = ("--max-cost", "0.2") if budget == "option" else ()
    if budget == "environment":
        monkeypatch.setenv("VERIFY_MAX_COST", "0.2")
    assert _verify(tmp_path, "--baseline", "none", *extra) == 2
    error = capsys.readouterr().err
    assert "--max-cost" in error and "--baseline" in error and "Traceback" not in error
    assert taught_model.requests == []
    assert not (tmp_path / "runs").exists()


def test_the_estimate_of_a_pair_is_printed_under_a_budget(
    taught_model: FakeModelServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The refusal points at --estimate --baseline: it must still answer with a budget set.
    monkeypatch.setenv("VERIFY_PRICES", json.dumps({MODEL: {"input": 1.0, "output": 5.0}}))
    assert _verify(tmp_path, "--baseline", "none", "--estimate", "--max-cost", "0.2") == 0
    assert "the pair" in capsys.readouterr().out
    assert taught_model.requests == []


def test_baseline_compares_the_current_scaffold_with_a_draft(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scaffold_text = (packaged_scaffolds_dir() / get_spec("kmp").scaffold_file).read_text()
    draft = tmp_path / "draft.md"
    draft.write_text(scaffold_text + "\nOne more hint.\n", encoding="utf-8")
    output = tmp_path / "out"
    argv = ["verify", "kmp", "--provider", "reference", "--cases", "6", "--output", str(output)]
    assert main([*argv, "--scaffold-file", str(draft), "--baseline"]) == 0
    out = capsys.readouterr().out
    manifests = [read_manifest_file(run / "manifest.json") for run in (output / "runs").iterdir()]
    variants = sorted(str(m.variant) for m in manifests)
    assert variants == ["None", "draft"]
    assert "current: run" in out and "draft: run" in out and "current BETTER" in out
    assert "significance out of reach at this n" in out  # a dry run: every answer right
    assert "RATE current" in out and "RATE draft" in out  # both rates, then the difference
    (row,) = [line.split() for line in out.splitlines() if line.startswith("kmp ")][-1:]
    assert row[6:9] == ["100.0%", "100.0%", "+0.0pp"]


def _arm_runs(output: Path, after: set[Path]) -> dict[str, Path]:
    """The runs of the newest pair under ``output`` (those not in ``after``), by arm."""
    runs = {}
    for run in set((output / "runs").iterdir()) - after:
        (arm,) = {r.arm for r in read_journal(run / "results.jsonl")}
        assert arm is not None
        runs[arm] = run
    return runs


def _table(out: str) -> list[list[str]]:
    """The comparison's rows (one per scaffold), run ids left out."""
    return [line.split() for line in out.splitlines() if line.startswith("kmp ")]


@pytest.mark.slow  # three pairs of runs: about ten seconds
def test_a_baseline_none_pair_replays_each_arm_its_own_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "out"
    argv = ["verify", "kmp", "--cases", "6", "--output", str(output)]
    assert main([*argv, "--provider", "reference", "--baseline", "none"]) == 0
    recorded = _arm_runs(output, set())
    assert set(recorded) == {"bare", "scaffold"}
    # A replay file whose arms answer differently: the bare arm wrong, the scaffold arm right,
    # the bare lines first (the order a run of no arm would be served them in).
    replay = tmp_path / "replay.jsonl"
    lines = [
        json.dumps({"case_id": r.case_id, "arm": arm, "text": text(r.raw_response)})
        for arm, text in (("bare", lambda _: "```json\n{}\n```"), ("scaffold", lambda t: t))
        for r in read_journal(recorded[arm] / "results.jsonl")
    ]
    replay.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    seen = set((output / "runs").iterdir())
    replayed = [*argv, "--provider", "replay", "--baseline", "none"]
    main([*replayed, "--replay-file", str(replay)])
    first = capsys.readouterr().out
    runs = _arm_runs(output, seen)
    texts = {
        arm: {r.raw_response for r in read_journal(run / "results.jsonl")}
        for arm, run in runs.items()
    }
    assert texts["bare"] == {"```json\n{}\n```"}
    assert texts["scaffold"] == {
        r.raw_response for r in read_journal(recorded["scaffold"] / "results.jsonl")
    }
    # The pair's own two journals, joined, replay as the pair: the same comparison again.
    joined = tmp_path / "joined.jsonl"
    joined.write_text(
        "".join((run / "results.jsonl").read_text(encoding="utf-8") for run in runs.values()),
        encoding="utf-8",
    )
    seen = set((output / "runs").iterdir())
    main([*replayed, "--replay-file", str(joined)])
    again = capsys.readouterr().out
    assert _table(again) == _table(first) and _table(first)
    (row,) = _table(first)[-1:]
    assert row[6:9] == ["0.0%", "100.0%", "+100.0pp"]
    rerun = _arm_runs(output, seen)
    assert (
        main(["compare", rerun["bare"].name, rerun["scaffold"].name, "--output", str(output)]) == 0
    )
    compared = capsys.readouterr().out
    assert main(["compare", runs["bare"].name, runs["scaffold"].name, "--output", str(output)]) == 0
    assert _table(capsys.readouterr().out) == _table(compared) == _table(first)[-1:]


def test_the_estimate_of_a_pair_prices_both_arms_and_their_sum(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-estimate-only")
    argv = ["verify", "kmp", "--provider", "anthropic", "--model", "claude-sonnet-4-5"]
    argv += ["--cases", "6", "--output", str(tmp_path), "--estimate", "--baseline", "none"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert not (tmp_path / "runs").exists()
    assert [line for line in out.splitlines() if line.startswith("--baseline arm")] == [
        "--baseline arm bare:",
        "--baseline arm scaffold:",
    ]
    # Each arm's system prompt as it would be sent, counted at four characters a token.
    scaffolds = packaged_scaffolds_dir()
    texts = [
        bare_scaffold((scaffolds / get_spec("kmp").scaffold_file).read_text(encoding="utf-8")),
        (scaffolds / get_spec("kmp").scaffold_file).read_text(encoding="utf-8"),
    ]
    rows = [line.split() for line in out.splitlines() if line.startswith("kmp ")]
    assert [int(row[2].replace(",", "")) for row in rows] == [-(-len(t) // 4) for t in texts]
    totals = re.findall(r"^total: .*at most \$([0-9.]+) for", out, re.MULTILINE)
    assert len(totals) == 2
    (pair,) = re.findall(r"^the pair: two runs, at most \$([0-9.]+) for", out, re.MULTILINE)
    assert float(pair) == pytest.approx(sum(map(float, totals)), abs=1e-4)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.usefixtures("sigint_heard")
def test_a_pair_stopped_in_its_second_run_says_how_to_finish_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A helper's hunt: Ctrl-C in the second arm named only that run's resume; the first,
    # finished, was left with no reports, and the pair unlinked.
    from verification.llm.dry_run import ReferenceProvider

    answer = ReferenceProvider.generate

    async def stopped_in_b(self: ReferenceProvider, request: Any) -> Any:
        if request.arm == "scaffold":
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, while the second arm asks
            await asyncio.sleep(0)
        return await answer(self, request)

    monkeypatch.setattr(ReferenceProvider, "generate", stopped_in_b)
    argv = ["verify", "kmp", "--cases", "4", "--provider", "reference", "--output", str(tmp_path)]
    assert main([*argv, "--baseline", "none"]) == 130
    err = capsys.readouterr().err
    arms = {manifest.arm: manifest.run_id for manifest in run_manifests(tmp_path)}
    first, second = arms["bare"], arms["scaffold"]
    assert f"--resume {second}" in err
    assert f"report {first} --output {tmp_path}" in err
    assert f"compare {first} {second} --output {tmp_path}" in err
