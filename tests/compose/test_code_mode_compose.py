"""Code mode composes as trace mode does (issue 26 item 8): several models asked together
(each a run of programs on the same suite), a ``--baseline none`` pair whose bare arm is
asked for the program without the scaffold, a draft scaffold against the current one, and
``compare`` of two code-mode runs. Programs come from the fake Anthropic API on 127.0.0.1
through the real SDK, or from the dry-run provider, and run in the sandbox."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.fake_server import FakeModelServer, RecordedRequest, Reply, message
from verification.catalog.reference_programs import reference_program
from verification.cli import main
from verification.config import packaged_scaffolds_dir
from verification.errors import SandboxUnavailableError
from verification.llm.bare_prompt import bare_scaffold
from verification.registry import get_spec
from verification.run.sandbox import available_engine
from verification.store.journal import read_journal
from verification.store.manifests import read_manifest_file

pytestmark = pytest.mark.slow  # every test here runs programs in the sandbox

STRONG, WEAK = "claude-strong-test-model", "claude-haiku-4-5"
PROGRAMS = 2
WRONG = "def solve(input):\n    return {'positions': []}\n"


@pytest.fixture(autouse=True, scope="module")
def sandbox() -> None:
    try:
        available_engine()
    except SandboxUnavailableError as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"code mode cannot run in CI: {error}")
        pytest.skip(f"no sandbox here: {error}")


def _reply(source: str) -> str:
    return f"The program.\n\n```python\n{source}```\n"


def _system(sent: RecordedRequest) -> str:
    system = sent.json.get("system", "")
    return system if isinstance(system, str) else "".join(b["text"] for b in system)


def _runs(output: Path) -> list[Path]:
    return sorted((output / "runs").iterdir(), key=lambda p: p.stat().st_mtime_ns)


def _verify(output: Path, *extra: str) -> int:
    argv = ["verify", "kmp", "--answer", "code", "--cases", str(PROGRAMS), "--level", "quick"]
    return main([*argv, "--output", str(output), *extra])


def test_several_models_each_write_programs_run_on_the_same_suite(
    anthropic_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    right = reference_program(get_spec("kmp"))

    def answer(sent: RecordedRequest) -> Reply:
        model = sent.json["model"]
        return message(_reply(right if model == STRONG else WRONG), model=model)

    anthropic_env.script([answer] * (2 * PROGRAMS))
    output = tmp_path / "out"
    assert _verify(output, "--provider", "anthropic", "--model", STRONG, "--model", WEAK) == 0
    users = {(s.json["model"], s.json["messages"][0]["content"]) for s in anthropic_env.requests}
    assert {model for model, _ in users} == {STRONG, WEAK}
    assert len({user for _, user in users}) == 1  # one Code Format for every program
    outcomes: dict[str, set[str]] = {}
    suites: list[list[str]] = []
    for run in _runs(output):
        records = read_journal(run / "results.jsonl")
        assert {r.tier for r in records} == {"program"} and len(records) == PROGRAMS
        (model,) = {r.model_asked for r in records}
        assert model is not None
        outcomes[model] = {r.outcome for r in records}
        first = records[0].program
        assert first is not None
        suites.append([c.case_id for c in first.cases])
    assert outcomes == {STRONG: {"passed"}, WEAK: {"failed"}}
    assert suites[0] == suites[1]  # the same suite for both models

    strong, weak = (
        run
        for model in (STRONG, WEAK)
        for run in _runs(output)
        if read_journal(run / "results.jsonl")[0].model_asked == model
    )
    capsys.readouterr()
    page = tmp_path / "compare.html"
    assert main(["compare", str(strong), str(weak), "--html", str(page)]) == 0
    out = capsys.readouterr().out
    row = [line.split() for line in out.splitlines() if line.startswith("kmp ")][-1]
    assert row[1:4] == [str(PROGRAMS), str(PROGRAMS), "0"]  # shared, only A, only B
    assert "kmp-program-000" in page.read_text(encoding="utf-8")


def test_the_bare_arm_is_asked_for_the_program_without_the_scaffold(
    anthropic_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = get_spec("kmp")
    scaffold = (packaged_scaffolds_dir() / spec.scaffold_file).read_text(encoding="utf-8")
    right = reference_program(spec)
    anthropic_env.script([message(_reply(right))] * (2 * PROGRAMS))
    output = tmp_path / "out"
    assert _verify(output, "--provider", "anthropic", "--baseline", "none") == 0
    systems = [_system(sent) for sent in anthropic_env.requests]
    assert systems.count(bare_scaffold(scaffold)) == PROGRAMS
    assert systems.count(scaffold) == PROGRAMS
    (user,) = {sent.json["messages"][0]["content"] for sent in anthropic_env.requests}
    assert user.startswith("## Code Format") and "def solve(input: dict) -> dict:" in user
    manifests = [read_manifest_file(run / "manifest.json") for run in _runs(output)]
    assert sorted(str(m.variant) for m in manifests) == ["None", "bare"]
    assert manifests[0].scaffolds["kmp"].case_ids == manifests[1].scaffolds["kmp"].case_ids
    out = capsys.readouterr().out
    assert "lift of kmp" in out


def test_a_draft_scaffold_is_compared_with_the_current_one_in_code_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = get_spec("kmp")
    scaffold = (packaged_scaffolds_dir() / spec.scaffold_file).read_text(encoding="utf-8")
    draft = tmp_path / "draft.md"
    draft.write_text(scaffold + "\nOne more hint.\n", encoding="utf-8")
    output = tmp_path / "out"
    argv = ["--provider", "reference", "--scaffold-file", str(draft), "--baseline"]
    assert _verify(output, *argv) == 0
    out = capsys.readouterr().out
    manifests = [read_manifest_file(run / "manifest.json") for run in _runs(output)]
    assert sorted(str(m.variant) for m in manifests) == ["None", "draft"]
    for run in _runs(output):
        records = read_journal(run / "results.jsonl")
        assert {(r.tier, r.outcome) for r in records} == {("program", "passed")}
    assert "RATE current" in out and "RATE draft" in out
    row = [line.split() for line in out.splitlines() if line.startswith("kmp ")][-1]
    assert row[6:9] == ["100.0%", "100.0%", "+0.0pp"]
