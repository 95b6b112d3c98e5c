"""``--export FILE`` writes a run's results where the user says, in the format its extension
names, and ``--json`` prints the summary on standard output (issue 27 item 12)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from verification.cli import main
from verification.reports.exports import EXPORT_FORMATS

DRY = ["verify", "kmp", "--provider", "reference", "--cases", "4", "--seed", "3"]


def test_each_export_is_the_run_s_own_file_and_json_prints_the_summary_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    exports = {ext: tmp_path / f"exported{ext}" for ext in EXPORT_FORMATS}
    argv = [*DRY, "--output", str(out), "--junit-xml", str(tmp_path / "junit.xml"), "--json"]
    for path in exports.values():
        argv += ["--export", str(path)]
    capsys.readouterr()
    assert main(argv) == 0
    stdout, stderr = capsys.readouterr()
    (run,) = (out / "runs").iterdir()
    summary = (run / "reports" / "summary.json").read_text("utf-8")
    assert json.loads(stdout) == json.loads(summary)  # standard output is the summary alone
    assert "kmp" in stderr and "report:" in stderr  # the lines for people moved aside
    assert exports[".json"].read_text("utf-8") == summary
    assert exports[".jsonl"].read_text("utf-8") == (run / "results.jsonl").read_text("utf-8")
    assert exports[".md"].read_text("utf-8") == (run / "reports" / "summary.md").read_text()
    assert exports[".html"].read_text("utf-8") == (run / "reports" / "index.html").read_text()
    exported, given = (ET.parse(p).getroot() for p in (exports[".xml"], tmp_path / "junit.xml"))
    assert exported.tag == "testsuites" and ET.tostring(exported) == ET.tostring(given)


@pytest.mark.parametrize("name", ["results.csv", "results", "page.HTM"])
def test_an_export_of_no_known_format_is_a_usage_error_listing_the_formats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        main([*DRY, "--output", str(tmp_path), "--export", str(tmp_path / name)])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "names no format" in err and all(ext in err for ext in EXPORT_FORMATS)
    assert not (tmp_path / "runs").exists()  # refused before anything was asked


def test_an_export_that_is_a_folder_is_refused_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "taken.json").mkdir()
    with pytest.raises(SystemExit) as exited:
        main([*DRY, "--output", str(tmp_path), "--export", str(tmp_path / "taken.json")])
    assert exited.value.code == 2
    assert "is a folder" in capsys.readouterr().err


def test_estimate_which_makes_no_run_refuses_export_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for option in (["--export", str(tmp_path / "plan.json")], ["--json"]):
        assert main([*DRY, "--output", str(tmp_path), "--estimate", *option]) == 2
        assert "makes no run" in capsys.readouterr().err
    assert not (tmp_path / "plan.json").exists()


def test_an_export_into_a_folder_not_made_yet_makes_it_as_junit_xml_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A helper's hunt: the run was asked and paid in full, then its export failed (exit 2)
    # for want of the folder, while --junit-xml made its own.
    export = tmp_path / "new" / "deeper" / "results.json"
    assert main([*DRY, "--output", str(tmp_path / "out"), "--export", str(export)]) == 0
    (run,) = (tmp_path / "out" / "runs").iterdir()
    assert export.read_text("utf-8") == (run / "reports" / "summary.json").read_text("utf-8")


def test_an_export_under_a_file_is_refused_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "plain").write_text("a file", encoding="utf-8")
    with pytest.raises(SystemExit) as exited:
        main([*DRY, "--output", str(tmp_path), "--export", str(tmp_path / "plain" / "r.json")])
    assert exited.value.code == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    assert not (tmp_path / "runs").exists()
