"""Under GitHub Actions a scaffold that fails or regresses is an ``::error`` workflow command
on its scaffold file, escaped as GitHub's workflow commands ask (issue 27 item 13)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reports.conftest import ScriptedRun
from verification.certify.results import ScaffoldResults
from verification.registry import get_spec
from verification.reports.ci import github_annotations
from verification.store.journal import read_journal
from verification.store.manifests import read_manifest_file
from verification.store.paths import RunPaths
from verification.store.summary_file import RunSummary

CHECKOUT = Path(__file__).resolve().parents[2]


def _unescape(text: str) -> str:
    """What the runner reads back from an escaped message or property."""
    for escaped, plain in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(escaped, plain)
    return text


def _errors(out: str) -> dict[str, str]:
    """The ``::error`` lines of ``out``: file -> message, both read back."""
    found = {}
    for line in out.splitlines():
        if line.startswith("::error "):
            head, message = line[len("::error ") :].split("::", 1)
            assert head.startswith("file=")
            found[_unescape(head[len("file=") :])] = _unescape(message)
    return found


def _results(output: Path, run_id: str) -> ScaffoldResults:
    paths = RunPaths(output, run_id)
    planned = len(read_manifest_file(paths.manifest).scaffolds["kmp"].case_ids)
    return ScaffoldResults.from_records("kmp", read_journal(paths.journal), planned=planned)


def _scaffold_file(name: str) -> str:
    spec = get_spec(name)
    return f"scaffolds/{spec.category}/{name}.md"


def test_a_failing_or_regressing_scaffold_is_annotated_on_its_file(
    tmp_path: Path,
    scripted_run: ScriptedRun,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    output = tmp_path / "out"
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(CHECKOUT))
    scripted_run(output, {"kmp": 12, "bfs": 12}, 12)  # both CERTIFIED
    assert "::error" not in capsys.readouterr().out
    _, second = scripted_run(output, {"kmp": 0, "bfs": 12}, 12)
    summary = RunSummary.from_json((RunPaths(output, second).reports / "summary.json").read_text())
    assert summary.regressions == ["kmp"]
    errors = _errors(capsys.readouterr().out)
    assert list(errors) == [_scaffold_file("kmp")]  # bfs held: no annotation
    message = errors[_scaffold_file("kmp")]
    assert message.startswith("kmp: FAILED, pass rate 0.0%") and second in message
    assert f"a significant drop against run {summary.previous_run_id}" in message


def test_no_annotation_outside_github_actions(
    tmp_path: Path,
    scripted_run: ScriptedRun,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    scripted_run(tmp_path / "out", {"kmp": 0}, 4)
    assert "::error" not in capsys.readouterr().out


def test_the_message_and_file_cannot_end_the_command(
    tmp_path: Path, scripted_run: ScriptedRun
) -> None:
    output = tmp_path / "out"
    _, run_id = scripted_run(output, {"kmp": 0}, 4)
    manifest = read_manifest_file(RunPaths(output, run_id).manifest)
    entry = manifest.scaffolds["kmp"]
    odd = str(tmp_path / "a:b,c%d" / "x\ny" / "kmp.md")
    manifest = manifest.model_copy(
        update={"scaffolds": {"kmp": entry.model_copy(update={"file": odd})}}
    )
    hostile = "run\r\n::error file=x::forged %0A"
    (line,) = github_annotations(
        manifest, [_results(output, run_id)], ["kmp"], hostile, workspace=tmp_path
    )
    assert len(line.splitlines()) == 1  # one command: no line break left to start another
    head, message = line[len("::error ") :].split("::", 1)
    assert _unescape(head) == "file=" + str(Path("a:b,c%d", "x\ny", "kmp.md"))
    assert _unescape(message).endswith(f"against run {hostile}")
