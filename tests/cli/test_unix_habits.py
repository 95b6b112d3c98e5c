"""The command line behaves as a Unix tool's user expects (issue 17 items 2, 4 and 5):
usage errors in the user's words with the close option suggested, a closed pipe ending
quietly with the command's own exit code, progress on standard error or in the log,
machine-readable `list --json` and `check --json`, `check --category`, aligned `list`
columns, `show-prompt` without --case, `report` given a run folder, and a misspelt key in
.env warned about."""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from verification.cases import TIERS
from verification.catalog import default_catalog
from verification.certify import checks, hash_seed
from verification.certify.checks import CheckResult
from verification.cli import main
from verification.errors import VerificationError


def _usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    return capsys.readouterr().err


def test_an_unknown_cache_action_is_named_with_the_close_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = _usage_error(["cache", "stat"], capsys)
    assert "unknown cache action 'stat'; did you mean stats?" in err
    assert "argument" not in err and "ACTION:" not in err


def test_a_mistyped_option_suggests_the_close_one_in_its_command_s_usage(
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = _usage_error(["verify", "kmp", "--provder", "reference"], capsys)
    assert "unrecognized arguments: --provder reference; did you mean --provider?" in err
    assert "usage: " in err and " verify " in err.splitlines()[0]
    err = _usage_error(["list", "--categry", "graph"], capsys)
    assert "did you mean --category?" in err and " list " in err.splitlines()[0]


def test_a_mistyped_command_or_choice_suggests_the_close_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert "unknown command 'verfy'; did you mean verify?" in _usage_error(["verfy"], capsys)
    err = _usage_error(["verify", "kmp", "--provider", "refrence"], capsys)
    assert "unknown --provider value 'refrence'; did you mean reference?" in err


def _with_stdout_closed(*argv: str, cwd: Path) -> tuple[int, str]:
    """Run the CLI with its standard output a pipe whose reader has gone."""
    process = subprocess.Popen(
        [sys.executable, "-m", "verification", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        text=True,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    err = process.stderr.read()
    return process.wait(timeout=120), err


@pytest.mark.slow
def test_a_closed_pipe_ends_quietly_with_the_command_s_own_exit_code(tmp_path: Path) -> None:
    assert _with_stdout_closed("list", cwd=tmp_path) == (0, "")
    dry_run = ("verify", "kmp", "--provider", "reference", "--cases", "2", "--output", "out")
    assert _with_stdout_closed(*dry_run, cwd=tmp_path) == (0, "")
    # A failing check keeps its 1, not the 2 of an error.
    code, err = _with_stdout_closed("check", "no_such_scaffold", cwd=tmp_path)
    assert code == 2 and "no_such_scaffold" in err and "Broken pipe" not in err


def _dry_run(tmp_path: Path, *extra: str) -> int:
    argv = ["verify", "kmp", "--provider", "reference", "--cases", "3"]
    return main([*argv, "--output", str(tmp_path), *extra])


def test_verbose_logs_progress_lines_when_standard_error_is_no_terminal(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    with caplog.at_level(logging.INFO):
        assert _dry_run(tmp_path / "a", "-v") == 0
    progress = [r.getMessage() for r in caplog.records if r.name == "verification.progress"]
    assert progress[0] == "progress: 0/3 answers"
    assert progress[-1].startswith("progress: 3/3 answers (last: kmp ")
    caplog.clear()
    with caplog.at_level(logging.INFO):
        assert _dry_run(tmp_path / "b", "-v", "--no-progress") == 0
    assert not [r for r in caplog.records if r.name == "verification.progress"]
    capsys.readouterr()
    assert _dry_run(tmp_path / "c", "--progress") == 0
    out, err = capsys.readouterr()
    assert "answers" in err and "\x1b[" in err, "a bar drawn on standard error"
    assert "\x1b[" not in out


def test_list_json_is_the_catalog(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    catalog = default_catalog()
    assert [entry["name"] for entry in listed["scaffolds"]] == list(catalog)
    for entry in listed["scaffolds"]:
        spec = catalog[entry["name"]]
        assert entry["category"] == spec.category and entry["title"] == spec.title
        assert entry["size"]["unit"] == spec.size.unit
        ranges = entry["size"]["ranges"]
        assert {t: tuple(ranges[t]) for t in TIERS} == spec.size.ranges
        assert ranges["stress"] == (list(spec.size.stress) if spec.size.stress else None)
        assert entry["answer_schema"] == spec.answer_schema.model_json_schema()
    assert listed["skipped"] == []


@pytest.mark.slow
def test_check_takes_a_category_and_prints_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The text form prints the same checks of the same scaffolds (seeded, so the same
    # verdicts): it reads the results the JSON run computed instead of computing them again,
    # the hash-seed verdicts included (drawn for the whole category in two interpreters).
    computed: dict[tuple[str, Any, Any], list[CheckResult]] = {}
    check_scaffold = checks.check_scaffold
    drawn: dict[tuple[str, ...], dict[str, str | VerificationError]] = {}
    verdicts_of = hash_seed.hash_seed_verdicts

    def check_once(name: str, **options: Any) -> list[CheckResult]:
        key = (name, options.get("scaffolds_dir"), options.get("cases_per_tier"))
        if key not in computed:
            computed[key] = check_scaffold(name, **options)
        return computed[key]

    def verdicts_once(names: Sequence[str]) -> dict[str, str | VerificationError]:
        if tuple(names) not in drawn:
            drawn[tuple(names)] = verdicts_of(names)
        return drawn[tuple(names)]

    monkeypatch.setattr(checks, "check_scaffold", check_once)
    monkeypatch.setattr(hash_seed, "hash_seed_verdicts", verdicts_once)
    assert main(["check", "--category", "string", "--cases", "2", "--json"]) == 0
    checked = json.loads(capsys.readouterr().out)
    assert checked["scaffolds"] == default_catalog().by_category("string")
    assert checked["failed"] == sum(not c["ok"] for c in checked["checks"]) == 0
    assert {c["scaffold"] for c in checked["checks"]} == set(checked["scaffolds"])
    with pytest.raises(SystemExit):  # what --help says each check holds, it holds
        main(["check", "--help"])
    said = re.search(r"each check's ([\w, ]+) and (\w+)", " ".join(capsys.readouterr().out.split()))
    assert said is not None
    assert all(set(c) == {*said[1].split(", "), said[2]} for c in checked["checks"])
    assert main(["check", "--category", "string", "--cases", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(checked["checks"]) + 1 and lines[-1] == "all checks passed"
    assert len(computed) == len(checked["scaffolds"]), "both runs asked the same checks"
    assert list(drawn) == [tuple(checked["scaffolds"])], "and the same hash-seed draws"


def test_list_columns_fit_their_widest_entry(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    header, *rows = capsys.readouterr().out.splitlines()
    starts = [header.index(title) for title in ("CATEGORY", "VALIDATOR", "SIZE", "DESCRIPTION")]
    assert len(rows) == len(default_catalog())
    for row in rows:
        for start in starts:
            assert row[start - 2 : start] == "  " and row[start] != " ", row


def test_show_prompt_without_a_case_shows_the_first_standard_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["show-prompt", "kmp"]) == 0
    shown, note = capsys.readouterr()
    assert "showing case kmp-standard-000" in note
    assert main(["show-prompt", "kmp", "--case", "kmp-standard-000"]) == 0
    assert capsys.readouterr().out == shown


def test_report_takes_the_run_folder_verify_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _dry_run(tmp_path / "out") == 0
    printed = capsys.readouterr().out
    summary = Path(printed.split("report: ")[1].split()[0])  # <out>/runs/<id>/reports/summary.md
    run_folder = summary.parent.parent
    for given in (run_folder, summary.parent, summary):
        assert main(["report", str(given)]) == 0  # VERIFY_RESULTS_DIR is elsewhere
        assert f"report: {summary}" in capsys.readouterr().out
    assert main(["report", str(tmp_path)]) == 2
    assert "is no run folder" in capsys.readouterr().err


def test_a_misspelt_key_in_dot_env_is_warned_like_one_in_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("VERIFY_CONCURENCY=8\nVERIFY_SEED=4\n", "utf-8")
    assert main(["cache", "stats"]) == 0
    assert (
        "VERIFY_CONCURENCY (in .env) is not a setting and is ignored; did you mean "
        "VERIFY_CONCURRENCY?" in caplog.text
    )
    assert "VERIFY_SEED" not in caplog.text
