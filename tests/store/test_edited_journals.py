"""Journal lines edited by hand (issue 24 items 5, 7 and 8): a line that is a JSON object but
no record of this run (a tier that is none, an input that lost a field, a case id of another
scaffold) is that case's missing answer, named in a warning (the file and the line), in
every command that reads it; none exits 4 or prints a traceback. A shard's lines are held to
that shard's own plan when shards are merged.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from verification.cli import main
from verification.store.journal import read_journal

NAME = "kmp"
CASES = "20"
"""Enough cases that one missing answer (5%) leaves the status as it was."""

Edit = Callable[[dict[str, Any]], None]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


DRY_RUN = (NAME, "--provider", "reference", "--cases", CASES)
MadeRuns = Callable[..., list[Path]]


def _dry_run(capsys: pytest.CaptureFixture[str], output: Path, *more: str) -> Path:
    code, _, err = _run(capsys, "verify", *DRY_RUN, "--output", str(output), *more)
    assert code == 0, err
    return max((output / "runs").iterdir(), key=lambda run: run.stat().st_mtime_ns)


def _first_dry_run(made_runs: MadeRuns, output: Path) -> Path:
    """``_dry_run``'s folder in an empty ``output``, made once and copied for each test
    (``tests/store/conftest.py``)."""
    (run,) = made_runs(output, DRY_RUN)
    return run


def _edit_line(journal: Path, number: int, edit: Edit) -> str:
    """Edit line ``number`` (from 1) of ``journal``; returns the case id it answers."""
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    data = json.loads(lines[number - 1])
    edit(data)
    lines[number - 1] = json.dumps(data) + "\n"
    journal.write_text("".join(lines), encoding="utf-8")
    return str(data["case_id"])


def _no_tier(line: dict[str, Any]) -> None:
    line["tier"] = "hard"  # a hand edit, or a tier of a later version


def _input_lost_a_field(line: dict[str, Any]) -> None:
    del line["input"]["pattern"]


def _another_scaffold(line: dict[str, Any]) -> None:
    line["scaffold"] = "dijkstra"


def _latency_not_a_number(line: dict[str, Any]) -> None:
    line["latency_s"] = float("nan")  # json writes NaN; the harness never does


EDITS = {
    "tier": (_no_tier, "tier"),
    "latency": (_latency_not_a_number, "latency_s"),
    "input": (_input_lost_a_field, "pattern"),
    "scaffold": (_another_scaffold, "dijkstra"),
}


@pytest.fixture(params=list(EDITS))
def edit(request: pytest.FixtureRequest) -> tuple[Edit, str]:
    return EDITS[request.param]


def _assert_named(said: str, journal: Path, case_id: str, why: str) -> None:
    """The warning names the file, the line and the case, and says why; no traceback."""
    assert "Traceback" not in said
    (warning,) = {line for line in said.splitlines() if f"{journal}:2:" in line}
    assert case_id in warning and why in warning and "missing answer" in warning


def test_report_reads_an_edited_line_as_that_case_s_missing_answer(
    made_runs: MadeRuns,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    tmp_path: Path,
    edit: tuple[Edit, str],
) -> None:
    # Before: a tier that is none exited 4 (TestCase raised); a lost input field printed the
    # calibration hook's traceback; another scaffold's name dropped the line unnamed.
    run = _first_dry_run(made_runs, tmp_path / "results")
    case_id = _edit_line(run / "results.jsonl", 2, edit[0])
    code, _, err = _run(capsys, "report", run.name, "--output", str(tmp_path / "results"))
    assert code == 0, err
    _assert_named(caplog.text + err, run / "results.jsonl", case_id, edit[1])
    summary = json.loads((run / "reports" / "summary.json").read_text(encoding="utf-8"))
    assert summary["scaffolds"][NAME]["missing"] == 1


def test_resume_asks_again_the_case_of_an_edited_line(
    made_runs: MadeRuns,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    tmp_path: Path,
    edit: tuple[Edit, str],
) -> None:
    # Before: a tier that is none exited 4; an input that lost a field was taken as answered,
    # so the case stayed missing after every resume.
    output = tmp_path / "results"
    run = _first_dry_run(made_runs, output)
    journal = run / "results.jsonl"
    planned = len(journal.read_text(encoding="utf-8").splitlines())
    case_id = _edit_line(journal, 2, edit[0])
    argv = ["verify", "--resume", run.name, "--provider", "reference", "--output", str(output)]
    code, _, err = _run(capsys, *argv)
    assert code == 0, err
    assert "Traceback" not in caplog.text + err
    lines = journal.read_text(encoding="utf-8").splitlines()
    assert len(lines) == planned + 1 and json.loads(lines[-1])["case_id"] == case_id
    summary = json.loads((run / "reports" / "summary.json").read_text(encoding="utf-8"))
    assert summary["scaffolds"][NAME]["missing"] == 0


def test_compare_and_the_next_run_read_past_an_edited_line(
    made_runs: MadeRuns,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    tmp_path: Path,
    edit: tuple[Edit, str],
) -> None:
    # Before: both exited 4 on a tier that is none (the new run after paying for its answers).
    output = tmp_path / "results"
    first = _first_dry_run(made_runs, output)
    _edit_line(first / "results.jsonl", 2, edit[0])
    second = _dry_run(capsys, output)  # reads the first as the previous comparable run
    code, out, err = _run(capsys, "compare", first.name, second.name, "--output", str(output))
    assert code == 0, err
    assert "Traceback" not in caplog.text + err and f"{NAME} " in out


def test_a_line_of_no_tier_is_skipped_by_the_reader_with_its_line_named(
    made_runs: MadeRuns,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    journal = _first_dry_run(made_runs, tmp_path / "results") / "results.jsonl"
    planned = len(read_journal(journal))
    _edit_line(journal, 1, _no_tier)
    records = read_journal(journal)
    assert len(records) == planned - 1
    assert all(record.tier in ("simple", "standard", "edge") for record in records)
    assert f"{journal}:1:" in caplog.text


def test_an_edited_expected_answer_costs_its_calibration_not_a_traceback(
    made_runs: MadeRuns,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    tmp_path: Path,
) -> None:
    # Before: the calibration hook's KeyError was logged with its traceback.
    run = _first_dry_run(made_runs, tmp_path / "results")
    case_id = _edit_line(run / "results.jsonl", 2, lambda line: line.update(expected={}))
    code, _, err = _run(capsys, "report", run.name, "--output", str(tmp_path / "results"))
    assert code == 0, err
    assert "Traceback" not in caplog.text + err
    assert f"raised on case {case_id} (KeyError: 'positions')" in caplog.text


def _shards(made_runs: MadeRuns, output: Path) -> list[Path]:
    """The two shards' runs of ``_dry_run`` in an empty ``output`` (made once and copied)."""
    shards = made_runs(output, *((*DRY_RUN, "--shard", shard) for shard in ("1/2", "2/2")))
    assert sorted((output / "runs").iterdir()) == shards
    return shards


def test_merge_reads_an_edited_shard_line_as_a_missing_answer(
    made_runs: MadeRuns,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    tmp_path: Path,
    edit: tuple[Edit, str],
) -> None:
    output = tmp_path / "results"
    shards = _shards(made_runs, output)
    case_id = _edit_line(shards[0] / "results.jsonl", 2, edit[0])
    code, _, err = _run(capsys, "merge", "--output", str(output), *map(str, shards))
    assert code == 0, err
    _assert_named(caplog.text + err, shards[0] / "results.jsonl", case_id, edit[1])


def test_merge_refuses_a_shard_holding_another_shard_s_case(
    made_runs: MadeRuns, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Before: merge folded the stray failure into the whole plan (CERTIFIED -> PARTIAL);
    # report refused the same shard.
    output = tmp_path / "results"
    shards = _shards(made_runs, output)
    theirs = (shards[1] / "results.jsonl").read_text(encoding="utf-8").splitlines()
    strays = []
    for line in theirs:
        data = json.loads(line)
        data.update(outcome="failed", level=3, reason="folded from shard 2")
        strays.append(json.dumps(data) + "\n")
    with (shards[0] / "results.jsonl").open("a", encoding="utf-8") as journal:
        journal.writelines(strays)
    code, _, err = _run(capsys, "report", shards[0].name, "--output", str(output))
    assert code == 2 and "does not plan" in err, err
    code, _, err = _run(capsys, "merge", "--output", str(output), *map(str, shards))
    assert code == 2, err
    assert f"shard {shards[0]}" in err and "does not plan" in err
    assert sorted((output / "runs").iterdir()) == shards  # no merged run


def _append_passed_copy(journal: Path, number: int) -> str:
    """Mark line ``number`` failed (the answer a model got wrong), then append its copy
    marked passed, as the hunt's hand edit did; returns the journal's new last line's place."""
    _edit_line(journal, number, lambda line: line.update(outcome="failed", level=3))
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    data = json.loads(lines[number - 1])
    data.update(outcome="passed", level=None)
    journal.write_text("".join(lines) + json.dumps(data) + "\n", encoding="utf-8")
    return f"{journal}:{len(lines) + 1}"


def test_report_refuses_a_failure_copied_as_passed(
    made_runs: MadeRuns, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Before: the later line superseded the failure, so the run read as if it had passed
    # (PARTIAL became CERTIFIED in the hunt), at exit 0.
    run = _first_dry_run(made_runs, tmp_path / "results")
    where = _append_passed_copy(run / "results.jsonl", 2)
    code, out, err = _run(capsys, "report", run.name, "--output", str(tmp_path / "results"))
    assert code == 2, out + err
    assert where in err and "Traceback" not in err and "no status is given" in err


def test_merge_refuses_a_shard_whose_failure_is_copied_as_passed(
    made_runs: MadeRuns, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    output = tmp_path / "results"
    shards = _shards(made_runs, output)
    where = _append_passed_copy(shards[1] / "results.jsonl", 1)
    code, out, err = _run(capsys, "merge", "--output", str(output), *map(str, shards))
    assert code == 2, out + err
    assert where in err and "Traceback" not in err
    assert sorted((output / "runs").iterdir()) == shards  # no merged run


def test_a_resume_refuses_a_journal_report_would_refuse_before_asking_anything(
    made_runs: MadeRuns, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Hunt hh: the resume read the journal at its start but checked it at its end, so every
    remaining case was asked (and paid for) before the exit 2."""
    output = tmp_path / "results"
    run = _first_dry_run(made_runs, output)
    journal = run / "results.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    journal.write_text("".join(lines[:-5]), encoding="utf-8")  # five cases left to ask
    where = _append_passed_copy(journal, 2)
    before = journal.read_bytes()
    code, out, err = _run(
        capsys, "verify", "--resume", run.name, "--provider", "reference", "--output", str(output)
    )
    assert code == 2, out + err
    assert where in err and "Traceback" not in err
    assert journal.read_bytes() == before  # nothing asked, nothing journalled


def test_compare_refuses_a_journal_report_refuses(
    made_runs: MadeRuns, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Hunt hh: ``compare`` paired every case of a journal whose manifest plans fewer, which
    ``report`` refused, at exit 0."""
    output = tmp_path / "results"
    (first, second) = made_runs(output, DRY_RUN, (*DRY_RUN, "--seed", "7"))
    manifest = second / "manifest.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["scaffolds"][NAME]["case_ids"] = data["scaffolds"][NAME]["case_ids"][:4]
    manifest.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = _run(capsys, "report", second.name, "--output", str(output))
    assert code == 2 and "its manifest does not plan" in err, out + err
    code, out, err = _run(capsys, "compare", first.name, second.name, "--output", str(output))
    assert code == 2, out + err
    assert "its manifest does not plan" in err and "Traceback" not in err


def test_a_resume_whose_cases_would_be_drawn_otherwise_is_refused(
    made_runs: MadeRuns, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Hunt hh: with the seed edited (or a generator changed by a pull between a stop and its
    resume), the cases left were drawn anew and the journalled ones stood as they were: one
    status over two draws, with no word."""
    output = tmp_path / "results"
    run = _first_dry_run(made_runs, output)
    journal = run / "results.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    journal.write_text("".join(lines[:-5]), encoding="utf-8")  # five cases left to ask
    manifest = run / "manifest.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["seed"] += 1
    manifest.write_text(json.dumps(data), encoding="utf-8")
    before = journal.read_bytes(), manifest.read_bytes()
    code, out, err = _run(
        capsys, "verify", "--resume", run.name, "--provider", "reference", "--output", str(output)
    )
    assert code == 2, out + err
    assert "is now drawn with" in err and "start a new run" in err and "Traceback" not in err
    assert (journal.read_bytes(), manifest.read_bytes()) == before  # nothing asked or written
