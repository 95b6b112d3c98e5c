"""The parser ``main`` builds once per process parses every command line as a fresh one."""

from __future__ import annotations

import argparse
import contextlib
import io
from collections.abc import Callable

import pytest

from verification.cli import main
from verification.cli.parser import _parser_named, build_parser, shared_parser

# Every command, the options that collect (append, nargs) or default, and usage errors: in
# this order and reversed, so a line parsed after another sees whatever it left behind.
COMMAND_LINES: list[list[str]] = [
    ["verify", "dijkstra", "--provider", "reference", "--cases", "3", "--output", "out"],
    ["verify", "dijkstra", "kmp", "--tier", "simple", "--tier", "edge", "--case", "a-1"],
    ["verify", "--all", "--export", "r.csv", "--export", "r.json", "-k", "graph and not edge"],
    ["verify", "dijkstra", "--sizes", "4,8", "--model", "a", "--model", "b", "-v"],
    ["-v", "verify", "dijkstra", "--shard", "1/3", "--no-progress"],
    ["verify", "dijkstra", "--baseline", "--scaffold-file", "draft.md"],
    ["verify"],
    ["list", "--category", "graph", "--json"],
    ["check", "kmp", "--cases", "5"],
    ["plan", "--level", "quick", "--samples", "3"],
    ["show-prompt", "dijkstra", "--case", "dijkstra-simple-000", "--part", "user"],
    ["report"],
    ["view", "run-1"],
    ["cache", "prune", "--older-than", "3"],
    ["history", "--limit", "5", "--json"],
    ["history"],
    ["compare", "a", "b", "--html"],
    ["merge", "x", "y", "--junit-xml", "j.xml"],
    ["prune", "--keep", "2"],
    ["verify", "dijkstra", "--cases", "0"],
    ["verify", "dijkstra", "--provder", "reference"],
    ["history", "--limit", "x"],
    ["nonsense"],
    [],
    ["verify", "--help"],
    ["--help"],
]


def _parsed(parse: Callable[[list[str]], argparse.Namespace], argv: list[str]) -> object:
    """What parsing ``argv`` gives: its namespace, or its exit code and what it printed."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            return sorted(vars(parse(argv)).items(), key=lambda item: item[0])
        except SystemExit as exc:
            return ("exit", exc.code, out.getvalue(), err.getvalue())


@pytest.mark.parametrize("prog", [None, "python -m verification"])
def test_the_shared_parser_parses_each_line_as_a_fresh_parser_does(prog: str | None) -> None:
    fresh = [_parsed(build_parser(prog).parse_args, argv) for argv in COMMAND_LINES]
    assert len({repr(parsed) for parsed in fresh}) == len(COMMAND_LINES)  # each line differs
    shared = shared_parser(prog)
    assert shared_parser(prog) is shared  # built once
    for order in (COMMAND_LINES, COMMAND_LINES[::-1], COMMAND_LINES):
        for argv in order:
            assert _parsed(shared.parse_args, argv) == fresh[COMMAND_LINES.index(argv)], argv


def test_each_program_name_has_its_own_parser() -> None:
    one, other = shared_parser("verify-scaffolds"), shared_parser("python -m verification")
    assert one is not other
    assert (one.prog, other.prog) == ("verify-scaffolds", "python -m verification")
    assert shared_parser() is shared_parser(build_parser().prog)


def _main(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv, prog="verify-scaffolds")
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else -1
    return code, out.getvalue(), err.getvalue()


def test_main_twice_in_one_process_gives_what_two_fresh_parsers_give() -> None:
    lines = [
        ["list", "--category", "graph"],
        ["plan", "--cases", "7"],
        ["list", "--category", "string", "--json"],
        ["history", "--limit", "0"],
        ["plan", "--cases", "5", "--samples", "2"],
        ["list", "--category", "graph"],
    ]
    fresh = []
    for argv in lines:
        _parser_named.cache_clear()  # as a process of its own would build it
        fresh.append(_main(argv))
    assert len({result for result in fresh}) == 5  # the first line and the last agree
    assert [_main(argv) for argv in lines] == fresh
