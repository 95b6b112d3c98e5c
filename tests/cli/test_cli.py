"""The command line end to end, offline: dry runs, replays, resume, reports, errors."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from verification.catalog import default_catalog
from verification.certify.operating import operating_characteristic
from verification.certify.sequential import decide, plan_for
from verification.cli import EXIT_CODES, main
from verification.config import LEVEL_CASES
from verification.registry import DEFAULT_SEED, get_spec
from verification.runner import plan_cases
from verification.store.journal import read_journal


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _only_run(output: Path) -> Path:
    (run_dir,) = (output / "runs").iterdir()
    return run_dir


def _write_replay(path: Path, lines: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _dry_run(
    capsys: pytest.CaptureFixture[str], name: str, cases: int, output: Path | str, *more: str
) -> tuple[int, str, str]:
    """``verify NAME --provider reference``: exit code, stdout, stderr."""
    argv = ["verify", name, "--provider", "reference", "--cases", str(cases)]
    return _run(capsys, *argv, "--output", str(output), *more)


def _replay_argv(name: str, replay: Path, cases: int, output: Path | str, *more: str) -> list[str]:
    """``verify NAME`` answered from a replay file, as arguments."""
    argv = ["verify", name, "--provider", "replay", "--replay-file", str(replay)]
    return [*argv, "--cases", str(cases), "--output", str(output), *more]


def _verify_replay(
    capsys: pytest.CaptureFixture[str],
    name: str,
    replay: Path,
    cases: int,
    output: Path | str,
    *more: str,
) -> int:
    """``verify NAME`` answered from a replay file; the exit code."""
    return _run(capsys, *_replay_argv(name, replay, cases, output, *more))[0]


def _wrong_answer(name: str) -> str:
    """A schema-valid answer that no validator accepts: every value nudged."""
    return '```json\n{"distances": {"A": 99}}\n```' if name == "dijkstra" else "{}"


def _lines_a_table_swallows(report: str) -> list[str]:
    """Lines that a GitHub-flavoured Markdown table takes in but that are no table rows (a
    paragraph right under a table becomes a row of it)."""
    lines = report.splitlines()
    tokens = MarkdownIt("commonmark").enable("table").parse(report)
    spans = [t.map for t in tokens if t.type == "table_open" and t.map]
    return [line for start, end in spans for line in lines[start:end] if not line.startswith("|")]


def test_dry_run_certifies_the_harness_and_says_dry_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(
        capsys, "verify", "dijkstra", "--provider", "reference", "--output", str(tmp_path)
    )
    assert code == 0
    assert "DRY RUN" in out
    report = (tmp_path / "reports" / "dijkstra.md").read_text()
    first_line = report.splitlines()[0]
    assert "DRY RUN" in first_line and "CERTIFIED" in first_line
    # the dev default level's plan stops a perfect scaffold at its first deciding look
    default = decide(plan_for("standard"), [1.0] * LEVEL_CASES["standard"]).n
    assert default == operating_characteristic(plan_for("standard"), 1.0).max_cases < 40
    assert f"100.0% ({default}/{default})" in report and "borderline" not in report
    summary = (tmp_path / "reports" / "summary.md").read_text()
    assert "DRY RUN" in summary.splitlines()[0]
    data = json.loads((tmp_path / "reports" / "summary.json").read_text())
    assert data["dry_run"] is True
    assert data["scaffolds"]["dijkstra"]["status"] == "CERTIFIED"
    assert data["level"] == "standard" and not data["certifies"]
    manifest = json.loads((_only_run(tmp_path) / "manifest.json").read_text())
    assert manifest["level"] == "standard" and manifest["sizes"] is None
    assert manifest["dry_run"] and manifest["run_label"] == "DRY RUN"
    assert len(manifest["scaffolds"]["dijkstra"]["sha256"]) == 64
    records = read_journal(_only_run(tmp_path) / "results.jsonl")
    assert len(records) == default and all(r.outcome == "passed" for r in records)


@pytest.mark.slow
def test_every_scaffold_passes_its_own_dry_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(
        capsys,
        "verify",
        "--all",
        "--provider",
        "reference",
        "--cases",
        "10",
        "--output",
        str(tmp_path),
    )
    assert code == 0, out
    data = json.loads((tmp_path / "reports" / "summary.json").read_text())
    assert {s["status"] for s in data["scaffolds"].values()} == {"CERTIFIED"}
    for report in sorted((tmp_path / "reports").glob("*.md")):
        assert _lines_a_table_swallows(report.read_text()) == [], report.name


@pytest.mark.parametrize(
    ("right", "status", "exit_code"), [(7, "PARTIAL", 1), (3, "FAILED", 1), (10, "CERTIFIED", 0)]
)
def test_replay_grades_by_integer_thresholds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], right: int, status: str, exit_code: int
) -> None:
    cases = plan_cases(["dijkstra"], seed=DEFAULT_SEED, cases=10)["dijkstra"]
    spec = get_spec("dijkstra")
    lines = [
        {
            "case_id": case.id,
            "raw_response": spec.render_answer(case.expected)
            if k < right
            else _wrong_answer("dijkstra"),
        }
        for k, case in enumerate(cases)
    ]
    replay = _write_replay(tmp_path / "replay.jsonl", lines)
    code = _verify_replay(capsys, "dijkstra", replay, 10, str(tmp_path / "out"))
    assert code == exit_code
    report = (tmp_path / "out" / "reports" / "dijkstra.md").read_text()
    assert report.splitlines()[0].startswith(f"# dijkstra: {status}")
    assert "REPLAY" in report.splitlines()[0]
    assert f"({right}/10)" in report


def test_missing_answers_make_a_scaffold_incomplete_and_resume_finishes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERIFY_MAX_RETRIES", "1")
    monkeypatch.setenv("VERIFY_RETRY_INITIAL_WAIT", "0")
    cases = plan_cases(["kmp"], seed=DEFAULT_SEED, cases=10)["kmp"]
    spec = get_spec("kmp")
    answers = [{"case_id": c.id, "raw_response": spec.render_answer(c.expected)} for c in cases]
    flaky = [{"case_id": c.id, "error": "transient", "retry_after": 0} for c in cases[:3]]
    replay = _write_replay(tmp_path / "first.jsonl", answers[3:] + flaky)
    out_dir = tmp_path / "out"
    code = _verify_replay(capsys, "kmp", replay, 10, str(out_dir))
    assert code == 3
    report = (out_dir / "reports" / "kmp.md").read_text()
    assert report.splitlines()[0].startswith("# kmp: INCOMPLETE")
    run_id = _only_run(out_dir).name
    first = read_journal(out_dir / "runs" / run_id / "results.jsonl")
    assert sum(r.outcome == "infra_error" for r in first) == 3

    full = _write_replay(tmp_path / "second.jsonl", answers)
    code = _verify_replay(capsys, "kmp", full, 10, str(out_dir), "--resume", run_id)
    assert code == 0
    records = read_journal(out_dir / "runs" / run_id / "results.jsonl")
    asked_again = [r.case_id for r in records[len(first) :]]
    assert sorted(asked_again) == sorted(c.id for c in cases[:3]), "only infra errors retried"
    assert (
        (out_dir / "reports" / "kmp.md").read_text().splitlines()[0].startswith("# kmp: CERTIFIED")
    )


def test_report_re_renders_a_run_from_its_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _run(
        capsys,
        "verify",
        "bfs",
        "kmp",
        "--provider",
        "reference",
        "--cases",
        "6",
        "--output",
        str(tmp_path),
    )
    run_dir = _only_run(tmp_path)
    before = {p.name: p.read_bytes() for p in (run_dir / "reports").iterdir()}
    for path in (run_dir / "reports").iterdir():
        path.unlink()
    code, _, _ = _run(capsys, "report", run_dir.name, "--output", str(tmp_path))
    assert code == 0
    after = {p.name: p.read_bytes() for p in (run_dir / "reports").iterdir()}
    assert after == before


def test_hostile_responses_cannot_break_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = plan_cases(["kmp"], seed=DEFAULT_SEED, cases=3)["kmp"]
    hostile = (
        "# I am a heading\n| a | table |\n</details><script>x</script>\n"
        '````\n```\n## Injected section\n```json\n{"positions": ["`|`"]}\n```'
    )
    lines = [{"case_id": c.id, "raw_response": hostile} for c in cases]
    replay = _write_replay(tmp_path / "replay.jsonl", lines)
    code = _verify_replay(capsys, "kmp", replay, 3, str(tmp_path / "out"))
    assert code == 1
    report = (tmp_path / "out" / "reports" / "kmp.md").read_text()
    tokens = MarkdownIt("commonmark").parse(report)
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert not any("I am a heading" in h or "Injected" in h for h in headings)
    inline_text = " ".join(t.content for t in tokens if t.type == "inline")
    assert "<script>" not in inline_text and "Injected section" not in inline_text
    fences = [t.content for t in tokens if t.type == "fence"]
    assert sum(hostile in f for f in fences) == 3
    assert _lines_a_table_swallows(report) == []


def test_no_key_exits_2_and_names_the_key_a_local_server_and_the_offline_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(capsys, "verify", "dijkstra", "--output", str(tmp_path))
    assert code == 2
    assert "ANTHROPIC_API_KEY" in err and "--provider reference" in err
    # Claude is the default: a user of a local server who left out --provider is told too.
    assert "--provider openai (VERIFY_OPENAI_BASE_URL" in err
    assert not (tmp_path / "runs").exists(), "nothing is asked or written without a key"


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["verify", "dijkstar", "--provider", "reference"], "did you mean: dijkstra"),
        (["verify", "--category", "nope", "--provider", "reference"], "unknown category"),
        (["verify", "--provider", "reference"], "name at least one scaffold"),
        (["verify", "kmp", "--cases", "0", "--provider", "reference"], "--cases"),
        (["verify", "kmp", "--case", "kmp-x-1", "--provider", "reference"], "bad case id"),
        (["verify", "kmp", "--provider", "replay"], "--replay-file"),
        (["report", "no-such-run"], "no run 'no-such-run'"),
    ],
)
def test_usage_and_configuration_errors_exit_2_with_a_clear_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    code, _, err = _run(capsys, *argv)
    assert code == 2
    assert needle.lower() in err.lower()


def test_bad_environment_setting_names_the_variable(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERIFY_CONCURRENCY", "many")
    code, _, err = _run(capsys, "verify", "kmp", "--provider", "reference")
    assert code == 2 and "VERIFY_CONCURRENCY" in err


def test_a_broken_draft_scaffold_stops_before_any_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    draft = tmp_path / "draft.md"
    draft.write_text("# Draft\n\n## When to Use\nAlways.\n", encoding="utf-8")
    code, _, err = _run(
        capsys,
        "verify",
        "kmp",
        "--scaffold-file",
        str(draft),
        "--provider",
        "reference",
        "--output",
        str(tmp_path / "out"),
    )
    assert code == 2
    assert "## Scaffold Instructions" in err and "## Output Format" in err
    assert not (tmp_path / "out" / "runs").exists()


def test_a_draft_scaffold_file_is_what_the_model_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from verification.config import packaged_scaffolds_dir

    original = (packaged_scaffolds_dir() / get_spec("kmp").scaffold_file).read_text()
    draft = tmp_path / "kmp-draft.md"
    draft.write_text(original + "\nDRAFT MARKER\n", encoding="utf-8")
    code, out, _ = _run(
        capsys,
        "show-prompt",
        "kmp",
        "--case",
        "kmp-simple-000",
        "--scaffold-file",
        str(draft),
        "--part",
        "system",
    )
    assert code == 0 and "DRAFT MARKER" in out
    code, out, _ = _run(
        capsys,
        "verify",
        "kmp",
        "--scaffold-file",
        str(draft),
        "--provider",
        "reference",
        "--cases",
        "3",
        "--output",
        str(tmp_path / "out"),
    )
    assert code == 0
    manifest = json.loads((_only_run(tmp_path / "out") / "manifest.json").read_text())
    assert manifest["scaffolds"]["kmp"]["file"] == str(draft)


def test_show_prompt_prints_scaffold_and_case_input(capsys: pytest.CaptureFixture[str]) -> None:
    (case,) = plan_cases(["bfs"], seed=DEFAULT_SEED, cases=1, case_ids=["bfs-edge-002"])["bfs"]
    code, out, _ = _run(capsys, "show-prompt", "bfs", "--case", "bfs-edge-002")
    assert code == 0
    assert "## Scaffold Instructions" in out
    assert get_spec("bfs").format_input(case.input) in out
    assert "exactly one fenced ```json block" in out


def test_single_case_and_tier_selection(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = _run(
        capsys,
        "verify",
        "--case",
        "dijkstra-standard-004",
        "--provider",
        "reference",
        "--output",
        str(tmp_path),
    )
    assert code == 0
    (record,) = read_journal(_only_run(tmp_path) / "results.jsonl")
    assert record.case_id == "dijkstra-standard-004"
    code, _, _ = _run(
        capsys,
        "verify",
        "kmp",
        "--tier",
        "simple",
        "--cases",
        "4",
        "--provider",
        "reference",
        "--output",
        str(tmp_path / "t"),
    )
    records = read_journal(_only_run(tmp_path / "t") / "results.jsonl")
    assert {r.tier for r in records} == {"simple"} and len(records) == 4


def test_list_shows_every_scaffold(capsys: pytest.CaptureFixture[str]) -> None:
    from verification.registry import SPECS

    code, out, _ = _run(capsys, "list")
    assert code == 0
    assert all(name in out for name in SPECS)


def test_help_documents_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["verify", "--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    for code in EXIT_CODES:
        assert f"  {code} " in out
        assert f"\n| {code} | " in readme, f"the README's exit-code table lacks {code}"


def test_resume_needs_no_names_and_refuses_a_changed_scaffold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from verification.config import packaged_scaffolds_dir

    draft = tmp_path / "kmp.md"
    draft.write_text((packaged_scaffolds_dir() / get_spec("kmp").scaffold_file).read_text())
    out_dir = str(tmp_path / "out")
    base = ["--provider", "reference", "--output", out_dir, "--scaffold-file", str(draft)]
    code, _, _ = _run(capsys, "verify", "kmp", "--cases", "3", *base)
    assert code == 0
    run_id = _only_run(tmp_path / "out").name
    code, _, _ = _run(capsys, "verify", "kmp", "--resume", run_id, *base)
    assert code == 0, "nothing left to ask: the run is finished"
    code, _, _ = _run(
        capsys, "verify", "--resume", run_id, "--provider", "reference", "--output", out_dir
    )
    assert code == 0, "no names needed: the manifest says which scaffolds (same text here)"
    draft.write_text(draft.read_text() + "\nedited\n")
    code, _, err = _run(capsys, "verify", "kmp", "--resume", run_id, *base)
    assert code == 2 and "changed since" in err


def test_the_summary_lists_status_changes_since_the_previous_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = plan_cases(["kmp"], seed=DEFAULT_SEED, cases=4)["kmp"]
    spec = get_spec("kmp")
    right = [{"case_id": c.id, "raw_response": spec.render_answer(c.expected)} for c in cases]
    wrong = [{"case_id": c.id, "raw_response": '{"positions": [-1]}'} for c in cases]
    out_dir = tmp_path / "out"
    assert _verify_replay(capsys, "kmp", _write_replay(tmp_path / "a", right), 4, out_dir) == 0
    assert _verify_replay(capsys, "kmp", _write_replay(tmp_path / "b", wrong), 4, out_dir) == 1
    data = json.loads((out_dir / "reports" / "summary.json").read_text())
    # Four cases that all turned: one-sided p = 1/16, within the noise at this n.
    change = {
        "scaffold": "kmp",
        "before": "CERTIFIED",
        "now": "FAILED",
        "direction": "not significant",
    }
    assert data["status_changes"] == [change] and data["regressions"] == []
    summary = (out_dir / "reports" / "summary.md").read_text()
    assert "| kmp | CERTIFIED | FAILED | changed status, not significant |" in summary


def test_a_lone_surrogate_in_a_reply_is_a_failed_answer_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (case,) = plan_cases(["kmp"], seed=DEFAULT_SEED, cases=1)["kmp"]
    reply = '```json\n{"positions": [0], "note": "\\ud800"}\n```\nstray \ud800 text'
    replay = _write_replay(tmp_path / "r.jsonl", [{"case_id": case.id, "raw_response": reply}])
    assert _verify_replay(capsys, "kmp", replay, 1, tmp_path / "out") == 1
    report = (tmp_path / "out" / "reports" / "kmp.md").read_text(encoding="utf-8")
    assert "failed at level 1" in report and "\\ud800" in report


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ('{"case_id": "kmp-simple-000", "text": "x", "usage": [1, 2]}', "usage"),
        ('{"case_id": "kmp-simple-000", "text": "x", "stop_reason": 5}', "stop_reason"),
        (
            '{"case_id": "kmp-simple-000", "error": "transient", "retry_after": "soon"}',
            "retry_after",
        ),
        ('{"case_id": "kmp-simple-000", "error": ["x"]}', "error"),
        ('{"case_id": 7, "text": "x"}', "case_id"),
        ("[1, 2]", ":1:"),
        ("not json", "not a JSON object"),
    ],
)
def test_a_bad_replay_line_is_a_configuration_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, needle: str
) -> None:
    replay = tmp_path / "r.jsonl"
    replay.write_text(line + "\n", encoding="utf-8")
    code, _, err = _run(capsys, *_replay_argv("kmp", replay, 1, tmp_path / "o"))
    assert code == 2 and needle in err and f"{replay}:1:" in err


def test_a_replay_file_that_is_not_utf8_is_a_configuration_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replay = tmp_path / "r.jsonl"
    replay.write_bytes(b"\xff\xfe\x00")
    code, _, err = _run(capsys, *_replay_argv("kmp", replay, 1, tmp_path / "o"))
    assert code == 2 and "not UTF-8" in err


@pytest.mark.parametrize(
    ("variable", "value", "needle"),
    [
        ("ANTHROPIC_BASE_URL", "http://[::1", "ANTHROPIC_BASE_URL"),
        ("ANTHROPIC_BASE_URL", "ftp://example", "ANTHROPIC_BASE_URL"),
        ("VERIFY_OPENAI_BASE_URL", ":::", "VERIFY_OPENAI_BASE_URL"),
        ("ANTHROPIC_API_KEY", "sk-ant-with-newline\n", "spaces, line breaks"),
    ],
)
def test_a_bad_url_or_key_stops_before_any_request(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    variable: str,
    value: str,
    needle: str,
) -> None:
    monkeypatch.setenv(variable, value)
    if variable != "ANTHROPIC_API_KEY":
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    code, _, err = _run(capsys, "verify", "kmp", "--output", str(tmp_path))
    assert code == 2 and needle in err
    assert "sk-ant" not in err


def test_a_results_path_that_is_a_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, _, err = _run(
        capsys, "verify", "kmp", "--provider", "reference", "--output", str(blocker)
    )
    assert code == 2 and "error:" in err


@pytest.mark.parametrize("under", ["sub", "runs"])
def test_a_results_path_a_file_blocks_says_it_cannot_be_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], under: str
) -> None:
    # Before: "<output>/runs/<run>/results.jsonl: cannot be read (Not a directory)", for a
    # run that was to write it.
    blocker = tmp_path / "file"
    if under == "runs":  # the results folder exists; its runs folder is a file
        blocker = tmp_path / "out" / "runs"
        blocker.parent.mkdir()
    blocker.write_text("")
    output = blocker / "sub" if under == "sub" else blocker.parent
    argv = ["verify", "kmp", "--provider", "reference", "--cases", "2", "--output", str(output)]
    code, _, err = _run(capsys, *argv)
    assert code == 2 and "cannot be read" not in err
    made = "results folder" if under == "sub" else "run folder"
    assert f"the {made} " in err and f"cannot be created: {blocker} is not a folder" in err


@pytest.mark.skipif(not Path("/proc/sys/kernel").is_dir(), reason="needs /proc's sys folder")
def test_a_results_folder_where_nothing_can_be_written_names_the_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hunt ii: the OS's bare words ("No such file or directory: /proc/sys/kernel/runs")
    named neither the option nor what to do (a read-only folder reads the same way)."""
    argv = ["verify", "kmp", "--provider", "reference", "--cases", "2"]
    code, _, err = _run(capsys, *argv, "--output", "/proc/sys/kernel")
    assert code == 2, err
    assert "no run can be written under the results folder /proc/sys/kernel" in err
    assert "--output or VERIFY_RESULTS_DIR" in err


def test_credentials_in_a_base_url_are_not_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://user:gw-token-123@127.0.0.1:9/")
    _dry_run(capsys, "kmp", 1, str(tmp_path))
    manifest = (_only_run(tmp_path) / "manifest.json").read_text()
    assert "gw-token-123" not in manifest and "127.0.0.1:9" in manifest


def test_report_without_a_run_id_re_renders_the_latest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(capsys, "report", "--output", str(tmp_path))
    assert code == 2 and "no runs" in err
    _dry_run(capsys, "kmp", 2, str(tmp_path))
    code, out, _ = _run(capsys, "report", "--output", str(tmp_path))
    assert code == 0 and _only_run(tmp_path).name in out


def test_a_reports_folder_the_harness_did_not_write_is_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "reports" / "q3-financials.md"
    mine.parent.mkdir()
    mine.write_text("precious")
    code, _, _ = _dry_run(capsys, "kmp", 2, str(tmp_path))
    assert code == 0 and mine.read_text() == "precious"
    assert (_only_run(tmp_path) / "reports" / "kmp.md").exists()


def test_markdown_in_model_text_cannot_make_links_or_images(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (case,) = plan_cases(["dijkstra"], seed=DEFAULT_SEED, cases=1)["dijkstra"]
    answer = dict(case.expected["distances"], **{"![x](http://evil.example/p.png)": 1})
    reply = "```json\n" + json.dumps({"distances": answer}) + "\n```"
    replay = _write_replay(
        tmp_path / "r.jsonl",
        [{"case_id": case.id, "raw_response": reply, "model": "[m](http://evil.example)"}],
    )
    assert _verify_replay(capsys, "dijkstra", replay, 1, tmp_path / "out") == 1
    tokens = MarkdownIt("commonmark").parse((tmp_path / "out/reports/dijkstra.md").read_text())
    children = [c for t in tokens if t.children for c in t.children]
    assert not [c for c in children if c.type in ("image", "link_open")]


def test_a_dry_run_summary_json_certifies_no_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _dry_run(capsys, "kmp", 2, str(tmp_path))
    data = json.loads((tmp_path / "reports" / "summary.json").read_text())
    assert data["model_requested"] is None
    assert data["scaffolds"]["kmp"]["run_label"] == "DRY RUN"


def test_odd_text_in_a_manifest_keeps_the_run_readable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _run(
        capsys,
        "verify",
        "kmp",
        "--provider",
        "reference",
        "--cases",
        "2",
        "--model",
        "bad\udcff",
        "--output",
        str(tmp_path),
    )
    code, _, _ = _run(capsys, "report", "--output", str(tmp_path))
    assert code == 0


def test_a_filtered_run_says_it_is_no_certification(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(
        capsys,
        "verify",
        "--case",
        "kmp-simple-000",
        "--tier",
        "edge",
        "--provider",
        "reference",
        "--output",
        str(tmp_path),
    )
    assert code == 2 and "--tier" in err
    _run(
        capsys,
        "verify",
        "--case",
        "kmp-simple-000",
        "--provider",
        "reference",
        "--output",
        str(tmp_path),
    )
    assert "Partial suite" in (tmp_path / "reports" / "kmp.md").read_text()
    assert "Partial suite" in (tmp_path / "reports" / "summary.md").read_text()


@pytest.mark.parametrize("argv", [["--output", ""], ["--scaffolds-dir", " "]])
def test_an_empty_path_is_refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exited:  # argparse's usage error
        main(["verify", "kmp", "--provider", "reference", *argv])
    assert exited.value.code == 2 and "must not be empty" in capsys.readouterr().err


# --- conventions: options anywhere, --version, the name we were called by ----------------


def test_verbose_works_after_the_command_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _dry_run(capsys, "kmp", 2, tmp_path, "-v")
    assert code == 0 and "kmp" in out
    assert main(["-v", "list"]) == 0


def test_version_is_the_installed_distributions(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    with pytest.raises(SystemExit) as done:
        main(["--version"], prog="verify-scaffolds")
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"verify-scaffolds {version('scaffold-verification')}"


@pytest.mark.slow
def test_help_names_the_command_the_user_typed() -> None:
    import subprocess
    import sys

    installed = Path(sys.executable).with_name("verify-scaffolds")
    done = subprocess.run([str(installed), "--help"], capture_output=True, text=True, check=True)
    assert done.stdout.startswith("usage: verify-scaffolds")
    module = subprocess.run(
        [sys.executable, "-m", "verification", "show-prompt", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert module.stdout.startswith("usage: python -m verification show-prompt")
    for option in ("--part", "--seed", "--scaffolds-dir", "--size"):
        line = next(x for x in module.stdout.splitlines() if x.strip().startswith(option))
        assert len(line.split()) > 1 or option == "--part", f"{option} has no help text"


@pytest.mark.slow  # a process
def test_the_entry_point_of_an_older_install_still_runs() -> None:
    # Hunt ah: an editable install made before verify-scaffolds' entry point moved keeps a
    # script importing verification.cli.entry:script; after a pull it failed to import.
    import subprocess
    import sys

    older = "import sys; from verification.cli.entry import script; sys.exit(script())"
    done = subprocess.run(
        [sys.executable, "-c", older, "--help"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and done.stdout.startswith("usage: "), done.stderr


def test_another_tools_verify_variable_does_not_stop_a_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERIFY_SSL", "0")
    code, _, err = _dry_run(capsys, "kmp", 2, tmp_path)
    assert code == 0 and "VERIFY_SSL" not in err


def test_report_of_an_older_run_leaves_the_latest_reports_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _dry_run(capsys, "kmp", 2, tmp_path)[0] == 0
    assert _dry_run(capsys, "bfs", 2, tmp_path)[0] == 0
    runs = sorted((tmp_path / "runs").iterdir(), key=lambda p: p.stat().st_mtime)
    older = json.loads((runs[0] / "manifest.json").read_text())["run_id"]
    assert _run(capsys, "report", older, "--output", str(tmp_path))[0] == 0
    latest = tmp_path / "reports"
    assert (latest / "bfs.md").exists() and not (latest / "kmp.md").exists()
    assert (runs[0] / "reports" / "kmp.md").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("kind", ["device", "fifo", "folder"])
def test_a_scaffold_file_that_is_no_regular_file_is_refused_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    draft = {"device": Path("/dev/zero"), "fifo": tmp_path / "draft.md", "folder": tmp_path}[kind]
    if kind == "fifo":
        os.mkfifo(draft)  # opened for reading, it would wait for a writer forever
    code, _, err = _run(
        capsys,
        "verify",
        "kmp",
        "--provider",
        "reference",
        "--scaffold-file",
        str(draft),
        "--output",
        str(tmp_path / "out"),
    )
    assert code == 2
    assert str(draft) in err and ("not a regular file" in err or "cannot be read" in err)


def test_docs_catalog_is_the_catalog(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "list", "--markdown")
    assert code == 0
    page = Path(__file__).parents[2] / "docs" / "CATALOG.md"
    assert page.read_text(encoding="utf-8") == out, (
        "docs/CATALOG.md is out of step: python -m verification list --markdown > docs/CATALOG.md"
    )
    for name in default_catalog():
        assert f"| `{name}` |" in out


def test_the_progress_bar_shows_the_count_and_the_time_left() -> None:
    import io
    import types

    from rich.console import Console

    from verification.cli import _ProgressBar

    screen = io.StringIO()
    bar = _ProgressBar(Console(file=screen, force_terminal=True, width=120))
    bar.start(4)
    for attempt in (1, 2, 1):  # a repair (attempt 2) refines an answer already counted
        bar.advance(types.SimpleNamespace(scaffold="kmp", outcome="passed", attempt=attempt))
    bar._progress.refresh()
    shown = screen.getvalue()
    bar.close()
    assert "2/4" in shown and "ETA" in shown and "elapsed" in shown, shown


def _copy_of_the_package_in(project: Path, name: str) -> Path:
    """This package's source inside a git repository of project ``name``, committed."""
    import shutil
    import subprocess

    shutil.copytree(
        Path(__file__).parents[2] / "verification",
        project / "verification",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    (project / "pyproject.toml").write_text(f'[project]\nname = "{name}"\n', encoding="utf-8")
    git = ["git", "-C", str(project), "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "x"]):
        subprocess.run([*git, *args], check=True, capture_output=True)
    return project


@pytest.mark.slow
@pytest.mark.parametrize("project", ["scaffold-verification", "someone-elses-project"])
def test_a_commit_is_recorded_only_from_the_packages_own_checkout(
    tmp_path: Path, project: str
) -> None:
    import subprocess
    import sys
    from importlib.metadata import version

    checkout = _copy_of_the_package_in(tmp_path / "repo", project)
    commit = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    recorded = subprocess.run(
        [
            sys.executable,
            "-c",
            "from verification.store.code_version import code_version as v; print(v())",
        ],
        cwd=checkout,
        env={**os.environ, "PYTHONPATH": str(checkout)},
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    installed = version("scaffold-verification")
    own = project == "scaffold-verification"
    assert recorded == (f"{installed}+{commit}" if own else installed)


def test_a_dry_run_that_fails_says_the_spec_is_at_fault(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt cc: a newcomer's render_answer the parser could not read gave "FAILED 0.0%" and a
    # regression hint on the terminal; only the report said a dry run's failure is the spec's.
    import dataclasses

    catalog = default_catalog()
    broken = dataclasses.replace(catalog["kmp"], render_answer=lambda answer: "Matches: none")
    monkeypatch.setitem(catalog._specs, "kmp", broken)
    argv = ["verify", "kmp", "--provider", "reference", "--cases", "5"]
    assert main([*argv, "--output", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "kmp: FAILED on the reference's own answers, a defect of its spec" in out
    assert "`check kmp` names it" in out
    # a dry run that certifies says nothing of the kind
    monkeypatch.undo()
    assert main([*argv, "--output", str(tmp_path / "right")]) == 0
    assert "defect of its spec" not in capsys.readouterr().out
