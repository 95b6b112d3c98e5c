"""What a hunt for hostile options found (a helper tried every command with bad values): each
is now a usage error that names the option, or does what its help says."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from verification.cli import main
from verification.compose.multimodel import model_files
from verification.run.selection import MAX_NESTING


def _dry(output: Path, *extra: str) -> list[str]:
    return ["verify", "dijkstra", "--provider", "reference", "--output", str(output), *extra]


def _run_id(output: Path) -> str:
    (run,) = (output / "runs").iterdir()
    return run.name


@pytest.mark.parametrize(
    "expression",
    [
        "(" * (MAX_NESTING + 1) + "simple" + ")" * (MAX_NESTING + 1),
        "not " * (MAX_NESTING + 1) + "simple",
        "(" * 400 + "simple" + ")" * 400,
        "not " * 2000 + "simple",
    ],
)
def test_a_k_expression_nested_too_deep_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, expression: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([*_dry(tmp_path), "-k", expression])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert f"deeper than {MAX_NESTING} levels" in err and "Traceback" not in err
    assert len(err) < 2000  # the expression is shown cut, not whole


def test_a_k_expression_nested_as_deep_as_allowed_selects(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deep = "(" * MAX_NESTING + "simple" + ")" * MAX_NESTING
    assert main([*_dry(tmp_path), "--cases", "6", "-k", deep]) == 0
    assert "dijkstra" in capsys.readouterr().out


def test_an_option_check_that_crashes_is_an_internal_error_not_a_grade(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Exit 1 means "some scaffold PARTIAL or FAILED": a crash while reading the options
    # must never read as one (argparse passes on what is no usage error).
    from verification.run import selection

    def broken(text: str) -> None:
        raise RuntimeError("a bug of ours")

    monkeypatch.setattr(selection, "parse_keyword", broken)
    assert main([*_dry(tmp_path), "-k", "simple"]) == 4


def test_a_stray_cancellation_in_a_run_is_an_internal_error_saying_how_to_resume(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt ae: an asyncio.CancelledError (a BaseException, not an Exception: anyio 3.6
    # cancelled a late reply's task) ended a run with a bare traceback and exit 1, a grade.
    import asyncio

    from verification.run.attempts import Attempts

    def cancelled(*args: object, **kwargs: object) -> None:
        raise asyncio.CancelledError

    monkeypatch.setattr(Attempts, "answer", cancelled)
    assert main([*_dry(tmp_path), "--cases", "2"]) == 4
    assert "verify --resume" in capsys.readouterr().err


@pytest.mark.parametrize("days", ["740000", "1000000000", str(10**30)])
def test_cache_prune_older_than_any_date_removes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, days: str
) -> None:
    assert main(_dry(tmp_path, "--cases", "2")) == 0  # a dry run: the cache is made, empty
    capsys.readouterr()
    assert main(["cache", "prune", "--older-than", days]) == 0
    assert "removed 0 answer(s)" in capsys.readouterr().out


def test_a_resume_refuses_a_temperature_the_run_never_sent(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert main(_dry(tmp_path, "--cases", "2")) == 0
    run_id = _run_id(tmp_path)
    manifest = json.loads((tmp_path / "runs" / run_id / "manifest.json").read_text("utf-8"))
    assert manifest["settings"]["temperature"] is None
    capsys.readouterr()
    resume = ["verify", "--resume", run_id, "--output", str(tmp_path)]
    assert main([*resume, "--temperature", "0.9"]) == 2
    assert "--temperature 0.9 (the run has none)" in capsys.readouterr().err
    monkeypatch.setenv("VERIFY_TEMPERATURE", "0.5")
    assert main(resume) == 2
    assert "VERIFY_TEMPERATURE 0.5 (the run has none)" in capsys.readouterr().err
    monkeypatch.delenv("VERIFY_TEMPERATURE")
    assert main(resume) == 0  # the run as it was asked goes on


@pytest.mark.parametrize(
    ("given", "named"),
    [
        (["kmp"], "the run's own scaffolds (dijkstra)"),
        (["--category", "string"], "the run's own scaffolds (dijkstra)"),
        (["--all"], "the run's own scaffolds (dijkstra)"),
        (["--case", "dijkstra-simple-000"], "leave out --size, --case and --tier"),
        (["--tier", "edge"], "leave out --size, --case and --tier"),
        (["--sizes", "4,8"], "--sizes 4 8 (the run has none)"),
    ],
)
def test_a_resume_refuses_what_would_change_the_run_s_cases(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, given: list[str], named: str
) -> None:
    assert main(_dry(tmp_path, "--cases", "2")) == 0
    run_id = _run_id(tmp_path)
    capsys.readouterr()
    assert main(["verify", *given, "--resume", run_id, "--output", str(tmp_path)]) == 2
    assert named in capsys.readouterr().err
    assert main(["verify", "dijkstra", "--resume", run_id, "--output", str(tmp_path)]) == 0


@pytest.mark.parametrize("mode", [["--estimate"], ["--baseline", "none"]])
@pytest.mark.parametrize(
    "option",
    [["--junit-xml", "{tmp}/j.xml"], ["--junit-cases", "{tmp}/c.xml"], ["--fail-on-regression"]],
)
def test_an_estimate_or_a_pair_refuses_the_outputs_of_one_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, mode: list[str], option: list[str]
) -> None:
    given = [part.format(tmp=tmp_path) for part in option]
    assert main(_dry(tmp_path / "out", "--cases", "2", *mode, *given)) == 2
    assert f"leave out {given[0]}" in capsys.readouterr().err
    assert not list(tmp_path.glob("*.xml"))


def test_several_models_export_one_file_each_whatever_their_names(tmp_path: Path) -> None:
    models = ["org/m", "org:m", "org m", "ORG_M"]
    files = model_files(tmp_path / "out.json", models)
    assert len({file.name.lower() for file in files}) == len(models)
    assert files[0].name == "out.org_m.json"
    argv = _dry(tmp_path / "runs", "--cases", "2", "--export", str(tmp_path / "out.json"))
    assert main([*argv, *(f"--model={model}" for model in models)]) == 0
    written = sorted(tmp_path.glob("out.*.json"))
    assert [p.name for p in written] == sorted(file.name for file in files)
    assert len({json.loads(p.read_text("utf-8"))["run_id"] for p in written}) == len(models)


@pytest.mark.parametrize("option", ["-k", "--rerun-failed"])
def test_code_mode_names_the_option_it_refuses(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, option: str
) -> None:
    value = "simple"
    if option == "--rerun-failed":  # a run of its own to ask again
        assert main(_dry(tmp_path, "--cases", "2")) == 0
        value = _run_id(tmp_path)
    assert main(_dry(tmp_path, "--answer", "code", option, value)) == 2
    err = capsys.readouterr().err
    assert f"{option} is refused with --answer code" in err and "--case" not in err


def test_paths_and_names_typed_with_escape_codes_reach_the_terminal_escaped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    hostile = "x\x1b]0;TITLE\x07\x1b[31m\x9b2J"
    assert main(_dry(tmp_path / hostile, "--cases", "2")) == 0
    out = capsys.readouterr().out
    assert "report: " in out and "\\x1b]0;TITLE" in out
    assert main(_dry(tmp_path, "--scaffold-file", str(tmp_path / f"{hostile}.md"))) == 2
    err = capsys.readouterr().err
    assert "\\x1b[31m" in err
    for text in (out, err):
        assert not any(char in text for char in "\x1b\x07\x9b")
    assert main(["verify", "a" * 100_000, "--provider", "reference"]) == 2
    assert len(capsys.readouterr().err) < 1000


@pytest.mark.parametrize("sweep", [["--sizes", "4"], ["--envelope"]])
def test_tier_beside_a_sweep_is_refused_rather_than_ignored(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, sweep: list[str]
) -> None:
    # The sweep asked its own tiers at each size whatever --tier said: paid requests the
    # user had ruled out.
    assert main(_dry(tmp_path, "--cases", "6", "--tier", "edge", *sweep)) == 2
    assert "leave out --tier, or the sweep" in capsys.readouterr().err
    assert not (tmp_path / "runs").exists()


def test_an_output_that_is_a_file_is_named_as_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    given = tmp_path / "results"
    given.write_text("not a folder", "utf-8")
    assert main(_dry(given, "--cases", "2")) == 2
    assert f"the results folder {given} is a file" in capsys.readouterr().err
    assert given.read_text("utf-8") == "not a folder"


def test_a_negative_shortest_cacheable_prefix_is_a_bad_setting(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("VERIFY_MIN_CACHEABLE_TOKENS", '{"claude-haiku-4-5": -5}')
    assert main(_dry(tmp_path, "--cases", "2")) == 2
    err = capsys.readouterr().err
    assert "VERIFY_MIN_CACHEABLE_TOKENS" in err and "greater than or equal to 0" in err


@pytest.mark.slow  # over half a second
def test_batch_through_openai_is_refused_with_no_server_to_ask(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Nothing listens on port 9 (discard): the refusal comes before any connection is tried.
    monkeypatch.setenv("VERIFY_OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    argv = ["verify", "kmp", "--provider", "openai", "--model", "m", "--batch"]
    assert main([*argv, "--cases", "2", "--output", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "the openai provider has none" in err and "cannot reach" not in err
    assert not tmp_path.exists() or not any(tmp_path.iterdir())


def test_json_is_the_summary_alone_whatever_a_scaffold_s_code_prints(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A plugin's generator that printed put its lines before the summary on stdout.
    from verification.run import case_plan

    drawing = case_plan.draw_case

    def chatty(*args: object, **kwargs: object) -> object:
        print("drawing a case, says the plugin")
        return drawing(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(case_plan, "draw_case", chatty)
    assert main(_dry(tmp_path, "--cases", "2", "--json")) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["scaffolds"]["dijkstra"]["status"]
    assert "says the plugin" in err


@pytest.mark.parametrize("command", [["history"], ["history", "--json"], ["prune", "--keep", "1"]])
def test_history_and_prune_of_a_missing_results_folder_say_so_as_view_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    # A mistyped --output read "no runs" / "0 pruned" at exit 0: CI took it for success.
    missing = tmp_path / "no-such-results"
    assert main([*command, "--output", str(missing)]) == 2
    err = capsys.readouterr().err
    assert f"no results folder at {missing}" in err
    assert not missing.exists()


def test_a_dependency_missing_from_the_interpreter_is_an_install_problem_not_our_bug(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A helper ran the harness with an interpreter it was not installed in: a command's
    # import of platformdirs failed, reported as "internal error ... please report it", exit 4.
    monkeypatch.setitem(sys.modules, "platformdirs", None)  # as if it were not installed
    monkeypatch.delenv("VERIFY_CACHE_DIR", raising=False)
    assert main(_dry(tmp_path, "--cases", "2")) == 2
    err = capsys.readouterr().err
    assert "the package 'platformdirs' the harness needs is not installed" in err
    assert "internal error" not in err and "Traceback" not in err


@pytest.mark.parametrize(
    "options",
    [
        ["--answer", "code", "--samples", "2"],
        ["--answer", "code", "--case", "kmp-edge-001"],
        ["--answer", "code", "--size", "12"],
        ["--answer", "code", "--sizes", "10,20"],
        ["--answer", "code", "--envelope"],
        ["--batch"],
    ],
    ids=["samples", "case", "size", "sizes", "envelope", "batch"],
)
def test_an_estimate_refuses_what_the_run_refuses_in_its_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str]
) -> None:
    """Hunt ii: ``--estimate`` priced code mode's programs "x 2 samples", a fixed plan of one
    case beside 180 requests, batches at half price with the reference provider: runs the
    command then refused."""
    argv = ["verify", "kmp", "--provider", "reference", *options]
    assert main([*argv, "--output", str(tmp_path / "run")]) == 2
    refused = capsys.readouterr().err.strip().splitlines()[-1]
    assert main([*argv, "--estimate"]) == 2
    assert capsys.readouterr().err.strip().splitlines()[-1] == refused
    assert not (tmp_path / "run" / "runs").exists() or not any(
        (tmp_path / "run" / "runs").iterdir()
    )


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["list", "--markdown", "--json"],
            "--markdown writes the whole catalog's page: leave out --json",
        ),
        (["list", "--markdown", "--category", "graph"], "leave out --category"),
        (
            ["show-prompt", "kmp", "--answer", "code", "--case", "kmp-standard-001"],
            "--case is refused with --answer code",
        ),
        (["show-prompt", "kmp", "--answer", "code", "--size", "12"], "--size is refused with"),
        (
            ["verify", "--all", "--category", "graph", "--provider", "reference", "--estimate"],
            "--all takes every scaffold, so --category graph beside it would change nothing",
        ),
        (["check", "kmp", "--all"], "so kmp beside it would change nothing"),
    ],
    ids=["list json", "list category", "code case", "code size", "all category", "all name"],
)
def test_an_option_the_command_cannot_honour_is_refused_not_ignored(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    """Hunt ii: each printed what it prints without the option, at exit 0."""
    assert main(argv) == 2
    assert said in capsys.readouterr().err


def test_a_case_of_another_scaffold_is_told_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    """Hunt ii: "case dijkstra-standard-001 is not of ['kmp']", a Python list's repr."""
    argv = ["verify", "kmp", "--case", "dijkstra-standard-001", "--provider", "reference"]
    assert main([*argv, "--estimate"]) == 2
    err = capsys.readouterr().err
    assert "case dijkstra-standard-001 is not a case of kmp (the scaffolds named)" in err
    assert "['" not in err


@pytest.mark.parametrize("command", [["report", ""], ["view", ""], ["compare", "", "x"]])
def test_an_empty_run_is_refused_saying_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """Hunt ii: ``report ''`` said ". is no run folder", quoting what nobody typed."""
    assert main([*command, "--output", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "the run given is empty" in err and ". is no run folder" not in err


def test_a_shard_given_twice_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """Hunt ii: the second ``--shard`` silently replaced the first."""
    with pytest.raises(SystemExit) as exited:
        main(["verify", "kmp", "--provider", "reference", "--shard", "1/2", "--shard", "2/2"])
    assert exited.value.code == 2
    assert "--shard is given twice" in capsys.readouterr().err


def test_compare_of_one_run_named_twice_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hunt hh: ``compare A A`` printed a table of no differences with no word, which could
    read as a stable model; it still compares (tests compare a run with itself on purpose)."""
    assert main(_dry(tmp_path, "--cases", "2")) == 0
    run = _run_id(tmp_path)
    capsys.readouterr()
    assert main(["compare", run, run, "--output", str(tmp_path)]) == 0
    assert "name the same run, compared with itself" in capsys.readouterr().err


@pytest.mark.parametrize("written", ["\u0663", "\uff13", "1_0"])
def test_numbers_in_other_digits_are_refused(
    written: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt kk: int() reads other scripts' digits, so --sizes '٣' (Arabic-Indic three) was
    # size 3, and 1_0 was 10.
    base = ["verify", "kmp", "--provider", "reference", "--estimate"]
    for option, said in (("--sizes", "not a list of whole numbers"), ("--cases", "not a whole")):
        capsys.readouterr()
        with pytest.raises(SystemExit) as stopped:
            main([*base, option, written])
        assert stopped.value.code == 2
        assert said in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--shard", "-1/2"], "--shard needs a value after it; a value that starts with - is "
         "written --shard=VALUE"),
        (["-k"], "-k needs a value after it; a value that starts with - is written -kVALUE"),
    ],
)  # fmt: skip
def test_an_option_missing_its_value_says_how_to_give_one_that_starts_with_a_dash(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], said: str
) -> None:
    """argparse's "expected one argument", where `--shard -1/2` was meant as a value."""
    with pytest.raises(SystemExit) as stopped:
        main([*_dry(tmp_path), *argv])
    assert stopped.value.code == 2
    assert said in capsys.readouterr().err
