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


def test_no_output_writes_over_a_run_s_journal_or_manifest_or_the_response_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hunt yy: ``--junit-xml RUN/results.jsonl`` (a resume's own run's too), ``--export
    RUN/manifest.json`` and ``compare --html cache.sqlite3`` replaced the paid answers with
    a report, at exit 0."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(cache))
    output = tmp_path / "out"
    for _ in range(2):
        assert main([*DRY, "--output", str(output)]) == 0
    first, second = sorted((output / "runs").iterdir())
    kept = {
        path: path.read_bytes()
        for path in [*first.iterdir(), *second.iterdir()]
        if path.name in ("results.jsonl", "manifest.json")
    }
    capsys.readouterr()
    for option, target in [
        ("--junit-xml", first / "results.jsonl"),
        ("--export", first / "manifest.json"),
        ("--junit-cases", second / "results.jsonl"),
        ("--junit-xml", cache / "cache.sqlite3"),
    ]:
        code = main([*DRY, "--output", str(output), option, str(target)])
        assert code == 2 and "would write over" in capsys.readouterr().err, (option, target)
    resume = ["verify", "--resume", second.name, "--output", str(output)]
    assert main([*resume, "--junit-xml", str(second / "results.jsonl")]) == 2
    assert "the runs' journals and manifests" in capsys.readouterr().err
    compare = ["compare", first.name, second.name, "--output", str(output), "--html"]
    assert main([*compare, str(first / "results.jsonl")]) == 2
    assert main([*compare, str(cache / "cache.sqlite3")]) == 2
    assert "the response cache (VERIFY_CACHE_DIR: cache.sqlite3)" in capsys.readouterr().err
    assert all(path.read_bytes() == text for path, text in kept.items())
    assert len(list((output / "runs").iterdir())) == 2  # refused before any run began
    assert main([*compare, str(tmp_path / "page.html")]) == 0  # elsewhere, written
    # Beside the cache's files its folder is free (hunt ab: a results folder in it, or a
    # CI's step summary beside it, was refused).
    assert main([*compare, str(cache / "page.html")]) == 0


def test_a_merge_writes_no_output_over_a_shard_s_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hunt ab: ``merge ... --junit-xml SHARD/results.jsonl`` replaced a shard's journal."""
    shards = tmp_path / "shards"
    for index in (1, 2):
        argv = [*DRY, "--output", str(shards), "--shard", f"{index}/2"]
        assert main(argv) == 0
    first, second = sorted((shards / "runs").iterdir())
    journal = (first / "results.jsonl").read_bytes()
    merge = ["merge", str(first), str(second), "--output", str(tmp_path / "merged")]
    assert main([*merge, "--junit-xml", str(first / "results.jsonl")]) == 2
    assert "would write over" in capsys.readouterr().err
    # Several models named by the environment change nothing: a merge writes one file, its
    # name as given (hunt ah: the names checked were each model's, and these went through).
    monkeypatch.setenv("VERIFY_MODEL", "m1,m2")
    assert main([*merge, "--export", str(first / "results.jsonl")]) == 2
    assert (
        main(
            [*merge, "--export", str(tmp_path / "x.json"), "--junit-xml", str(tmp_path / "x.json")]
        )
        == 2
    )
    assert "would write over" in capsys.readouterr().err
    assert (first / "results.jsonl").read_bytes() == journal
    assert not (tmp_path / "merged").exists()


def test_an_output_over_one_of_the_run_s_inputs_is_refused_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hunt ii: ``--export draft.md`` beside ``--scaffold-file draft.md`` replaced the draft
    with the summary at exit 0; so did an export into the scaffolds folder, and a JUnit
    file named as the replay file."""
    from verification.llm.prompt_builder import PromptBuilder

    draft = tmp_path / "draft.md"
    text = PromptBuilder().get_scaffold_content("kmp")
    draft.write_text(text, encoding="utf-8")
    output = ["--output", str(tmp_path / "out")]
    code = main([*DRY, *output, "--scaffold-file", str(draft), "--export", str(draft)])
    assert code == 2 and "would write over what --scaffold-file reads" in capsys.readouterr().err
    replay = tmp_path / "replay.jsonl"
    replay.write_text("", encoding="utf-8")
    replayed = ["kmp", "--provider", "replay", "--replay-file", str(replay), "--cases", "3"]
    code = main(["verify", *replayed, *output, "--junit-xml", str(replay)])
    assert code == 2 and "what --replay-file reads" in capsys.readouterr().err
    scaffolds = tmp_path / "scaffolds"
    (scaffolds / "string").mkdir(parents=True)
    (scaffolds / "string" / "kmp.md").write_text(text, encoding="utf-8")
    code = main(
        [*DRY, *output, "--scaffolds-dir", str(scaffolds), "--export", str(scaffolds / "k.md")]
    )
    assert code == 2 and "what --scaffolds-dir reads" in capsys.readouterr().err
    code = main(
        [*DRY, *output, "--export", str(tmp_path / "a.xml"), "--junit-xml", str(tmp_path / "a.xml")]
    )
    assert code == 2 and "is the file --export writes too" in capsys.readouterr().err
    assert draft.read_text(encoding="utf-8") == text and replay.read_text(encoding="utf-8") == ""
    assert not (tmp_path / "out").exists()  # refused before any run began


def test_an_output_where_no_file_can_be_written_is_refused_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hunt ii: ``--export /proc/x.json`` (as ``--junit-xml /sys/j.xml``) failed after every
    case had been asked, hiding the run's summary behind exit 2."""
    code = main([*DRY, "--output", str(tmp_path / "out"), "--export", "/proc/x.json"])
    assert (
        code == 2
        and "/proc/x.json: cannot be written: no file can be made in /proc"
        in capsys.readouterr().err
    )
    assert not (tmp_path / "out").exists()


def test_no_output_is_written_where_a_run_s_end_replaces_what_stands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hunt ad: an export under ``<output>/reports`` was deleted as the run published its
    reports (on a new results folder it then stood in their way for good), one at
    ``<output>/index.html`` was written over by the results index, and ``compare --html``
    replaced ``.env`` (the settings file verify's outputs may not touch): each at exit 0."""
    monkeypatch.chdir(tmp_path)
    output = tmp_path / "out"
    assert main([*DRY, "--output", str(output)]) == 0
    published = next((output / ".published").iterdir())
    first = next((output / "runs").iterdir()).name
    capsys.readouterr()
    fresh = tmp_path / "fresh"
    for target, kept in [
        (output / "reports" / "nightly.json", "the latest reports"),
        (published / "nightly.json", "the latest reports"),  # where reports leads
        (output / ".published" / "nightly.json", "the latest reports' copies"),
        (output / "index.html", "the results index"),
        (fresh / "reports" / "nightly.json", "the latest reports"),
    ]:
        results = fresh if fresh in target.parents else output
        code = main([*DRY, "--output", str(results), "--export", str(target)])
        assert code == 2 and f"would write over {kept}" in capsys.readouterr().err, target
    assert not fresh.exists()
    assert len(list((output / "runs").iterdir())) == 1  # refused before any run began
    (tmp_path / ".env").write_text("VERIFY_SEED=3\n", encoding="utf-8")
    compare = ["compare", first, first, "--output", str(output), "--html"]
    for target in (tmp_path / ".env", output / "index.html"):
        assert main([*compare, str(target)]) == 2, target
        assert "would write over" in capsys.readouterr().err
    assert (tmp_path / ".env").read_text(encoding="utf-8") == "VERIFY_SEED=3\n"
    assert main([*DRY, "--output", str(output), "--export", str(output / "x.json")]) == 0


def test_each_model_s_own_output_file_is_kept_apart_from_the_run_s_inputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hunt ad: with several models each export is written once per model
    (``draft.md`` -> ``draft.m1.md``), and those names went unchecked: an export replaced a
    draft named so, or another output's file, at exit 0."""
    from verification.llm.prompt_builder import PromptBuilder

    draft = tmp_path / "draft.m1.md"
    text = PromptBuilder().get_scaffold_content("kmp")
    draft.write_text(text, encoding="utf-8")
    models = ["--model", "m1", "--model", "m2", "--output", str(tmp_path / "out")]
    code = main(
        [*DRY, *models, "--scaffold-file", str(draft), "--export", str(tmp_path / "draft.md")]
    )
    assert code == 2 and "would write over what --scaffold-file reads" in capsys.readouterr().err
    json_out, junit = tmp_path / "o.json", tmp_path / "o.m1.json"
    code = main([*DRY, *models, "--export", str(json_out), "--junit-xml", str(junit)])
    assert code == 2 and "is the file --export writes too" in capsys.readouterr().err
    assert draft.read_text(encoding="utf-8") == text
    assert not (tmp_path / "out").exists()  # refused before any run began
