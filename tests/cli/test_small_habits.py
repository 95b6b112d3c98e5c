"""Small things a new user meets (issue 27 item 14): show-prompt checks before it speaks and
suggests only its own options, `list --help` says what `--json` prints, a missing
`--scaffold-file` is named as missing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verification.cli import main


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
