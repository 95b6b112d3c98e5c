"""A resumed run of a ``--baseline`` pair goes on as its arm: a bare arm is asked the bare
prompt again (not the scaffold), and every arm's new journal lines name it, whoever resumes
it (``verify --resume`` builds an ordinary runner)."""

from __future__ import annotations

import asyncio
import json
import shlex
from pathlib import Path

import pytest

from verification.catalog import default_catalog
from verification.cli import main
from verification.config import load_settings, packaged_scaffolds_dir
from verification.llm.bare_prompt import BarePromptBuilder
from verification.llm.base import LLMRequest, LLMResponse
from verification.llm.dry_run import ReplayProvider
from verification.llm.prompt_builder import PromptBuilder
from verification.runner import VerificationRunner
from verification.store.journal import read_journal
from verification.store.locks import RunLock
from verification.store.manifests import read_manifest_file
from verification.store.records import Arm

CASES = 6
WRONG = "```json\n{}\n```"


class RecordingReplay(ReplayProvider):
    """The replay provider, keeping every request it was sent."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.sent: list[LLMRequest] = []

    async def generate(self, request: LLMRequest) -> LLMResponse:
        self.sent.append(request)
        return await super().generate(request)


def _replay(path: Path, lines: list[dict[str, str]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.mark.slow  # a dry run, a run and its resume: some seconds
@pytest.mark.parametrize("arm", ["bare", "scaffold"])
@pytest.mark.parametrize("recorded", [True, False], ids=["arm recorded", "older manifest"])
def test_a_resumed_pair_run_keeps_its_arm_and_its_prompt(
    tmp_path: Path, arm: Arm, recorded: bool
) -> None:
    output = tmp_path / "out"
    scaffolds = packaged_scaffolds_dir()
    builder = BarePromptBuilder(scaffolds) if arm == "bare" else PromptBuilder(scaffolds)
    reference = load_settings(results_dir=output, provider="reference", cases=CASES, cache=False)
    ids = [
        r.case_id
        for r in read_journal(asyncio.run(VerificationRunner(reference).run(["kmp"])).paths.journal)
    ]
    # The run of the arm: half its cases have no line, so it ends with them left to ask.
    half = _replay(tmp_path / "half.jsonl", [{"case_id": i, "text": WRONG} for i in ids[::2]])
    settings = load_settings(
        results_dir=output, provider="replay", replay_file=half, cases=CASES, cache=False
    )
    first = asyncio.run(VerificationRunner(settings, prompt_builder=builder, arm=arm).run(["kmp"]))
    assert first.manifest.arm == arm
    if not recorded:  # a manifest written before arms were kept: its journal names the arm
        path = first.paths.run_dir / "manifest.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        del data["arm"]
        path.write_text(json.dumps(data), encoding="utf-8")
    left = {r.case_id for r in read_journal(first.paths.journal) if r.outcome == "infra_error"}
    assert left == set(ids[1::2])
    # Every case answered by another arm first: a run that forgot its arm is served those.
    other = "scaffold" if arm == "bare" else "bare"
    full = _replay(
        tmp_path / "full.jsonl",
        [{"case_id": i, "arm": name, "text": f"{name} {i}"} for i in ids for name in (other, arm)],
    )
    provider = RecordingReplay(full)
    resumed_settings = load_settings(
        results_dir=output, provider="replay", replay_file=full, cases=CASES, cache=False
    )
    # As verify --resume makes it: an ordinary runner, no arm, the scaffold's prompt builder.
    resumer = VerificationRunner(resumed_settings, provider=provider)
    asyncio.run(resumer.run([], resume=first.run_id))
    spec = default_catalog()["kmp"]
    assert {request.case_id for request in provider.sent} == left
    assert {request.system for request in provider.sent} == {builder.get_scaffold_content(spec)}
    assert {request.arm for request in provider.sent} == {arm}
    again = [
        r
        for r in read_journal(first.paths.journal)
        if r.case_id in left and r.outcome != "infra_error"
    ]
    assert {(r.arm, r.raw_response) for r in again} == {(arm, f"{arm} {i}") for i in left}


def _dry_run(tmp_path: Path) -> tuple[Path, list[str], Path, list[str]]:
    """A dry run of kmp in ``tmp_path/out``: the results folder, the command line of its
    runs (no provider), the run and its case ids in journal order."""
    output = tmp_path / "out"
    argv = ["verify", "kmp", "--cases", str(CASES), "--output", str(output)]
    assert main([*argv, "--provider", "reference"]) == 0
    (dry,) = (output / "runs").iterdir()
    return output, argv, dry, [r.case_id for r in read_journal(dry / "results.jsonl")]


@pytest.mark.slow  # a dry run, a pair stopped and its resume: some seconds
def test_a_pair_stopped_in_its_bare_run_says_how_to_resume_it_and_resumes_bare(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output, argv, dry, ids = _dry_run(tmp_path)
    # The key is refused on the last case of the bare run: the pair stops there.
    lines: list[dict[str, str]] = [{"case_id": i, "arm": "bare", "text": WRONG} for i in ids]
    lines[-1] = {"case_id": ids[-1], "arm": "bare", "error": "auth"}
    stopping = _replay(tmp_path / "stopping.jsonl", lines)
    capsys.readouterr()
    replay = ["--provider", "replay", "--replay-file"]
    assert main([*argv, *replay, str(stopping), "--baseline", "none"]) != 0
    said = capsys.readouterr().err
    (bare,) = set((output / "runs").iterdir()) - {dry}
    command = shlex.split(said[said.index("continue with: ") :].split("\n")[0])[2:]
    assert command[1:4] == ["verify", "--resume", bare.name]
    # And that the resume finishes this run alone, and what makes the pair (hunt ii).
    assert f"run {bare.name} is the first (bare) run of a --baseline pair" in said
    assert "the pair's command, given again, makes both runs" in said
    # Resumed as it says, with the refused line answered now: the bare arm goes on bare.
    answering = _replay(
        tmp_path / "answering.jsonl",
        [*lines[:-1], {"case_id": ids[-1], "arm": "bare", "text": WRONG}],
    )
    resumed = command[command.index("verify") :]
    resumed[resumed.index("--replay-file") + 1] = str(answering)
    main(resumed)
    last = [r for r in read_journal(bare / "results.jsonl") if r.case_id == ids[-1]]
    assert [(r.arm, r.raw_response) for r in last if r.outcome != "infra_error"] == [
        ("bare", WRONG)
    ]


@pytest.mark.slow  # a dry run, a pair stopped in its second run and its resume
@pytest.mark.parametrize("held", [False, True], ids=["first arm free", "first arm in use"])
def test_a_pair_stopped_in_its_scaffold_run_is_linked_once_the_resume_ends(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    held: bool,
) -> None:
    # Hunt ll 4: the resumed second arm was never linked with the first, so compare took
    # the pair for two runs of an edited scaffold and gave no lift.
    output, argv, dry, ids = _dry_run(tmp_path)
    bare = [{"case_id": i, "arm": "bare", "text": WRONG} for i in ids]
    right = {r.case_id: r.raw_response or "" for r in read_journal(dry / "results.jsonl")}
    scaffold = [{"case_id": i, "arm": "scaffold", "text": right[i]} for i in ids]
    stopping = _replay(
        tmp_path / "stopping.jsonl",
        [*bare, *scaffold[:-1], {"case_id": ids[-1], "arm": "scaffold", "error": "auth"}],
    )
    replay = ["--provider", "replay", "--replay-file"]
    assert main([*argv, *replay, str(stopping), "--baseline", "none"]) != 0
    runs = {
        read_manifest_file(run / "manifest.json").arm: run
        for run in set((output / "runs").iterdir()) - {dry}
    }
    first, second = runs["bare"], runs["scaffold"]
    assert read_manifest_file(first / "manifest.json").linked_run is None
    answering = _replay(tmp_path / "answering.jsonl", [*bare, *scaffold])
    capsys.readouterr()
    resume = [*argv[:1], "--resume", second.name, *replay, str(answering), *argv[-2:]]
    if held:  # the first arm in use elsewhere: the run is reported unlinked, and says why
        with RunLock(first, first.name):
            assert main(resume) == 0
        assert "not linked with its pair's first arm" in caplog.text
        assert (second / "reports" / "summary.json").is_file()
        assert read_manifest_file(first / "manifest.json").linked_run is None
        return
    assert main(resume) == 0
    said = capsys.readouterr().err
    assert f"ended the --baseline pair begun by run {first.name}, now linked" in said
    a, b = (read_manifest_file(run / "manifest.json") for run in (first, second))
    assert (a.linked_run, a.variant, b.linked_run, b.variant) == (b.run_id, "bare", a.run_id, None)
    assert main(["compare", first.name, second.name, "--output", str(output)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[:2] == [f"no scaffold: run {a.run_id}", f"scaffold: run {b.run_id}"]
    assert "lift of kmp" in out and "edited between them" not in out


@pytest.mark.slow  # a dry run, a pair, a rerun stopped and its resume: some seconds
def test_the_failures_of_a_bare_arm_are_asked_bare_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt ll 5: --rerun-failed of a bare arm asked its failures with the scaffold, another
    # question than the one they failed.
    output, argv, dry, ids = _dry_run(tmp_path)
    right = {r.case_id: r.raw_response or "" for r in read_journal(dry / "results.jsonl")}
    pair = _replay(
        tmp_path / "pair.jsonl",
        [{"case_id": i, "arm": "bare", "text": WRONG} for i in ids]
        + [{"case_id": i, "arm": "scaffold", "text": right[i]} for i in ids],
    )
    replay = ["--provider", "replay", "--replay-file"]
    assert main([*argv, *replay, str(pair), "--baseline", "none"]) == 0
    runs = {
        read_manifest_file(run / "manifest.json").arm: run
        for run in set((output / "runs").iterdir()) - {dry}
    }
    bare = runs["bare"]
    # The scaffold's lines first: a rerun that forgot the arm is served those. The last
    # case's bare line is a refused key, so the rerun stops there and is resumed.
    stopping = [{"case_id": i, "arm": "scaffold", "text": right[i]} for i in ids] + [
        {"case_id": i, "arm": "bare", "text": f"bare {i}"} for i in ids[:-1]
    ]
    rerun = ["verify", "--rerun-failed", bare.name, "--output", str(output), *replay]
    capsys.readouterr()
    assert (
        main(
            [
                *rerun,
                str(
                    _replay(
                        tmp_path / "stopping.jsonl",
                        [*stopping, {"case_id": ids[-1], "arm": "bare", "error": "auth"}],
                    )
                ),
            ]
        )
        != 0
    )
    said = capsys.readouterr().err
    assert f"note: run {bare.name} asked its cases bare" in said
    assert "continue with: " in said and "is the first (bare) run" not in said  # no pair's
    (again,) = set((output / "runs").iterdir()) - {dry, *runs.values()}
    manifest = read_manifest_file(again / "manifest.json")
    own = read_manifest_file(bare / "manifest.json")
    assert (manifest.arm, manifest.reruns, manifest.linked_run) == ("bare", bare.name, None)
    assert manifest.scaffolds["kmp"].sha256 == own.scaffolds["kmp"].sha256  # the bare text
    answering = _replay(
        tmp_path / "answering.jsonl",
        [*stopping, {"case_id": ids[-1], "arm": "bare", "text": f"bare {ids[-1]}"}],
    )
    main(["verify", "--resume", again.name, "--output", str(output), *replay, str(answering)])
    said = capsys.readouterr().err
    assert "is the first (bare) run" not in said
    answered = [r for r in read_journal(again / "results.jsonl") if r.outcome != "infra_error"]
    assert {(r.case_id, r.arm, r.raw_response) for r in answered} == {
        (i, "bare", f"bare {i}") for i in ids
    }
    # The estimate prices the prompt the rerun sends: the bare one, as the pair's bare arm
    # (hunt rr: it priced the scaffold's, three times the tokens).
    estimate = [
        *("verify", "--rerun-failed", bare.name, "--output", str(output), "--estimate"),
        *("--provider", "anthropic", "--model", "claude-haiku-4-5"),
    ]
    capsys.readouterr()
    assert main(estimate) == 0
    alone = [line for line in capsys.readouterr().out.splitlines() if line.startswith("kmp ")]
    assert main([*estimate, "--baseline", "none"]) == 0
    pair = capsys.readouterr().out.split("--baseline arm bare:")[1].split("--baseline arm")[0]
    assert alone and alone == [line for line in pair.splitlines() if line.startswith("kmp ")]
