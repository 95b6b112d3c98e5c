"""``verify --resume RUN_ID`` goes on with the run as its manifest says it was asked
(issue 17 item 3): provider, model, level and cases from the manifest, a conflicting
option refused naming it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verification.catalog.code_format import CODE_FORMAT_VERSION
from verification.cli import main
from verification.store.journal import read_journal


def _stopped_dry_run(output: Path) -> Path:
    """A dry run of 6 kmp cases at the quick level whose last 3 answers were never
    journalled (as when Ctrl-C stops it): its run folder."""
    argv = ["verify", "kmp", "--provider", "reference", "--level", "quick", "--cases", "6"]
    assert main([*argv, "--seed", "11", "--output", str(output)]) == 0
    (run,) = (output / "runs").iterdir()
    lines = (run / "results.jsonl").read_text("utf-8").splitlines(keepends=True)
    (run / "results.jsonl").write_text("".join(lines[:3]), "utf-8")
    return run


def test_a_stopped_dry_run_resumes_with_its_id_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _stopped_dry_run(tmp_path)
    # No --provider reference, no key in the environment (the suite clears it), no --cases.
    assert main(["verify", "--resume", run.name, "--output", str(tmp_path)]) == 0
    records = read_journal(run / "results.jsonl")
    assert sorted(r.case_id for r in records) == sorted(
        f"kmp-simple-{index:03d}" for index in range(6)
    )
    assert {r.source for r in records} == {"reference"}
    manifest = json.loads((run / "manifest.json").read_text("utf-8"))
    assert manifest["level"] == "quick" and manifest["cases"] == 6
    assert "DRY RUN" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("option", "named"),
    [
        (["--provider", "replay"], "--provider replay (the run has reference)"),
        (["--cases", "9"], "--cases 9 (the run has 6)"),
        (["--level", "standard"], "--level standard (the run has quick)"),
        (["--seed", "12"], "--seed 12 (the run has 11)"),
        (["--repair-attempts", "3"], "--repair-attempts 3 (the run has 1)"),
    ],
)
def test_an_option_the_manifest_contradicts_is_refused_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: list[str], named: str
) -> None:
    run = _stopped_dry_run(tmp_path)
    capsys.readouterr()
    argv = ["verify", "--resume", run.name, "--output", str(tmp_path), *option]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert named in err and "leave it out" in err
    assert len(read_journal(run / "results.jsonl")) == 3, "nothing was asked"


def test_an_option_the_manifest_agrees_with_is_fine(tmp_path: Path) -> None:
    run = _stopped_dry_run(tmp_path)
    argv = ["verify", "--resume", run.name, "--output", str(tmp_path)]
    assert main([*argv, "--provider", "reference", "--cases", "6"]) == 0
    assert len(read_journal(run / "results.jsonl")) == 6


def test_a_resume_of_no_such_run_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", "--resume", "20260101T000000Z-abcdef", "--output", str(tmp_path)]) == 2
    assert "no run '20260101T000000Z-abcdef'" in capsys.readouterr().err


def test_a_run_asked_in_another_code_format_is_not_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Its programs were asked in other words than today's: answers of the two would mix.
    run = _stopped_dry_run(tmp_path)
    manifest = json.loads((run / "manifest.json").read_text("utf-8"))
    assert manifest["code_format_version"] is None  # a trace run records none
    older = "v0" if CODE_FORMAT_VERSION != "v0" else "v-1"
    manifest["code_format_version"] = older
    (run / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    capsys.readouterr()
    assert main(["verify", "--resume", run.name, "--output", str(tmp_path)]) == 2
    assert f"Code Format {older}, now {CODE_FORMAT_VERSION}" in capsys.readouterr().err
    assert len(read_journal(run / "results.jsonl")) == 3  # nothing asked


def test_a_code_format_version_edited_into_control_characters_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The manifest is anyone's file: what resume would print of it is held to plain text.
    run = _stopped_dry_run(tmp_path)
    manifest = json.loads((run / "manifest.json").read_text("utf-8"))
    manifest["code_format_version"] = "v1\n\x1b[31mowned"
    (run / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    capsys.readouterr()
    assert main(["verify", "--resume", run.name, "--output", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert str(run / "manifest.json") in err and "\x1b" not in err
    assert len(read_journal(run / "results.jsonl")) == 3  # nothing asked


def test_a_run_killed_before_its_manifest_was_written_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A helper's hunt: kill -9 while the first manifest was written left runs/<id>/ with
    # a lock and manifest.json.tmp; --resume and report said there was "no run".
    run = tmp_path / "runs" / "20260101T000000Z-abcdef"
    run.mkdir(parents=True)
    (run / "manifest.json.tmp").write_text("{", encoding="utf-8")
    for argv in (["verify", "--resume", run.name], ["report", run.name]):
        assert main([*argv, "--output", str(tmp_path)]) == 2
        assert "stopped before it began" in capsys.readouterr().err
    (run / "results.jsonl").write_text("", encoding="utf-8")
    assert main(["report", run.name, "--output", str(tmp_path)]) == 2
    assert "has a journal but no manifest.json" in capsys.readouterr().err
