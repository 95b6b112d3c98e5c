"""Usage errors in a user's words: argparse's messages name internal destinations and
suggest nothing; these say what was not understood and what was probably meant."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

__all__ = ["closest", "plain_usage_error"]

_INVALID_CHOICE = re.compile(
    r"^argument (?P<argument>.+?): invalid choice: (?P<value>.+?) \(choose from (?P<choices>.*)\)$"
)
_UNRECOGNIZED = re.compile(r"^unrecognized arguments: (?P<words>.*)$")
_NO_VALUE = re.compile(
    r"^argument (?:-\w/)?(?P<option>-{1,2}[\w-]+)(?:/-\w)?: expected one argument$"
)


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate ``word`` most likely misspells, if any is close enough.

    Examples
    --------
    >>> closest("--provder", ["--provider", "--model"])
    '--provider'
    >>> closest("stat", ["stats", "clear", "prune"])
    'stats'
    >>> closest("--zzz", ["--provider"]) is None
    True
    """
    found = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return found[0] if found else None


def plain_usage_error(message: str, *, command: str | None, options: Iterable[str]) -> str:
    """``message`` from argparse, rewritten for the user of ``command`` (a subcommand's
    name, None at the top level) whose parser takes ``options``.

    Examples
    --------
    >>> plain_usage_error(
    ...     "argument ACTION: invalid choice: 'stat' (choose from 'stats', 'clear')",
    ...     command="cache",
    ...     options=[],
    ... )
    "unknown cache action 'stat'; did you mean stats? (choose from stats, clear)"
    >>> plain_usage_error(
    ...     "unrecognized arguments: --provder x", command="verify", options=["--provider"]
    ... )
    'unrecognized arguments: --provder x; did you mean --provider?'
    >>> plain_usage_error("argument --shard: expected one argument", command="verify", options=[])
    '--shard needs a value after it; a value that starts with - is written --shard=VALUE'
    """
    invalid = _INVALID_CHOICE.match(message)
    if invalid:
        choices = re.findall(r"'((?:[^'\\]|\\.)*)'", invalid["choices"])
        value = invalid["value"]
        best = closest(value.strip("'\""), choices)
        hint = f"; did you mean {best}?" if best else ""
        argument = invalid["argument"]
        if argument.startswith("-"):
            what = f"unknown {argument} value {value}"
        else:  # a positional: argparse shows its metavar, an internal name
            noun = argument.lower().split("/")[0]
            what = f"unknown {command + ' ' if command else ''}{noun} {value}"
        return f"{what}{hint} (choose from {', '.join(choices)})"
    no_value = _NO_VALUE.match(message)
    if no_value:
        # argparse reads a value that starts with - (`--shard -1/2`) as the next option.
        option = no_value["option"]
        joined = f"{option}=VALUE" if option.startswith("--") else f"{option}VALUE"
        return f"{option} needs a value after it; a value that starts with - is written {joined}"
    unrecognized = _UNRECOGNIZED.match(message)
    if unrecognized:
        known = list(options)
        hints = []
        for word in unrecognized["words"].split():
            if word.startswith("--"):
                best = closest(word.split("=", 1)[0], known)
                if best:
                    hints.append(best)
        if hints:
            return f"{message}; did you mean {', '.join(dict.fromkeys(hints))}?"
    return message
