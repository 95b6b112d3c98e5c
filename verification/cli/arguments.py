"""The argument types and the option groups several commands share."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

__all__ = [
    "DEFAULT_PAGE",
    "Parser",
    "add_ci_options",
    "add_output_option",
    "add_run_options",
    "add_size_option",
    "common_options",
    "export_argument",
    "integer",
    "keyword_argument",
    "path_argument",
    "positive",
    "shard_argument",
    "size_list",
]


DEFAULT_PAGE = Path("\x00default")
"""``compare --html`` with no path: the page goes to its place under the results folder
(no path a user gives can hold a NUL)."""


def path_argument(text: str) -> Path:
    """A path option; an empty one would silently mean the current folder."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty")
    if "\x00" in text:
        raise argparse.ArgumentTypeError("holds a NUL byte, which no path can")
    return Path(text)


class Parser(argparse.ArgumentParser):
    command_name: str | None = None
    """The subcommand this parser reads (None: the top level)."""
    commands: dict[str, Parser] | None = None
    """The top level's subcommand parsers, by name."""

    def error(self, message: str) -> NoReturn:  # usage errors exit 2, as configuration does
        from verification.cli.usage_errors import plain_usage_error

        self.print_usage(sys.stderr)
        plain = plain_usage_error(
            message, command=self.command_name, options=self._option_string_actions
        )
        self.exit(2, f"{self.prog}: error: {plain}\n")

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        # An option argparse does not know is the subcommand's to explain (its usage, and
        # the close option among its own), not the top level's.
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            command = (self.commands or {}).get(getattr(parsed, "command", None) or "")
            (command or self).error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed


def _whole(text: str) -> int:
    """``text`` as a whole number written in ASCII digits: :func:`int` also reads other
    scripts' digits and underscores (``--sizes '٣'`` was size 3; hunt kk)."""
    digits = text.strip()
    if not digits.lstrip("+-").isascii() or not digits.lstrip("+-").isdigit():
        raise ValueError(text)
    return int(digits)


def integer(text: str) -> int:
    """A whole number (:func:`_whole`), as an option's type."""
    try:
        return _whole(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def positive(text: str) -> int:
    """A whole number of at least 1."""
    try:
        value = _whole(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def size_list(text: str) -> list[int]:
    """``4,8,12``: sizes of at least 0."""
    try:
        sizes = [_whole(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of whole numbers: {text!r}") from None
    if not sizes or min(sizes) < 0:
        raise argparse.ArgumentTypeError(f"give sizes of 0 or more, as 4,8,12: {text!r}")
    return sizes


def shard_argument(text: str) -> Any:
    """``I/N``: the I-th of N slices of the plan."""
    from verification.errors import ConfigurationError
    from verification.run.shards import parse_shard

    try:
        return parse_shard(text)
    except ConfigurationError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def keyword_argument(text: str) -> str:
    """A ``-k`` expression, checked now so a bad one is a usage error."""
    from verification.errors import ConfigurationError
    from verification.run.selection import parse_keyword

    try:
        parse_keyword(text)
    except ConfigurationError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def export_argument(text: str) -> Path:
    """An ``--export`` file, its extension a known format: else a usage error."""
    from verification.errors import ConfigurationError
    from verification.reports.exports import check_export

    try:
        return check_export(path_argument(text))
    except ConfigurationError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_size_option(parser: argparse.ArgumentParser, *, one_case: bool = False) -> None:
    """``--size``: for a run, which every tier it asks must honour; for a command that
    shows ``one_case`` (``show-prompt``, which has no ``--tier``), its case's tier."""
    honoured = (
        "which the case's tier must honour (another tier is another --case)"
        if one_case
        else "which every tier the run asks must honour (--tier narrows the tiers)"
    )
    parser.add_argument(
        "--size",
        type=positive,
        metavar="N",
        help=f"generate {'the case' if one_case else 'every case'} at size N (vertices, "
        f"items, text length, ...), {honoured}; `list` shows each scaffold's unit and the "
        "sizes --size accepts; default: each tier's own size",
    )


def add_run_options(parser: argparse.ArgumentParser) -> None:
    from verification.llm.providers import PROVIDERS

    group = parser.add_argument_group("run options (each overrides its VERIFY_* variable)")
    group.add_argument(
        "--provider",
        choices=list(PROVIDERS),
        help="who answers: "
        + "; ".join(f"{entry.name}: {entry.help}" for entry in PROVIDERS.values())
        + ". Default: anthropic",
    )
    group.add_argument(
        "--model",
        action="append",
        metavar="MODEL",
        help="model id; default: the mode's model. Given more than once, every model is "
        "asked the same cases, each in a run of its own, and each run's summary.md (and "
        "models.json) holds a model x scaffold table (VERIFY_MODEL=A,B)",
    )
    group.add_argument(
        "--mode",
        choices=["dev", "cert"],
        dest="current_mode",
        help="dev uses VERIFY_DEV_MODEL and the standard level; cert uses VERIFY_CERT_MODEL, "
        "the thorough level and the private seed VERIFY_CERT_SEED when it is set "
        "(VERIFY_CURRENT_MODE)",
    )
    group.add_argument(
        "--level",
        choices=["quick", "standard", "thorough"],
        help="quick: a smoke test of the simple tier, 5 cases, certifies nothing (exit code "
        "reflects only errors); standard: every tier, a sequential certification plan that "
        "looks every 10 cases from 20 and stops once decided, at most 180 (dev default); "
        "thorough: the same at stricter risks, at most 290, plus each scaffold's size envelope, "
        "searched size by size (a sweep of its size range where a run cannot decide one size "
        "before the next: --batch, --shard, several models, VERIFY_ENVELOPE=false; cert "
        "default). `python -m verification plan --level L` shows a plan",
    )
    group.add_argument(
        "--cases",
        type=integer,
        metavar="N",
        help="a fixed plan of N cases per scaffold, split over tiers, all asked and decided "
        "by the rate alone (at small N a weak plan: `plan --cases N` says how weak); "
        "default: the level's plan",
    )
    group.add_argument(
        "--sizes",
        type=size_list,
        metavar="N,N,...",
        help="sweep these sizes (simple and standard tiers interleaved; `list` shows the sizes "
        "--sizes accepts) on top of the level's cases, at any level; each size is decided by "
        "its own plan of the level (up to the level's cap of cases at each size: `plan` "
        "shows it; 35 at quick); the report shows pass rate against size and the largest "
        "size that certifies",
    )
    group.add_argument(
        "--envelope",
        action="store_const",
        const=True,
        help="search the size envelope: decide the standard maximum, climb by doubling "
        "(into the stress range) while sizes certify, then bisect to the largest size that "
        "still certifies; each size decided by the level's plan, within --max-cost (the "
        "thorough level's automatic envelope)",
    )
    group.add_argument("--samples", type=integer, metavar="N", help="answers asked per case (1)")
    group.add_argument(
        "--concurrency",
        type=integer,
        metavar="N",
        help="most requests in flight (4); starts at a quarter of N, never below 4 (nor "
        "above N), cut on 429, grown on success",
    )
    group.add_argument(
        "--seed", type=integer, metavar="N", help="suite seed: same seed, same cases"
    )
    group.add_argument(
        "--temperature", type=float, metavar="T", help="sampling temperature (unset: not sent)"
    )
    group.add_argument(
        "--thinking-budget",
        type=integer,
        metavar="N",
        help="extended thinking with N tokens (1024 or more) to think before answering, on "
        "models that support it (refused, exit 2, on others); with --provider openai, N "
        "tokens of room for any model that reasons in its reply (no thinking field is "
        "sent). Each request asks for N plus the scaffold's output budget and sends no "
        "temperature. Recorded in the manifest: runs are compared only with runs of the "
        "same budget",
    )
    group.add_argument(
        "--repair-attempts",
        type=integer,
        metavar="N",
        help="attempts per answer when it fails level 1 or 2 (it cannot be read or misfits "
        "the schema; in code mode, level 1 only), 1 to 3 (1: no repair)",
    )
    group.add_argument(
        "--output",
        type=path_argument,
        dest="results_dir",
        metavar="DIR",
        help="results directory (VERIFY_RESULTS_DIR; default: verification_results)",
    )
    group.add_argument(
        "--scaffolds-dir", type=path_argument, metavar="DIR", help="where <category>/<name>.md live"
    )
    group.add_argument(
        "--replay-file",
        type=path_argument,
        metavar="FILE",
        help="JSONL responses for --provider replay",
    )
    group.add_argument(
        "--max-cost",
        type=float,
        metavar="USD",
        help="budget in US dollars: no case starts once what it could cost (the worst case "
        "of those in flight counted) would pass it; those in flight finish, the report says "
        "the run stopped, and --resume RUN_ID with a larger budget goes on. Needs the model's "
        "price (built-in table, or VERIFY_PRICES). A budget holds for one run: refused with "
        "--baseline and with several --model (each run would get all of it)",
    )
    group.add_argument(
        "--batch",
        action="store_const",
        const=True,
        help="send the run through Anthropic's Message Batches API (half price, results "
        "within 24 hours): answers the response cache holds are not sent, repairs go in a "
        "later batch, a killed run resumes polling its batches (--resume RUN_ID), and what "
        "did not succeed in a batch is answered synchronously (VERIFY_BATCH_SYNC_FINISH). "
        "Polled every VERIFY_BATCH_POLL_INTERVAL seconds (60) up to VERIFY_BATCH_DEADLINE",
    )
    group.add_argument(
        "--answer",
        choices=["trace", "code"],
        help="what the model is asked for: trace (default), the algorithm worked by hand on "
        "each case; code, one Python program per request, run in a sandbox on every case of "
        "every tier and a size ladder far past trace sizes (n counts programs; not with "
        "--samples). VERIFY_ANSWER",
    )
    group.add_argument(
        "--sandbox",
        choices=["bubblewrap", "docker"],
        help="where --answer code runs programs: bubblewrap or docker (default: the first "
        "that works here; none is refused before any request). VERIFY_SANDBOX",
    )
    group.add_argument(
        "--early-stop",
        action="store_const",
        const=True,
        help="accepted for old command lines; what it asked for is now every standard and "
        "thorough run's own: the certification plan looks every 10 answered cases from 20 "
        "and stops a scaffold once a look decides (`python -m verification plan` shows the "
        "plan). --cases N, --case, --shard, --batch and several models ask the whole plan",
    )
    group.add_argument(
        "--no-cache",
        dest="cache",
        action="store_const",
        const=False,
        help="ask the model even where the shared response cache (`cache stats` says where) "
        "has the answer, and keep nothing there (VERIFY_CACHE=false)",
    )


def add_output_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--output",
        type=path_argument,
        dest="results_dir",
        metavar="DIR",
        help="results directory (VERIFY_RESULTS_DIR; default: verification_results)",
    )


def add_ci_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("CI outputs")
    group.add_argument(
        "--junit-xml",
        type=path_argument,
        metavar="PATH",
        help="also write JUnit XML: a testsuite per model, a testcase per scaffold that "
        "fails as its status does (PARTIAL, FAILED or a significant regression; INCOMPLETE "
        "is an error), its cases as properties and system-out. (When GITHUB_STEP_SUMMARY "
        "is set, the summary table is appended to that file too.)",
    )
    group.add_argument(
        "--junit-cases",
        type=path_argument,
        metavar="PATH",
        help="also write each case's result as JUnit XML in a second file: a testsuite per "
        "model and scaffold, a testcase per case that fails as the case did (an error for "
        "an infrastructure error, skipped when it was not asked), for CI tools that show "
        "test cases; --junit-xml's file stays one test case per scaffold",
    )
    group.add_argument(
        "--export",
        action="append",
        type=export_argument,
        metavar="FILE",
        help="also write the run's results to FILE, in the format its extension names: "
        ".json the summary, .jsonl the journal, .md, .html the page, .xml JUnit "
        "(repeatable; with several models, one file per model: out.json -> "
        "out.<model>.json)",
    )
    group.add_argument(
        "--json",
        action="store_true",
        help="print the run's summary.json on standard output (the lines for people go "
        "to standard error)",
    )
    group.add_argument(
        "--fail-on-regression",
        action="store_true",
        help="exit 5 when a scaffold regressed against the previous comparable run (same "
        "provider, model, level, cases, samples, seed (or private seed hash), sizes, "
        "thinking budget, variant and answer mode, answered mostly live): a drop significant "
        "on the shared cases (one-sided exact McNemar on case scores, Holm within Tarone's "
        "family, 5%% over all scaffolds); a status change within the noise is not one",
    )


def common_options() -> Parser:
    """Options every command takes, before or after its name (``verify NAME -v``)."""
    common = Parser(add_help=False)
    common.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        default=argparse.SUPPRESS,  # so a subcommand's default never undoes a -v given before it
        help="log retries, settings warnings and progress",
    )
    return common
