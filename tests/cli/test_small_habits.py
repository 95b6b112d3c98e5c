"""Small things a new user meets (issue 27 item 14): show-prompt checks before it speaks and
suggests only its own options, `list --help` says what `--json` prints, a missing
`--scaffold-file` is named as missing, an estimate of a dry run says nothing is paid."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from verification.cli import main
from verification.cli.parser import build_parser
from verification.config import packaged_scaffolds_dir
from verification.llm.prompt_builder import PromptBuilder
from verification.store.pricing import estimate_tokens, min_cacheable_for


def test_show_prompt_refuses_an_unknown_name_before_naming_a_case(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["show-prompt", "no_such_scaffold"]) == 2
    err = capsys.readouterr().err
    assert "unknown scaffold 'no_such_scaffold'" in err and "showing case" not in err


def test_show_prompt_suggests_no_option_it_lacks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["show-prompt", "dijkstra", "--size", "99"]) == 2
    err = capsys.readouterr().err
    assert "size 99" in err and "showing case" not in err
    suggested = [word for word in err.split() if word.startswith("--")]
    assert suggested, "the error says what to change"
    with pytest.raises(SystemExit):
        main(["show-prompt", "--help"])
    helped = capsys.readouterr().out
    assert all(option.rstrip(",.;)") in helped for option in suggested)


@pytest.mark.parametrize("part", ["both", "system", "user"])
def test_show_prompt_ends_with_one_newline(capsys: pytest.CaptureFixture[str], part: str) -> None:
    assert main(["show-prompt", "kmp", "--part", part]) == 0
    out = capsys.readouterr().out
    assert out.endswith("\n") and not out.endswith("\n\n")


def test_list_help_says_json_prints_an_object(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["list", "--help"])
    helped = " ".join(capsys.readouterr().out.split())
    assert main(["list", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert isinstance(printed, dict) and "JSON object" in helped
    assert all(f'"{key}"' in helped for key in printed)


def test_list_help_names_every_field_of_a_scaffold(capsys: pytest.CaptureFixture[str]) -> None:
    # Before: answer_schema, tolerances and max_output_tokens went unnamed.
    with pytest.raises(SystemExit):
        main(["list", "--help"])
    helped = set(re.findall(r"[\w-]+", capsys.readouterr().out))
    assert main(["list", "--json"]) == 0
    (first, *_) = json.loads(capsys.readouterr().out)["scaffolds"]
    assert sorted(set(first) - helped) == []


def test_every_command_says_what_it_does_and_where_its_results_folder_is() -> None:
    # Before: report had no description, and six commands' --output gave no default.
    for name, command in _commands().items():
        assert command.description, f"{name} --help has no description"
        for action in command._actions:
            if action.dest == "results_dir":
                assert "VERIFY_RESULTS_DIR" in (action.help or ""), name
                assert "default: verification_results" in (action.help or ""), name


def test_the_run_options_help_says_what_the_run_does() -> None:
    from verification.llm.limiter import INITIAL_WINDOW, starting_limit

    helps = {
        option: " ".join((action.help or "").split())
        for action in _commands()["verify"]._actions
        for option in action.option_strings
    }
    # The window starts at a quarter of the ceiling, never below INITIAL_WINDOW.
    assert (starting_limit(8), starting_limit(40)) == (INITIAL_WINDOW, 10)
    assert f"never below {INITIAL_WINDOW}" in helps["--concurrency"]
    assert "level 1 or 2" in helps["--repair-attempts"]  # a schema misfit is repaired too
    # --tier simple at the standard level asks the sequential plan, up to 180 cases.
    assert "simple is a quick check" not in helps["--tier"]
    assert "certifies nothing" in helps["--tier"]


@pytest.mark.parametrize("command", ["verify", "show-prompt"])
def test_a_missing_scaffold_file_is_named_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    missing = tmp_path / "missing.md"
    argv = [command, "kmp", "--scaffold-file", str(missing)]
    if command == "verify":
        argv += ["--provider", "reference", "--cases", "2", "--output", str(tmp_path / "out")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{missing}" in err and "--scaffold-file names does not exist" in err
    assert "--scaffolds-dir" not in err and "showing case" not in err


def test_an_estimate_of_a_dry_run_says_nothing_is_paid_and_what_prompt_cache_means(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["verify", "kmp", "--estimate", "--output", str(tmp_path)]
    assert main([*argv, "--provider", "reference"]) == 0
    out = capsys.readouterr().out
    assert "nothing is paid: the reference provider asks no model" in out
    assert "$" not in out
    (legend,) = [line for line in out.splitlines() if line.startswith("PROMPT CACHE:")]
    assert "none: the reference provider marks no prompt for caching" in legend
    # Hunt mm 5: it explained "read" though no row of the table read the cache.
    assert legend.startswith("PROMPT CACHE: none:") and "read:" not in legend
    # A model whose minimum the scaffold does not reach: the legend says so, in numbers.
    model = "claude-haiku-4-5"
    assert main([*argv, "--model", model]) == 0
    out = capsys.readouterr().out
    minimum = min_cacheable_for(model)
    scaffold = PromptBuilder(packaged_scaffolds_dir()).get_scaffold_content("kmp")
    assert minimum is not None and estimate_tokens(scaffold) < minimum
    assert f"shorter than the {minimum:,} tokens {model} caches at least" in out


def _commands() -> dict[str, argparse.ArgumentParser]:
    (commands,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(commands.choices)


# `list` describes which sizes `verify`'s options accept: its text names them on purpose.
@pytest.mark.parametrize("name", [name for name in _commands() if name != "list"])
def test_a_command_s_help_names_only_options_it_has(name: str) -> None:
    # show-prompt's --size once said "--tier narrows the tiers", an option it does not have.
    command = _commands()[name]
    own = {option for action in command._actions for option in action.option_strings}
    texts = [command.description or "", *(action.help or "" for action in command._actions)]
    # A `backquoted` command line is another command's example, with its own options.
    named = {
        option
        for text in texts
        for option in re.findall(r"(?<![\w-])--[a-z][a-z-]*", re.sub(r"`[^`]*`", "", text))
    }
    assert named <= own, f"{name} --help names {sorted(named - own)}, which it does not take"


def test_report_of_a_finished_run_without_its_journal_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt o: `report` then said INCOMPLETE n=0 and never that the journal was missing.
    argv = ["verify", "kmp", "--provider", "reference", "--cases", "2", "--output", str(tmp_path)]
    assert main(argv) == 0
    (run,) = (tmp_path / "runs").iterdir()
    (run / "results.jsonl").unlink()
    capsys.readouterr()
    assert main(["report", run.name, "--output", str(tmp_path)]) == 3
    err = capsys.readouterr().err
    assert f"run {run.name} has no journal" in err and "missing from these reports" in err
