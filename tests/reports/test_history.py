"""History from run directories: the previous comparable run, regressions (status and
paired rate drops), ``history``, ``compare`` and ``prune``, from scripted replay runs."""

from __future__ import annotations

import argparse
import json
import logging
import shlex
from collections.abc import Callable
from pathlib import Path

import pytest

from verification.certify.paired import (
    ALPHA,
    MIN_DISCORDANT,
    min_attainable,
    paired_difference_interval,
)
from verification.cli import main
from verification.reports.pruning import prune_runs
from verification.store.journal import read_journal
from verification.store.paths import RunPaths
from verification.store.summary_file import RunSummary

ScriptedRun = Callable[..., tuple[int, str]]  # the scripted_run fixture (conftest.py)


def _summary(output: Path, run_id: str) -> RunSummary:
    return RunSummary.from_json(
        RunPaths(output, run_id).reports.joinpath("summary.json").read_text()
    )


def test_a_significant_drop_is_a_regression_even_when_the_status_holds(
    tmp_path: Path,
    scripted_run: ScriptedRun,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from scipy.stats import binomtest

    output = tmp_path / "out"
    step_summary = tmp_path / "step-summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step_summary))
    assert scripted_run(output, {"kmp": 19, "bfs": 12}, 40)[0] == 1  # kmp 19/40: FAILED
    code, second = scripted_run(output, {"kmp": 0, "bfs": 12}, 40, "--fail-on-regression")
    assert code == 5
    out = capsys.readouterr().out
    summary = _summary(output, second)
    assert summary.status_changes == [] and summary.regressions == ["kmp"]
    (drop,) = summary.rate_drops or []
    assert (drop.scaffold, drop.shared, drop.only_before, drop.only_now) == ("kmp", 40, 19, 0)
    p = binomtest(19, 19, 0.5, alternative="greater").pvalue
    assert drop.p_value == pytest.approx(p)
    # bfs answered alike both times: no discordant case, so Tarone leaves it out of the family.
    assert drop.p_holm == pytest.approx(p)
    assert drop.significant
    gate = summary.regression_gate
    assert gate is not None and gate.family == ["kmp"] and gate.compared == 2
    markdown = (RunPaths(output, second).reports / "summary.md").read_text()
    first = summary.previous_run_id
    assert first is not None
    assert "| kmp | 40 | 19 | 0 |" in markdown
    # The regression line names both runs and the command that shows their cases.
    assert f"**Regressions:** kmp, this run `{second}` against run `{first}`." in markdown
    assert f"`python -m verification compare {first} {second}`" in markdown
    job = step_summary.read_text()
    assert f"- **Regressions:** kmp (this run `{second}` against run `{first}`; " in job
    assert f"`python -m verification compare {first} {second}`)" in job
    (line,) = [line for line in out.splitlines() if line.startswith("regression against")]
    assert "regression against the previous comparable run: kmp" in line
    assert f"run {second} against run {first}" in line
    command = shlex.split(line.split("the cases side by side: ", 1)[1])
    words = command[command.index("compare") :]  # after the program's name (pytest's here)
    assert words[:3] == ["compare", first, second] and "--output" in words
    assert main(words) == 0
    shown = capsys.readouterr().out
    assert first in shown and second in shown and "kmp" in shown


def test_a_regression_is_said_on_the_terminal_without_the_gate(
    tmp_path: Path, scripted_run: ScriptedRun, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "out"
    scripted_run(output, {"kmp": 10}, 10)
    code, second = scripted_run(output, {"kmp": 0}, 10)
    assert code == 1  # FAILED; no --fail-on-regression, so no exit 5
    assert _summary(output, second).regressions == ["kmp"]
    assert "regression against the previous comparable run: kmp" in capsys.readouterr().out


def test_a_status_change_is_listed_regressions_before_improvements(
    tmp_path: Path, scripted_run: ScriptedRun
) -> None:
    output = tmp_path / "out"
    scripted_run(output, {"kmp": 10, "bfs": 0}, 10)
    code, second = scripted_run(output, {"kmp": 0, "bfs": 10}, 10, "--fail-on-regression")
    assert code == 5
    summary = _summary(output, second)
    changes = [(c.scaffold, c.before, c.now, c.direction) for c in summary.status_changes or []]
    assert changes == [
        ("kmp", "CERTIFIED", "FAILED", "regression"),
        ("bfs", "FAILED", "CERTIFIED", "improvement"),
    ]
    assert summary.regressions == ["kmp"]


def test_a_small_drop_says_significance_is_out_of_reach(
    tmp_path: Path, scripted_run: ScriptedRun
) -> None:
    output = tmp_path / "out"
    # The most cases that can differ, all one way, with the one-sided test still above 0.05.
    drop_by = max(d for d in range(1, MIN_DISCORDANT) if min_attainable(d) > ALPHA)
    scripted_run(output, {"kmp": drop_by}, 20)  # 5/20: FAILED
    code, second = scripted_run(output, {"kmp": 0}, 20)
    summary = _summary(output, second)
    (drop,) = summary.rate_drops or []
    assert (drop.only_before, drop.only_now) == (drop_by, 0)
    assert drop.verdict == "significance out of reach at this n" and not drop.significant
    assert summary.regressions == [] and code == 1  # FAILED both times: no regression


def test_only_comparable_live_runs_are_baselines(
    tmp_path: Path,
    scripted_run: ScriptedRun,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    output = tmp_path / "out"
    dry = ["verify", "kmp", "--provider", "reference", "--cases", "6", "--output", str(output)]
    assert main(dry) == 0
    _, first = scripted_run(output, {"kmp": 6}, 6)
    assert _summary(output, first).previous_run_id is None  # a dry run is no baseline
    _, other_seed = scripted_run(output, {"kmp": 0}, 6, "--seed", "7")
    assert _summary(output, other_seed).previous_run_id is None
    # A run answered mostly from the response cache says nothing new: never a baseline.
    journal = RunPaths(output, first).journal
    cached = [r.model_copy(update={"source": "cache"}) for r in read_journal(journal)]
    journal.write_text("".join(r.to_line() for r in cached), encoding="utf-8")
    assert main(["report", first, "--output", str(output)]) == 0  # its summary says so too
    damaged = output / "runs" / "20000101T000000Z-damage"
    damaged.mkdir()
    (damaged / "manifest.json").write_text("{not json")
    with caplog.at_level(logging.WARNING):
        code, last = scripted_run(output, {"kmp": 0}, 6, "--fail-on-regression")
    assert code == 1 and _summary(output, last).previous_run_id is None
    assert any(damaged.name in message for message in caplog.messages)
    capsys.readouterr()
    assert main(["history", "--output", str(output), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert len(listed) == 4 and damaged.name not in {run["run_id"] for run in listed}


def test_history_lists_runs_newest_first_filtered_by_scaffold(
    tmp_path: Path, scripted_run: ScriptedRun, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "out"
    _, first = scripted_run(output, {"kmp": 6, "bfs": 3}, 6)
    _, second = scripted_run(output, {"kmp": 3}, 6)
    capsys.readouterr()
    assert main(["history", "--output", str(output), "--json"]) == 0
    runs = json.loads(capsys.readouterr().out)
    assert [r["run_id"] for r in runs] == [second, first]  # newest first, as the table
    assert runs[1]["scaffolds"]["bfs"] == {"status": "PARTIAL", "pass_rate": 0.5, "n": 6}
    assert runs[0]["provider"] == "replay" and runs[0]["seed"] == runs[1]["seed"]
    assert main(["history", "--output", str(output), "--scaffold", "bfs"]) == 0
    text = capsys.readouterr().out
    assert first in text and second not in text and "kmp" not in text
    assert main(["history", "--output", str(output), "--limit", "1"]) == 0
    text = capsys.readouterr().out
    assert second in text and first not in text
    assert "PARTIAL      50.0%" in text
    assert main(["history", "--output", str(output), "--model", "no-such-model"]) == 0
    assert capsys.readouterr().out == "no runs\n"
    # A scaffold no run holds: "no runs" when it is one, a typo's suggestions when it is
    # none (hunt ii: "dijkstr" read "no runs" at exit 0).
    assert main(["history", "--output", str(output), "--scaffold", "lcs"]) == 0
    assert capsys.readouterr().out == "no runs\n"
    assert main(["history", "--output", str(output), "--scaffold", "bfss"]) == 2
    assert "unknown scaffold 'bfss'. Did you mean: bfs" in capsys.readouterr().err


def test_a_run_with_no_summary_is_listed_with_how_to_go_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt t: a stopped run showed "(no summary: the run has not been reported)", saying
    # neither that it was stopped nor how to go on with it.
    argv = ["verify", "kmp", "--provider", "reference", "--cases", "2", "--output", str(tmp_path)]
    assert main(argv) == 0
    (run,) = (tmp_path / "runs").iterdir()
    (run / "reports" / "summary.json").unlink()  # as a run stopped before its reports
    manifest = json.loads((run / "manifest.json").read_text("utf-8"))
    (run / "manifest.json").write_text(json.dumps(manifest | {"finished_at": None}), "utf-8")
    capsys.readouterr()
    assert main(["history", "--output", str(tmp_path)]) == 0
    (said,) = [line for line in capsys.readouterr().out.splitlines() if "no summary" in line]
    assert "stopped before it was reported" in said
    command = said.split("; ", 1)[1].split(" goes on")[0]
    assert command == f"verify --resume {run.name} --output {shlex.quote(str(tmp_path))}"
    assert main(shlex.split(command)) == 0  # it does go on, as printed
    assert main(["history", "--output", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "no summary" not in out and "CERTIFIED" in out
    # A finished run whose reports were removed since: `report` writes them again.
    (run / "reports" / "summary.json").unlink()
    assert main(["history", "--output", str(tmp_path)]) == 0
    (said,) = [line for line in capsys.readouterr().out.splitlines() if "no summary" in line]
    assert said.strip() == f"(no summary: report {run.name} --output {tmp_path} writes it again)"


def _run_files(output: Path, run_id: str) -> list[str]:
    """The text of every file in a run's folder."""
    folder = RunPaths(output, run_id).run_dir
    return [f.read_text("utf-8", errors="replace") for f in folder.rglob("*") if f.is_file()]


def test_compare_pairs_two_runs_and_prune_keeps_what_it_needs(
    tmp_path: Path, scripted_run: ScriptedRun, capsys: pytest.CaptureFixture[str]
) -> None:
    from scipy.stats import binomtest

    output = tmp_path / "out"
    _, a = scripted_run(output, {"kmp": 2}, 12)
    _, b = scripted_run(output, {"kmp": 12}, 12)
    capsys.readouterr()
    assert main(["compare", a, b, "--output", str(output)]) == 0
    before = capsys.readouterr().out
    # Run folders (what verify prints) name the runs as well as ids do, as report and view
    # take them; no --output needed.
    folder_a, folder_b = RunPaths(output, a).run_dir, RunPaths(output, b).reports
    assert main(["compare", str(folder_a), str(folder_b)]) == 0
    assert capsys.readouterr().out == before
    assert main(["compare", str(folder_a), b]) == 0
    assert capsys.readouterr().out == before
    p = binomtest(0, 10, 0.5).pvalue
    (row,) = [line.split() for line in before.splitlines() if line.startswith("kmp ")]
    assert row[:6] == ["kmp", "12", "0", "10", f"{p:.4f}", f"{p:.4f}"]
    assert row[-3:] == ["B", "is", "better"]
    # Both rates on the shared cases, and B - A with Newcombe's paired interval.
    low, high = paired_difference_interval([1.0] * 2 + [0.0] * 10, [1.0] * 12)
    assert row[6:12] == [
        f"{100 * 2 / 12:.1f}%",
        "100.0%",
        f"{100 * 10 / 12:+.1f}pp",
        f"({100 * low:+.1f}pp",
        "to",
        f"{100 * high:+.1f}pp)",
    ]
    replies = {r.raw_response for r in read_journal(RunPaths(output, a).journal)} - {None}
    assert any(reply in page for reply in replies for page in _run_files(output, a))
    journal_bytes = RunPaths(output, a).journal.stat().st_size
    assert main(["prune", "--keep", "1", "--output", str(output)]) == 0
    (line,) = [line for line in capsys.readouterr().out.splitlines() if line.startswith(a)]
    assert line.startswith(f"{a}: 12 replies and 1 scaffold reports removed, and the page")
    freed = journal_bytes - RunPaths(output, a).journal.stat().st_size
    assert freed > 0 and line.endswith(" freed")
    assert all(r.raw_response is None for r in read_journal(RunPaths(output, a).journal))
    assert any(r.raw_response for r in read_journal(RunPaths(output, b).journal))
    assert not (RunPaths(output, a).reports / "kmp.md").exists()
    # Pruned everywhere: no file of the run holds a reply (the page quoted every one).
    assert not any(reply in text for reply in replies for text in _run_files(output, a))
    assert main(["compare", a, b, "--output", str(output)]) == 0
    assert capsys.readouterr().out == before


def test_compare_refuses_a_run_that_is_not_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["compare", "nope", "nothing", "--output", str(tmp_path)]) == 2
    assert "no run 'nope'" in capsys.readouterr().err
    # A path is taken as a run folder, as report and view take it, and refused as none.
    assert main(["compare", "nope", "../etc", "--output", str(tmp_path)]) == 2
    assert "../etc is no run folder" in capsys.readouterr().err


def test_prune_leaves_a_run_in_use_alone(tmp_path: Path, scripted_run: ScriptedRun) -> None:
    output = tmp_path / "out"
    _, older = scripted_run(output, {"kmp": 3}, 3)
    scripted_run(output, {"kmp": 3}, 3)
    with RunPaths(output, older).lock():  # another process holds it (a resume, say)
        (done,) = prune_runs(output, keep=1)
    assert done[0] == older and done[1].startswith("left alone: run")
    assert any(r.raw_response for r in read_journal(RunPaths(output, older).journal))


def test_a_previous_run_with_a_damaged_journal_still_gives_its_status_changes(
    tmp_path: Path, scripted_run: ScriptedRun, caplog: pytest.LogCaptureFixture
) -> None:
    output = tmp_path / "out"
    _, first = scripted_run(output, {"kmp": 6}, 6)
    journal = RunPaths(output, first).journal
    journal.write_text("not a record\n" + journal.read_text(), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        code, second = scripted_run(output, {"kmp": 0}, 6, "--fail-on-regression")
    # No paired test backs the lower status: listed, but no regression and no exit 5.
    assert code == 1
    summary = _summary(output, second)
    assert summary.previous_run_id == first and summary.regressions == []
    changes = [(c.scaffold, c.before, c.now, c.direction) for c in summary.status_changes or []]
    assert changes == [("kmp", "CERTIFIED", "FAILED", "not significant")]
    assert summary.rate_drops == []
    assert any(f"previous run {first}: journal unreadable" in m for m in caplog.messages)


def _as_recorded_before_the_gate(output: Path, run_id: str) -> None:
    """Rewrite a run's summary.json as a harness before the regression gate wrote it: no
    field of the gate, of honest n or of uncertified runs."""
    path = RunPaths(output, run_id).reports / "summary.json"
    data = json.loads(path.read_text())
    data.pop("regression_gate", None)
    for scaffold in data["scaffolds"].values():
        for name in ("rate_status", "uncertified", "worst_case_pass_rate", "effective_answers"):
            scaffold.pop(name, None)
        scaffold.pop("intra_case_correlation", None)
    path.write_text(json.dumps(data))


@pytest.mark.parametrize(("turned", "regressed"), [(4, False), (6, True)])
def test_a_run_recorded_before_the_gate_is_compared_by_the_paired_test_alone(
    tmp_path: Path, scripted_run: ScriptedRun, turned: int, regressed: bool
) -> None:
    output = tmp_path / "out"
    _, first = scripted_run(output, {"kmp": 6}, 6)
    _as_recorded_before_the_gate(output, first)
    code, second = scripted_run(output, {"kmp": 6 - turned}, 6, "--fail-on-regression")
    summary = _summary(output, second)
    assert summary.previous_run_id == first
    (change,) = summary.status_changes or []
    assert (change.before, change.now) == ("CERTIFIED", "FAILED")  # a lower status both ways
    assert (summary.regressions == ["kmp"]) is regressed
    assert (code == 5) is regressed
    assert change.direction == ("regression" if regressed else "not significant")


def test_one_case_apart_is_a_change_within_the_noise_not_a_regression(
    tmp_path: Path,
    scripted_run: ScriptedRun,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The issue's case: 36 of 40, then 35 of 40 (CERTIFIED, then PARTIAL by the rate)."""
    step_summary = tmp_path / "step-summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step_summary))
    output = tmp_path / "out"
    scripted_run(output, {"kmp": 36}, 40)
    code, second = scripted_run(output, {"kmp": 35}, 40, "--fail-on-regression")
    summary = _summary(output, second)
    (change,) = summary.status_changes or []
    assert (change.before, change.now, change.direction) == (
        "CERTIFIED",
        "PARTIAL",
        "not significant",
    )
    assert summary.regressions == [] and code == 1  # PARTIAL, not a regression
    assert "regression against" not in capsys.readouterr().out
    job = step_summary.read_text()
    assert "kmp: CERTIFIED -> PARTIAL (changed status, not significant)" in job
    assert "Regressions" not in job


def _edit_settings(output: Path, run_id: str, **settings: object) -> None:
    """Set (or, given None, remove) settings of a run's manifest, as another harness or
    another ``--answer`` would have recorded them."""
    path = RunPaths(output, run_id).manifest
    data = json.loads(path.read_text("utf-8"))
    for name, value in settings.items():
        if value is None:
            data["settings"].pop(name, None)
        else:
            data["settings"][name] = value
    path.write_text(json.dumps(data), "utf-8")


def test_a_code_mode_run_is_never_a_trace_runs_previous_comparable_run(
    tmp_path: Path, scripted_run: ScriptedRun, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: a code run between two trace runs was the later one's baseline, so a trace
    # run that dropped from all right to all wrong exited 1, with no regression.
    output = tmp_path / "out"
    _, trace = scripted_run(output, {"kmp": 10}, 10)
    _edit_settings(output, trace, answer=None)  # a manifest from before code mode: traces
    _, code_run = scripted_run(output, {"kmp": 0}, 10)
    _edit_settings(output, code_run, answer="code")  # its pass rate measured programs
    code, last = scripted_run(output, {"kmp": 0}, 10, "--fail-on-regression")
    summary = _summary(output, last)
    assert summary.previous_run_id == trace and summary.regressions == ["kmp"]
    assert code == 5
    capsys.readouterr()
    assert main(["compare", code_run, last, "--output", str(output)]) == 0
    assert "note: the runs differ in answer code != trace" in capsys.readouterr().out
    assert main(["compare", trace, last, "--output", str(output)]) == 0
    assert "note: the runs differ" not in capsys.readouterr().out


COMPARED_IN_WORDS = {
    "provider": "provider",
    "model": "model",
    "level": "level",
    "cases": "cases",
    "samples": "samples",
    "seed": "seed",
    "seed_sha256": "private seed hash",
    "sizes": "sizes",
    "thinking_budget": "thinking budget",
    "variant": "variant",
    "answer": "answer mode",
}
"""How the README, the docs and ``--fail-on-regression``'s help name each compared field."""


def _said_before(text: str, end: str) -> str:
    return text.split(end, 1)[0]


def test_the_readme_docs_and_help_name_exactly_what_history_compares() -> None:
    # Before: they named neither cases nor samples, which the code compares too.
    from verification.cli.parser import build_parser
    from verification.reports.history import COMPARABLE_FIELDS

    assert set(COMPARED_IN_WORDS) == set(COMPARABLE_FIELDS)
    root = Path(__file__).parents[2]
    readme = " ".join((root / "README.md").read_text("utf-8").split())
    docs = " ".join((root / "docs" / "VERIFICATION.md").read_text("utf-8").split())
    subcommands = next(
        action
        for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    helps = [
        action.help or ""
        for name in ("verify", "merge")
        for action in subcommands.choices[name]._actions
        if "--fail-on-regression" in action.option_strings
    ]
    assert len(helps) == 2
    passages = [
        _said_before(readme.split("compared with the previous comparable run (", 1)[1], "):"),
        _said_before(docs.split("differ in what history compares (", 1)[1], "), a note"),
        _said_before(docs.split("latest earlier run that has the same ", 1)[1], ", that asked"),
        *(_said_before(text.split("comparable run (", 1)[1], "):") for text in helps),
    ]
    for passage in passages:
        named = [f for f, words in COMPARED_IN_WORDS.items() if words in passage]
        assert named == list(COMPARED_IN_WORDS), passage


def test_prune_on_a_full_disk_frees_the_reports_first(tmp_path: Path) -> None:
    # Hunt o: prune rewrote each journal before deleting its reports, so on a full disk,
    # where it is run to free space, it freed nothing. The disk is full here for any file
    # past a few KiB (the pruned journal's temporary file).
    import resource
    import signal

    output = tmp_path / "results"
    for _ in range(2):
        argv = ["verify", "kmp", "--provider", "reference", "--cases", "6", "--output"]
        assert main([*argv, str(output)]) == 0
    journals = {
        run.name: (run / "results.jsonl").read_bytes() for run in (output / "runs").iterdir()
    }
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    before = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (1024, hard))
    try:
        done = prune_runs(output, keep=1)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, before)
    ((run_id, said),) = done  # the older run's
    older = output / "runs" / run_id
    assert "scaffold reports removed" in said and "its journal keeps its replies" in said
    assert not (older / "reports" / "kmp.md").exists()  # freed
    assert (older / "results.jsonl").read_bytes() == journals[run_id]  # whole, replies and all
    assert [p.name for p in older.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize("kind", ["file", "dangling link", "link loop"])
def test_a_runs_folder_that_is_no_folder_is_said_so_not_read_as_empty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture, kind: str
) -> None:
    # Hunt yy: history said "no runs" at exit 0 where `runs` was a file or a broken link.
    runs = tmp_path / "runs"
    if kind == "file":
        runs.write_text("not a folder", encoding="utf-8")
    elif kind == "dangling link":
        runs.symlink_to(tmp_path / "gone")
    else:
        runs.symlink_to(runs)
    assert main(["history", "--output", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "no runs\n"
    assert f"{runs} is no folder" in caplog.text
