"""The command line: parse, build settings, call the library, map errors to exit codes."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Awaitable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from verification.cases import TIERS, Tier
from verification.errors import FatalLLMError, VerificationError

if TYPE_CHECKING:
    from rich.console import Console

    from verification.config import VerificationSettings
    from verification.runner import RunResult, VerificationRunner
    from verification.shards import Shard

__all__ = ["EXIT_CODES", "VerificationCLI", "build_parser", "main"]

EXIT_CODES = {
    0: "every scaffold CERTIFIED",
    1: "some scaffold PARTIAL or FAILED",
    2: "usage or configuration error (bad option, setting, scaffold name or file; no key; "
    "a spec that cannot draw a case of its declared sizes; a run in use by another process; "
    "a results folder that cannot be written)",
    3: "some scaffold INCOMPLETE (infrastructure errors or nothing counted)",
    4: "internal error: a bug in the harness (please report it with the traceback)",
    5: "a regression against the previous comparable run, with --fail-on-regression (a "
    "lower status or a significant drop on shared cases; before 1 and 3)",
    130: "interrupted by Ctrl-C (resume with --resume RUN_ID)",
    143: "terminated by SIGTERM (resume with --resume RUN_ID)",
}
_EPILOG = "exit codes:\n" + "\n".join(f"  {code:<4} {text}" for code, text in EXIT_CODES.items())
logger = logging.getLogger("verification")
T = TypeVar("T")


_DEFAULT_PAGE = Path("\x00default")
"""``compare --html`` with no path: the page goes to its place under the results folder
(no path a user gives can hold a NUL)."""


def _path(text: str) -> Path:
    """A path option; an empty one would silently mean the current folder."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty")
    if "\x00" in text:
        raise argparse.ArgumentTypeError("holds a NUL byte, which no path can")
    return Path(text)


class _Parser(argparse.ArgumentParser):
    command_name: str | None = None
    """The subcommand this parser reads (None: the top level)."""
    commands: dict[str, _Parser] | None = None
    """The top level's subcommand parsers, by name."""

    def error(self, message: str) -> NoReturn:  # usage errors exit 2, as configuration does
        from verification.usage_errors import plain_usage_error

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


def _positive(text: str) -> int:
    """A whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _size_list(text: str) -> list[int]:
    """``4,8,12``: sizes of at least 0."""
    try:
        sizes = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of whole numbers: {text!r}") from None
    if not sizes or min(sizes) < 0:
        raise argparse.ArgumentTypeError(f"give sizes of 0 or more, as 4,8,12: {text!r}")
    return sizes


def _shard(text: str) -> Any:
    """``I/N``: the I-th of N slices of the plan."""
    from verification.errors import ConfigurationError
    from verification.shards import parse_shard

    try:
        return parse_shard(text)
    except ConfigurationError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _size_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--size",
        type=_positive,
        metavar="N",
        help="generate every case at size N (vertices, items, text length, ...: `list` shows "
        "each scaffold's unit and range); default: each tier's own size",
    )


def _run_options(parser: argparse.ArgumentParser) -> None:
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
        "asked the same cases, each in a run of its own, and the summary shows a model x "
        "scaffold table (VERIFY_MODEL=A,B)",
    )
    group.add_argument(
        "--mode",
        choices=["dev", "cert"],
        dest="current_mode",
        help="dev uses VERIFY_DEV_MODEL and the standard level; cert uses VERIFY_CERT_MODEL, "
        "the thorough level and the private seed VERIFY_CERT_SEED when it is set",
    )
    group.add_argument(
        "--level",
        choices=["quick", "standard", "thorough"],
        help="quick: a smoke test of the simple tier, 5 cases, certifies nothing (exit code "
        "reflects only errors); standard: every tier, 40 cases (dev default); thorough: every "
        "tier, 100 cases plus a sweep of each scaffold's size range (cert default)",
    )
    group.add_argument(
        "--cases",
        type=int,
        metavar="N",
        help="cases per scaffold, split over tiers; default: the level's (5, 40, 100)",
    )
    group.add_argument(
        "--sizes",
        type=_size_list,
        metavar="N,N,...",
        help="sweep these sizes (35 cases at each, tiers interleaved) on top of the level's "
        "cases, at any level; the report shows pass rate against size and the largest size "
        "that certifies",
    )
    group.add_argument("--samples", type=int, metavar="N", help="answers asked per case (1)")
    group.add_argument(
        "--concurrency",
        type=int,
        metavar="N",
        help="requests in flight at the start (4); cut on 429, grown back slowly on success",
    )
    group.add_argument("--seed", type=int, metavar="N", help="suite seed: same seed, same cases")
    group.add_argument(
        "--temperature", type=float, metavar="T", help="sampling temperature (unset: not sent)"
    )
    group.add_argument(
        "--thinking-budget",
        type=int,
        metavar="N",
        help="extended thinking with N tokens (1024 or more) to think before answering, on "
        "models that support it (refused, exit 2, on others and on the openai provider); "
        "each request asks for N plus the scaffold's output budget and sends no "
        "temperature. Recorded in the manifest: runs are compared only with runs of the "
        "same budget",
    )
    group.add_argument(
        "--repair-attempts",
        type=int,
        metavar="N",
        help="attempts per answer when it fails to parse, 1 to 3 (1: no repair)",
    )
    group.add_argument(
        "--output",
        type=_path,
        dest="results_dir",
        metavar="DIR",
        help="results directory (verification_results)",
    )
    group.add_argument(
        "--scaffolds-dir", type=_path, metavar="DIR", help="where <category>/<name>.md live"
    )
    group.add_argument(
        "--replay-file", type=_path, metavar="FILE", help="JSONL responses for --provider replay"
    )
    group.add_argument(
        "--max-cost",
        type=float,
        metavar="USD",
        help="budget in US dollars: no case starts once what it could cost (the worst case "
        "of those in flight counted) would pass it; those in flight finish, the report says "
        "the run stopped, and --resume RUN_ID with a larger budget goes on. Needs the model's "
        "price (built-in table, or VERIFY_PRICES)",
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
        "--early-stop",
        action="store_const",
        const=True,
        help="ask each scaffold's cases in at most 5 planned looks (tiers interleaved, the "
        "first at the level's minimum n: 20 standard, 50 thorough) and stop asking once a "
        "look's interval, widened for the looks (Bonferroni), lies on one side of the "
        "thresholds that decide the status; the report says where. Not with --sizes, the "
        "thorough level's size sweep or --shard",
    )
    group.add_argument(
        "--no-cache",
        dest="cache",
        action="store_const",
        const=False,
        help="ask the model even where the shared response cache (`cache stats` says where) "
        "has the answer, and keep nothing there (VERIFY_CACHE=false)",
    )


def _output_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--output", type=_path, dest="results_dir", metavar="DIR", help="results directory"
    )


def _ci_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("CI outputs")
    group.add_argument(
        "--junit-xml",
        type=_path,
        metavar="PATH",
        help="also write JUnit XML: one testcase per case (first sample), classname the "
        "scaffold, name the case id; wrong answers are failures with level and reason, "
        "infrastructure errors are errors. (When GITHUB_STEP_SUMMARY is set, the summary "
        "table is appended to that file too.)",
    )
    group.add_argument(
        "--fail-on-regression",
        action="store_true",
        help="exit 5 when a scaffold regressed against the previous comparable run (same "
        "provider, model, level, seed and sizes, answered mostly live): a lower status, or "
        "a pass-rate drop significant on the shared cases (exact McNemar, Holm-corrected)",
    )


def _common() -> _Parser:
    """Options every command takes, before or after its name (``verify NAME -v``)."""
    common = _Parser(add_help=False)
    common.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        default=argparse.SUPPRESS,  # so a subcommand's default never undoes a -v given before it
        help="log retries, settings warnings and progress",
    )
    return common


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    """The argument parser (also documents every command in --help); ``prog`` is how the
    user called us (``python -m verification`` or ``verify-scaffolds``)."""
    from verification import __version__

    common = _common()
    parser = _Parser(
        prog=prog or Path(sys.argv[0]).name or "verify-scaffolds",
        parents=[common],
        description="Certify algorithm scaffolds: prompt a model with each scaffold, check its "
        "answers against reference implementations, and write Markdown reports.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_Parser
    )

    def command(name: str, **options: Any) -> argparse.ArgumentParser:
        parser = commands.add_parser(name, parents=[common], **options)
        parser.command_name = name
        return parser

    parser.commands = commands.choices

    listing = command("list", help="list the scaffolds the catalog declares")
    listing.add_argument("--category", metavar="CATEGORY", help="only this category")
    listing.add_argument(
        "--markdown",
        action="store_true",
        help="print the catalog as the Markdown of docs/CATALOG.md (answer shapes, sizes, "
        "validators, tolerances)",
    )
    listing.add_argument(
        "--json",
        action="store_true",
        help="print the scaffolds as a JSON array (name, category, title, description, "
        "validator, size unit and each tier's range, output budget) and the skipped plugins",
    )

    check = command(
        "check",
        help="run the generic checks on scaffolds (plugins included), no model asked",
        description="For each scaffold: its file and sections, the worked example against the "
        "reference, the Output Format example, every tier's cases against the schema and the "
        "validator, the calibration hooks (every mutant rejected, every alternative accepted), "
        "the size axis, the dry-run answer parsing back, and suites identical under two hash "
        "seeds. Exits 0 when every check passes, 1 otherwise.",
    )
    check.add_argument("names", nargs="*", metavar="NAME", help="scaffold names")
    check.add_argument("--category", metavar="CATEGORY", help="every scaffold of a category")
    check.add_argument("--all", action="store_true", dest="everything", help="every scaffold")
    check.add_argument(
        "--json",
        action="store_true",
        help="print one JSON document: the scaffolds checked, the number of failed checks "
        "and each check's scaffold, name, ok and detail",
    )
    check.add_argument(
        "--cases", type=_positive, metavar="N", help="calibration cases per tier (50)"
    )
    check.add_argument(
        "--scaffolds-dir", type=_path, metavar="DIR", help="where <category>/<name>.md live"
    )

    verify = command(
        "verify",
        help="certify scaffolds",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Generate cases, ask the model, validate, and write reports to "
        "<output>/runs/<run-id>/reports (copied to <output>/reports).",
    )
    verify.add_argument("names", nargs="*", metavar="NAME", help="scaffold names")
    verify.add_argument("--category", metavar="CATEGORY", help="every scaffold of a category")
    verify.add_argument("--all", action="store_true", dest="everything", help="every scaffold")
    verify.add_argument(
        "--scaffold-file",
        type=_path,
        metavar="FILE",
        help="certify this draft file against NAME's spec (one NAME)",
    )
    verify.add_argument(
        "--baseline",
        nargs="?",
        const="current",
        choices=["current", "none"],
        help="make two linked runs on the same cases and print their paired comparison "
        "(exact McNemar on the cases only one run passed): with --scaffold-file, the "
        "current scaffold (A) against the draft (B); '--baseline none': no scaffold, only "
        "the task (its When to Use section) and its Output Format (A), against the "
        "scaffold or draft (B). Each run has its own id; a repeat is answered from the "
        "response cache",
    )
    verify.add_argument(
        "--tier",
        action="append",
        choices=["simple", "standard", "edge"],
        help="only these tiers (repeatable); --tier simple is a quick check",
    )
    verify.add_argument(
        "--case",
        action="append",
        dest="case_ids",
        metavar="ID",
        help="only this case, e.g. dijkstra-standard-004 (repeatable)",
    )
    verify.add_argument(
        "--resume",
        metavar="RUN_ID",
        help="finish an interrupted run: skip answered cases, retry infra errors. The run's "
        "provider, model, mode, level, cases, samples, seed, temperature, replay file and "
        "scaffolds come from its manifest; an option given here that differs is refused",
    )
    verify.add_argument(
        "--estimate",
        action="store_true",
        help="print the planned requests, estimated tokens and the most they could cost "
        "(output at each spec's output budget); send nothing",
    )
    verify.add_argument(
        "--shard",
        type=_shard,
        metavar="I/N",
        help="ask only the I-th of N disjoint slices of the planned cases (balanced across "
        "scaffolds, tiers and sizes; the same on every machine): an ordinary run with its "
        "own id, never published to <output>/reports nor a baseline for history; `merge` "
        "makes one run of the N shards",
    )
    verify.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        help="show a progress bar on standard error (default: when standard error is a "
        "terminal, whatever standard output is; with -v and no terminal, progress lines in "
        "the log)",
    )
    _size_option(verify)
    _run_options(verify)
    _ci_options(verify)

    show = command(
        "show-prompt",
        help="print the prompt of one case",
        description="Print what the model is sent for one case: the scaffold (system prompt) "
        "and the user prompt with the case's input. No model is asked.",
    )
    show.add_argument("name", metavar="NAME", help="the scaffold")
    show.add_argument(
        "--case",
        dest="case_id",
        metavar="ID",
        help="case id, e.g. dijkstra-simple-000 (or dijkstra-simple-s12-000 at size 12); "
        "default: the first standard case, NAME-standard-000 (named on standard error)",
    )
    _size_option(show)
    show.add_argument(
        "--part",
        choices=["both", "system", "user"],
        default="both",
        help="which part to print: the system prompt (the scaffold), the user prompt (the "
        "input), or both with headers (default)",
    )
    show.add_argument(
        "--scaffold-file", type=_path, metavar="FILE", help="use this draft scaffold file"
    )
    show.add_argument(
        "--seed", type=int, metavar="N", help="suite seed the case is drawn with (VERIFY_SEED)"
    )
    show.add_argument(
        "--scaffolds-dir",
        type=_path,
        metavar="DIR",
        help="where <category>/<name>.md live (VERIFY_SCAFFOLDS_DIR)",
    )

    report = command(
        "report",
        help="re-render a run's reports from its journal",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    report.add_argument(
        "run_id",
        metavar="RUN_ID",
        nargs="?",
        help="a run under <output>/runs, or a run's folder as verify prints it "
        "(<output>/runs/RUN_ID, its reports folder or summary.md); default: the latest",
    )
    _output_option(report)

    view = command(
        "view",
        help="open a run's HTML page (reports/index.html) in the browser",
        description="Open the run's self-contained page (every case with its input, "
        "expected and parsed answer, raw reply, filters and links) in the default browser "
        "(the BROWSER variable chooses another); its path is printed either way, so with "
        "no browser open the file by hand or copy it.",
    )
    view.add_argument(
        "run_id",
        metavar="RUN_ID",
        nargs="?",
        help="a run under <output>/runs, or a run's folder as verify prints it; default: "
        "the latest",
    )
    _output_option(view)

    cache = command(
        "cache",
        help="show, clear or prune the response cache shared by your runs",
        description="The response cache keeps every complete answer a model gave, keyed by "
        "provider, base URL, model and the whole request (scaffold text, input, output "
        "budget, temperature, thinking budget, sample): a repeated run, whatever its "
        "--output, is answered from it with no network call. It lives in your cache folder "
        "(VERIFY_CACHE_DIR; by default $XDG_CACHE_HOME/scaffold-verification, i.e. "
        "~/.cache/scaffold-verification on Linux, ~/Library/Caches/scaffold-verification on "
        "macOS, %LOCALAPPDATA%\\scaffold-verification on Windows). VERIFY_CACHE_MAX_MB caps "
        "its size, evicting the least recently used answers. Errors, refusals and cut-off "
        "replies are not kept; dry runs are never cached; no API key or URL credential is "
        "written. `verify --no-cache` (VERIFY_CACHE=false) bypasses it.",
    )
    cache.add_argument(
        "action",
        metavar="ACTION",
        choices=["stats", "clear", "prune"],
        help="stats: where it is, answers kept, times served again and size on disk, by "
        "provider, server and model; clear: remove every answer (a damaged cache file "
        "altogether); prune: remove the answers not used for --older-than DAYS days, and "
        "trim to VERIFY_CACHE_MAX_MB",
    )
    cache.add_argument(
        "--older-than",
        type=_positive,
        metavar="DAYS",
        help="with prune: remove answers neither kept nor served in the last DAYS days",
    )
    cache.add_argument(
        "--output",
        type=_path,
        dest="cache_folder",
        metavar="DIR",
        help="act on the cache.sqlite3 that versions before the shared cache kept in the "
        "results folder DIR, instead of the shared cache",
    )

    history = command(
        "history",
        help="list recent runs with each scaffold's status and rate",
        description="Read every run under <output>/runs (no index: each run's manifest and "
        "summary.json), newest first: id, time, model, provider, level, seed, code version, "
        "and each scaffold's status and pass rate. A damaged run folder is skipped with a "
        "warning naming it.",
    )
    history.add_argument("--model", metavar="MODEL", help="only runs that asked this model")
    history.add_argument(
        "--scaffold", metavar="NAME", help="only runs of this scaffold, and only its line"
    )
    history.add_argument(
        "--limit", type=_positive, default=20, metavar="N", help="the newest N runs (20)"
    )
    history.add_argument("--json", action="store_true", help="print the runs as JSON")
    _output_option(history)

    compare = command(
        "compare",
        help="paired comparison of two runs on the cases both answered",
        description="Per scaffold both runs hold, on the cases both answered (first sample "
        "of each): the cases only RUN_A passed, the cases only RUN_B passed, an exact "
        "McNemar test on that split (Holm-corrected across the scaffolds) and a verdict. "
        "Fewer than 6 discordant cases can never be significant: the verdict says so.",
    )
    compare.add_argument("run_a", metavar="RUN_A", help="a run under <output>/runs")
    compare.add_argument("run_b", metavar="RUN_B", help="another run under <output>/runs")
    compare.add_argument(
        "--html",
        type=_path,
        nargs="?",
        const=_DEFAULT_PAGE,
        metavar="PATH",
        help="also write the comparison as a page (every shared case, the discordant ones "
        "first, both answers side by side) to PATH, by default "
        "<output>/comparisons/<RUN_A>-vs-<RUN_B>/index.html; its path is printed",
    )
    _output_option(compare)

    merge = command(
        "merge",
        help="make one run of the shards of a plan (verify --shard I/N)",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Read each shard's run folder (manifest.json and results.jsonl, e.g. "
        "downloaded from CI jobs), check that they are all N shards of one plan, and write "
        "one run under <output>/runs with the reports, statuses and intervals of the "
        "unsharded run; exit codes as verify's. Shards of different plans, a shard given "
        "twice and missing shards are refused (exit 2), naming which.",
    )
    merge.add_argument(
        "run_dirs", nargs="+", type=_path, metavar="RUN_DIR", help="a shard's run folder"
    )
    _output_option(merge)
    _ci_options(merge)

    prune = command(
        "prune",
        help="remove old runs' raw replies, keeping what history and compare need",
        description="For every run but the newest N: rewrite its journal without the raw "
        "model replies (outcomes, parsed answers, reply lengths and hashes stay, so "
        "history, compare and report still work) and delete its scaffold reports, which "
        "quote replies (summary.md and summary.json stay). A run in use is left alone.",
    )
    prune.add_argument(
        "--keep", type=_positive, required=True, metavar="N", help="newest runs kept whole"
    )
    _output_option(prune)
    return parser


_SETTING_OPTIONS = (
    "provider",
    "model",
    "current_mode",
    "level",
    "cases",
    "sizes",
    "samples",
    "concurrency",
    "seed",
    "temperature",
    "thinking_budget",
    "repair_attempts",
    "results_dir",
    "scaffolds_dir",
    "replay_file",
    "cache",
    "max_cost",
    "early_stop",
    "batch",
)


def _settings(args: argparse.Namespace) -> VerificationSettings:
    from verification.config import load_settings

    given: dict[str, Any] = {name: getattr(args, name, None) for name in _SETTING_OPTIONS}
    settings = load_settings(**given)
    # What verify refuses beside --resume, it refuses with its own reason.
    refused = len(given.get("model") or ()) > 1 or any(
        getattr(args, option, None) not in (None, False)
        for option in ("baseline", "shard", "estimate")
    )
    if getattr(args, "resume", None) is None or refused:
        return settings
    from verification.journal import RunPaths
    from verification.resume_options import settings_of_run

    # The run's own provider, model, level, cases...: --resume RUN_ID alone goes on with it.
    manifest = RunPaths(settings.results_dir, args.resume).read_manifest()
    return load_settings(warn=False, **settings_of_run(manifest, given))


def _regression_exit(summary: Path, code: int) -> int:
    """5 when the run's ``summary.json`` (beside ``summary``) names a regression, else
    ``code``."""
    from verification.reports.summary import RunSummary

    regressions = RunSummary.from_json(summary.with_suffix(".json").read_bytes()).regressions
    if regressions:
        print(f"regression against the previous comparable run: {', '.join(regressions)}")
        return 5
    return code


def _exit_code(statuses: Sequence[str], level: str | None = None) -> int:
    """The exit code of a run's statuses; at the quick level (which certifies nothing) only
    errors (INCOMPLETE) count."""
    if "INCOMPLETE" in statuses:
        return 3
    if level == "quick":
        return 0
    return 0 if all(status == "CERTIFIED" for status in statuses) else 1


class VerificationCLI:
    """The commands, callable from Python too."""

    def __init__(
        self,
        settings: VerificationSettings | None = None,
        *,
        prog: str = "verify-scaffolds",
        progress: bool | None = None,
    ) -> None:
        self._settings = settings
        self.progress = progress
        """Show progress (True), never (False), or when standard error is a terminal."""
        self.prog = prog
        """How the user calls us, for the commands a message suggests."""

    @property
    def settings(self) -> VerificationSettings:
        if self._settings is None:
            from verification.config import load_settings

            self._settings = load_settings()
        return self._settings

    def list_scaffolds(
        self, category: str | None = None, *, markdown: bool = False, as_json: bool = False
    ) -> int:
        from verification.catalog import default_catalog

        catalog = default_catalog()
        if markdown:
            from verification.catalog_docs import catalog_markdown

            print(catalog_markdown(catalog), end="")
            return 0
        names = catalog.by_category(category) if category else list(catalog)
        if as_json:
            from verification.catalog_docs import catalog_json

            print(catalog_json(catalog, names))
            return 0
        rows = [("NAME", "CATEGORY", "VALIDATOR", "SIZE", "DESCRIPTION")]
        for name in names:
            spec = catalog[name]
            low, high = spec.size.ranges["standard"]
            size = f"{spec.size.unit} {low}-{high}"
            description = spec.description or spec.title
            rows.append((name, spec.category, spec.validator.kind, size, description))
        # Each column as wide as its widest entry, so every row lines up.
        widths = [max(len(row[column]) for row in rows) for column in range(4)]
        for row in rows:
            print("  ".join([*(f"{c:<{w}}" for c, w in zip(row, widths, strict=False)), row[4]]))
        for skipped in catalog.skipped.values():
            print(f"skipped plugin {skipped.name} ({skipped.distribution}): {skipped.reason}")
        return 0

    def check(
        self,
        names: Sequence[str] = (),
        *,
        category: str | None = None,
        everything: bool = False,
        cases: int | None = None,
        as_json: bool = False,
    ) -> int:
        from verification.checks import CASES_PER_TIER, check_scaffold
        from verification.registry import resolve_scaffold_names

        failed = 0
        found = []
        chosen = resolve_scaffold_names(names, category=category, everything=everything)
        for name in chosen:
            for result in check_scaffold(
                name,
                scaffolds_dir=self.settings.scaffolds_dir,
                cases_per_tier=cases or CASES_PER_TIER,
            ):
                failed += not result.ok
                if as_json:
                    found.append(
                        {"scaffold": name, "check": result.check, "ok": result.ok}
                        | {"warning": result.warning, "detail": result.detail}
                    )
                else:
                    mark = "FAIL" if not result.ok else "WARN" if result.warning else "ok  "
                    print(f"{mark} {name}: {result.check}: {result.detail}")
        if as_json:
            import json

            document = {"scaffolds": chosen, "failed": failed, "checks": found}
            print(json.dumps(document, indent=2, ensure_ascii=False))
        else:
            print("all checks passed" if not failed else f"{failed} check(s) failed")
        return 0 if not failed else 1

    def verify(
        self,
        names: Sequence[str] = (),
        *,
        category: str | None = None,
        everything: bool = False,
        scaffold_file: Path | None = None,
        tiers: Sequence[str] | None = None,
        case_ids: Sequence[str] = (),
        resume: str | None = None,
        size: int | None = None,
        estimate: bool = False,
        junit_xml: Path | None = None,
        fail_on_regression: bool = False,
        baseline: str | None = None,
        shard: Shard | None = None,
    ) -> int:
        from verification.errors import ConfigurationError, JournalError
        from verification.registry import resolve_scaffold_names
        from verification.runner import VerificationRunner

        chosen = list(names)
        if case_ids and tiers:
            raise ConfigurationError("--case names exact cases: leave out --tier")
        if resume and size is not None:
            raise ConfigurationError("--resume answers the run's own cases: leave out --size")
        if shard is not None and (resume or baseline is not None):
            raise ConfigurationError(
                "--shard slices a new run: leave out --resume (a shard resumes its own "
                "cases) and --baseline"
            )
        if case_ids and not (chosen or category or everything):
            chosen = list(dict.fromkeys(case_id.split("-")[0] for case_id in case_ids))
        if resume and not (chosen or category or everything):
            scaffolds: list[str] = []  # the run's manifest says which
        else:
            scaffolds = resolve_scaffold_names(chosen, category=category, everything=everything)
        overrides: dict[str, Path] = {}
        if scaffold_file is not None:
            if len(scaffolds) != 1:
                raise ConfigurationError("--scaffold-file certifies one draft: name one scaffold")
            overrides[scaffolds[0]] = scaffold_file
        chosen_tiers = [t for t in TIERS if t in tiers] if tiers else list(TIERS)
        several = len(self.settings.model_names) > 1
        if several:
            from verification.multimodel import check_several_models

            check_several_models(
                self.settings,
                resume=bool(resume),
                baseline=baseline is not None,
                shard=shard is not None,
            )
        if estimate:
            from verification.estimate import estimate_run, format_estimate
            from verification.llm.prompt_builder import PromptBuilder

            if resume:
                raise ConfigurationError("--estimate plans a new run: leave out --resume")
            if shard is not None:
                raise ConfigurationError("--estimate prices the whole plan: leave out --shard")
            builder = PromptBuilder(self.settings.scaffolds_dir, overrides=overrides)
            for model in self.settings.model_names:
                estimates, model = estimate_run(
                    self.settings.for_model(model),
                    scaffolds,
                    tiers=chosen_tiers,
                    case_ids=case_ids,
                    size=size,
                    prompt_builder=builder,
                )
                print(format_estimate(estimates, model, batch=self.settings.batch))
            return 0
        if baseline is not None:
            if resume or estimate:
                raise ConfigurationError("--baseline makes two new runs: leave out --resume")
            return self._verify_with_baseline(
                scaffolds, baseline, overrides, chosen_tiers, case_ids, size
            )
        if several:
            return self._verify_models(
                scaffolds,
                overrides,
                chosen_tiers,
                case_ids,
                size,
                junit_xml=junit_xml,
                fail_on_regression=fail_on_regression,
            )
        bar = _ProgressBar.on_terminal(self.progress)
        runner = VerificationRunner(
            self.settings,
            scaffold_overrides=overrides,
            progress=bar.advance if bar else None,
            planned=bar.start if bar else None,
        )
        try:
            import asyncio

            outcome = asyncio.run(
                _terminable(
                    runner.run(
                        scaffolds,
                        tiers=chosen_tiers,
                        case_ids=case_ids,
                        resume=resume,
                        size=size,
                        shard=shard,
                    )
                )
            )
        except (FatalLLMError, KeyboardInterrupt, JournalError) as exc:
            _say_how_to_resume(runner, self.prog, asked=isinstance(exc, KeyboardInterrupt))
            raise
        finally:
            if bar is not None:
                bar.close()
        return _finish_run(outcome, junit_xml=junit_xml, fail_on_regression=fail_on_regression)

    def _verify_models(
        self,
        scaffolds: Sequence[str],
        overrides: dict[str, Path],
        tiers: Sequence[Tier],
        case_ids: Sequence[str],
        size: int | None,
        *,
        junit_xml: Path | None,
        fail_on_regression: bool,
    ) -> int:
        """Every model asked the same cases, each in a run of its own; the exit code is the
        worst of theirs."""
        import asyncio

        from verification.errors import JournalError
        from verification.multimodel import ModelRuns, model_file
        from verification.printable import printable

        bar = _ProgressBar.on_terminal(self.progress)
        runs = ModelRuns(
            self.settings,
            scaffold_overrides=overrides,
            progress=bar.advance if bar else None,
            planned=bar.start if bar else None,
        )
        try:
            outcomes = asyncio.run(
                _terminable(runs.run(scaffolds, tiers=tiers, case_ids=case_ids, size=size))
            )
        except (FatalLLMError, KeyboardInterrupt, JournalError) as exc:
            for runner in runs.runners.values():
                _say_how_to_resume(runner, self.prog, asked=isinstance(exc, KeyboardInterrupt))
            raise
        finally:
            if bar is not None:
                bar.close()
        codes = []
        for model, outcome in zip(runs.models, outcomes, strict=True):
            print(f"model {printable(model, 100)}: run {outcome.run_id}")
            codes.append(
                _finish_run(
                    outcome,
                    junit_xml=model_file(junit_xml, model) if junit_xml else None,
                    fail_on_regression=fail_on_regression,
                )
            )
        return max(codes)  # the highest code is the worst: 5 regression, 3, 1, 0

    def merge(
        self,
        run_dirs: Sequence[Path],
        *,
        junit_xml: Path | None = None,
        fail_on_regression: bool = False,
    ) -> int:
        from verification.merge import merge_shards

        outcome = merge_shards(run_dirs, self.settings.results_dir)
        print(f"merged {len(run_dirs)} shard(s) into run {outcome.run_id}")
        return _finish_run(outcome, junit_xml=junit_xml, fail_on_regression=fail_on_regression)

    def _verify_with_baseline(
        self,
        scaffolds: Sequence[str],
        baseline: str,
        overrides: dict[str, Path],
        tiers: Sequence[Tier],
        case_ids: Sequence[str],
        size: int | None,
    ) -> int:
        import asyncio

        from verification.baseline import run_with_baseline
        from verification.reports.compare import render_pairing
        from verification.reports.generator import write_run_reports

        bar = _ProgressBar.on_terminal(self.progress)
        try:
            runs = asyncio.run(
                _terminable(
                    run_with_baseline(
                        self.settings,
                        scaffolds,
                        "none" if baseline == "none" else "current",
                        overrides=overrides,
                        tiers=tiers,
                        case_ids=case_ids,
                        size=size,
                        progress=bar.advance if bar else None,
                    )
                )
            )
        finally:
            if bar is not None:
                bar.close()
        write_run_reports(runs.a.paths, runs.a.manifest, runs.a.results, publish=False)
        summary = write_run_reports(runs.b.paths, runs.b.manifest, runs.b.results)
        _print_summary(runs.b.results.values(), runs.b.manifest.run_label, summary)
        print(render_pairing(runs.pairing, a=runs.a_label, b=runs.b_label), end="")
        return _exit_code([r.status for r in runs.b.results.values()], runs.b.manifest.level)

    def verify_category(self, category: str) -> int:
        return self.verify(category=category)

    def show_prompt(
        self,
        name: str,
        case_id: str | None = None,
        *,
        part: str = "both",
        scaffold_file: Path | None = None,
        size: int | None = None,
    ) -> int:
        from verification.cases import case_id as make_case_id
        from verification.cases import parse_case_id
        from verification.errors import ConfigurationError
        from verification.llm.prompt_builder import PromptBuilder
        from verification.runner import plan_cases

        if case_id is None:  # the first standard case, as a user trying a scaffold wants
            case_id = make_case_id(name, "standard", 0, size)
            print(
                f"showing case {case_id} (the first standard case; --case ID for another)",
                file=sys.stderr,
            )
        key = parse_case_id(case_id)
        if size is not None and key is not None:
            if key.size not in (None, size):
                raise ConfigurationError(f"case {case_id} names size {key.size}, not {size}")
            case_id = make_case_id(key.scaffold, key.tier, key.index, size)
        case = plan_cases([name], seed=self.settings.seed, cases=1, case_ids=[case_id])[name][0]
        overrides = {name: scaffold_file} if scaffold_file else {}
        builder = PromptBuilder(self.settings.scaffolds_dir, overrides=overrides)
        prompt = builder.build(name, case.input)
        from verification.llm.prompt_builder import USER_TEMPLATE_VERSION

        both = (
            f"===== system prompt: {builder.scaffold_path(name)} verbatim =====\n"
            f"{prompt.system.rstrip()}\n\n"
            f"===== user prompt: template {USER_TEMPLATE_VERSION}, case {case.id} =====\n"
            f"{prompt.user}"
        )
        text = {"system": prompt.system, "user": prompt.user, "both": both}[part]
        print(text)
        return 0

    def cache(
        self, action: str, *, folder: Path | None = None, older_than: int | None = None
    ) -> int:
        from verification.errors import ConfigurationError
        from verification.llm.cache import CACHE_FILE, ResponseCache, shared_cache

        if (action == "prune") != (older_than is not None):
            raise ConfigurationError(
                "cache prune needs --older-than DAYS"
                if action == "prune"
                else f"--older-than goes with cache prune, not cache {action}"
            )
        shared = cache = shared_cache(self.settings)
        if folder is not None and (folder / CACHE_FILE).absolute() != shared.path.absolute():
            cache = ResponseCache(folder / CACHE_FILE, max_bytes=shared.max_bytes)
            if not cache.path.exists() and not cache.path.is_symlink():
                print(f"{folder} holds no response cache; the shared one is {shared.path}")
                return 0
        if action == "clear":
            print(f"removed {cache.clear()} cached answers from {cache.path}")
        elif action == "prune":
            assert older_than is not None
            pruned, trimmed = cache.prune(older_than), cache.trim()
            print(
                f"removed {pruned} answer(s) unused for {older_than} day(s)"
                + (f" and {trimmed} beyond the size cap" if trimmed else "")
                + f" from {cache.path}"
            )
        else:
            print(cache.stats().render())
        return 0

    def history(
        self,
        *,
        model: str | None = None,
        scaffold: str | None = None,
        limit: int = 20,
        as_json: bool = False,
    ) -> int:
        from verification.reports.compare import render_history
        from verification.reports.history import as_json_lines, filter_entries, scan_runs

        entries = scan_runs(self.settings.results_dir)
        chosen = filter_entries(entries, model=model, scaffold=scaffold)[-limit:]
        print(as_json_lines(chosen) if as_json else render_history(chosen, scaffold), end="")
        return 0

    def compare(self, run_a: str, run_b: str, *, html: Path | None = None) -> int:
        from verification.reports.compare import compare_runs, render_pairing

        pairing = compare_runs(self.settings.results_dir, run_a, run_b)
        print(render_pairing(pairing), end="")
        if html is not None:
            from verification.reports.compare_html import (
                default_comparison_path,
                write_comparison_page,
            )

            if html == _DEFAULT_PAGE:
                html = default_comparison_path(self.settings.results_dir, pairing)
            print(f"page: {write_comparison_page(pairing, html)}")
        return 0

    def prune(self, keep: int) -> int:
        from verification.reports.history import prune_runs

        done = prune_runs(self.settings.results_dir, keep)
        for run_id, what in done:
            print(f"{run_id}: {what}")
        print(f"{len(done)} older run(s) pruned; the newest {keep} kept whole")
        return 0

    def view(self, run_id: str | None = None) -> int:
        """Open a run's page in the browser; print its path (all there is without one)."""
        import webbrowser

        from verification.reports.html import page_path

        results_dir = self.settings.results_dir
        if run_id is not None and _names_a_folder(run_id):  # as `report` takes it
            results_dir, run_id = _run_folder(Path(run_id))
        path = page_path(results_dir, run_id).resolve()
        print(path)
        try:
            opened = webbrowser.open(path.as_uri())
        except webbrowser.Error:  # no browser this module knows of
            opened = False
        if not opened:
            print("no browser to open it in: open the file above", file=sys.stderr)
        return 0

    def generate_reports(self, run_id: str | None = None) -> int:
        from verification.journal import RunPaths, latest_run_id, read_journal
        from verification.reports.generator import write_run_reports
        from verification.results import results_from_journal

        results_dir = self.settings.results_dir
        if run_id is not None and _names_a_folder(run_id):
            results_dir, run_id = _run_folder(Path(run_id))
        run_id = run_id or latest_run_id(results_dir)
        paths = RunPaths(results_dir, run_id)
        manifest = paths.read_manifest()
        results = results_from_journal(manifest, read_journal(paths.journal))
        # <output>/reports shows the latest run: re-rendering an older one leaves it alone.
        latest = latest_run_id(results_dir)
        summary = write_run_reports(paths, manifest, results, publish=run_id == latest)
        _print_summary(results.values(), manifest.run_label, summary, manifest.level)
        return _exit_code([r.status for r in results.values()], manifest.level)


def _names_a_folder(run: str) -> bool:
    """Whether ``report``'s argument is a path (the run folder ``verify`` prints) rather
    than a run id (which holds no separator and is no folder here)."""
    return os.sep in run or "/" in run or run in (".", "..") or Path(run).is_dir()


def _run_folder(folder: Path) -> tuple[Path, str]:
    """The results folder and run id of a run folder ``<output>/runs/<run-id>`` (or its
    ``reports`` folder, or a file in it, as ``verify`` prints ``.../reports/summary.md``)."""
    from verification.errors import ConfigurationError

    manifest = "manifest.json"
    for candidate in (folder, folder.parent, folder.parent.parent):
        if (candidate / manifest).is_file() and candidate.absolute().parent.name == "runs":
            run = candidate.absolute()
            return run.parent.parent, run.name
    raise ConfigurationError(
        f"{folder} is no run folder (<output>/runs/RUN_ID holding {manifest}): give a "
        "run id, or the run folder `verify` printed"
    )


class _ProgressBar:
    """A progress bar on a terminal (none when output is piped, so CI logs stay clean)."""

    def __init__(self, console: Console | None = None) -> None:
        """On ``console`` (default: rich's, on standard error)."""
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("elapsed"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        )
        self._progress.start()
        self._task = self._progress.add_task("answers", total=None)

    def start(self, total: int) -> None:
        """The number of cases to answer (repairs come on top, uncounted)."""
        self._progress.update(self._task, total=total)

    @classmethod
    def on_terminal(cls, shown: bool | None = None) -> Any:
        """A bar on standard error when it is a terminal (whatever standard output is:
        ``verify ... | tee log`` shows it) or ``shown``; else, with ``-v``, progress lines
        in the log; nothing when ``shown`` is False."""
        if shown is False:
            return None
        if shown or sys.stderr.isatty():
            from rich.console import Console

            return cls(Console(stderr=True, force_terminal=True if shown else None))
        if logger.isEnabledFor(logging.INFO):
            from verification.progress_log import ProgressLog

            return ProgressLog()
        return None

    def advance(self, record: Any) -> None:
        # One step per case answered: a repair attempt refines an answer already counted.
        step = 1 if record.attempt == 1 else 0
        self._progress.update(
            self._task, advance=step, description=f"{record.scaffold} {record.outcome}"
        )

    def close(self) -> None:
        self._progress.stop()


class Terminated(KeyboardInterrupt):
    """SIGTERM: stopped like Ctrl-C (the run marked interrupted, a resume hint), exit 143."""


async def _terminable(work: Awaitable[T]) -> T:
    """``await work``, with SIGTERM cancelling it as Ctrl-C does (where signals can be
    caught: not on Windows)."""
    import asyncio

    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    terminated = False

    def on_sigterm() -> None:
        nonlocal terminated
        terminated = True
        task.cancel()

    try:
        loop.add_signal_handler(signal.SIGTERM, on_sigterm)
    except (NotImplementedError, RuntimeError):  # Windows, or not the main thread
        return await work
    try:
        return await work
    except asyncio.CancelledError:
        if terminated:
            raise Terminated from None
        raise
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


def _say_how_to_resume(runner: VerificationRunner, prog: str, *, asked: bool = False) -> None:
    """Tell how to go on with a run that stopped (once its directory exists): ``asked``
    when the user stopped it (Ctrl-C, SIGTERM), which is no failure to fix."""
    if not runner.run_id:
        return
    from verification.resuming import resume_command

    asks_no_model = runner.provider is not None and runner.provider.dry_run
    command = resume_command(
        runner.run_id,
        runner.settings,
        prog=prog,
        model=None if asks_no_model else runner.model,
    )
    why = "stopped as asked" if asked else "stopped by the error below"
    then = "continue with" if asked else "after fixing the cause, continue with"
    print(
        f"run {runner.run_id}: {why}; its finished answers are kept in its journal; "
        f"{then}: {command}",
        file=sys.stderr,
    )


def _finish_run(outcome: RunResult, *, junit_xml: Path | None, fail_on_regression: bool) -> int:
    """Write a finished run's reports (and CI outputs), print its summary and cost, and
    return its exit code."""
    from verification.reports.ci import run_reporters
    from verification.reports.generator import write_run_reports

    reporters = run_reporters(
        junit_xml=junit_xml, step_summary=os.environ.get("GITHUB_STEP_SUMMARY")
    )
    summary = write_run_reports(
        outcome.paths,
        outcome.manifest,
        outcome.results,
        costs=outcome.costs,
        reporters=reporters,
    )
    _print_summary(
        outcome.results.values(), outcome.manifest.run_label, summary, outcome.manifest.level
    )
    _print_cost(outcome)
    if outcome.manifest.shard is not None:
        print(
            f"shard {outcome.manifest.shard.index}/{outcome.manifest.shard.count}: not "
            "published to <output>/reports; `merge` the shards' run folders for the run"
        )
    statuses = [r.status for r in outcome.results.values()]
    code = _exit_code(statuses, outcome.manifest.level)
    return _regression_exit(summary, code) if fail_on_regression else code


def _print_summary(
    results: Any, label: str | None, summary: Path, level: str | None = None
) -> None:
    if label:
        print(f"{label}: no model was asked; this run certifies no model.")
    if level == "quick":
        print("quick level: a smoke test; it certifies nothing and exits 0 unless errors.")
    for r in results:
        low, high = r.interval
        mark = " (borderline)" if r.borderline else ""
        print(
            f"{r.scaffold:<24} {r.status + mark:<24} {100 * r.pass_rate:5.1f}% "
            f"(n={r.n}, 95% CI {100 * low:.1f}-{100 * high:.1f}%, infra errors {r.infra_errors})"
        )
    print(f"report: {summary}")


def _print_cost(outcome: Any) -> None:
    from verification.costs import total_cost

    manifest = outcome.manifest
    if manifest.dry_run or manifest.cost_basis is None:
        return
    cost = total_cost(outcome.costs, manifest.cost_basis)
    usd = "unknown (no price: set VERIFY_PRICES)" if cost.usd is None else f"${cost.usd:.4f}"
    print(
        f"cost: {usd} for {cost.live_calls} live call(s); prompt cache: {cost.prompt_cache.detail}"
    )
    if manifest.stopped_by_budget:
        print(
            f"stopped at the --max-cost budget: continue with --resume {manifest.run_id} "
            "and a larger --max-cost",
            file=sys.stderr,
        )


def _escape_what_stdout_cannot_encode() -> None:
    """A console that cannot encode a character (of a scaffold, a reply, a model name)
    shows it as a backslash escape, as standard error already does: printing is never what
    fails a command."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if callable(reconfigure):
        with contextlib.suppress(ValueError, OSError):  # a stream that cannot be reconfigured
            reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None, *, prog: str | None = None) -> int:
    """Entry point of ``python -m verification`` and ``verify-scaffolds``."""
    from verification.closed_pipe import quiet_when_stdout_closes

    with quiet_when_stdout_closes():  # `list | head -1` ends with list's own exit code
        return _main(argv, prog)


def _main(argv: Sequence[str] | None, prog: str | None) -> int:
    _escape_what_stdout_cannot_encode()
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if getattr(args, "verbose", False) else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    for noisy in ("httpx", "httpx2", "httpcore", "anthropic", "openai"):
        # Their request logs print full URLs, which may carry credentials.
        logging.getLogger(noisy).setLevel(logging.WARNING)
    try:
        if args.command == "list":  # reads no setting: a cold start without pydantic-settings
            return VerificationCLI().list_scaffolds(
                args.category, markdown=args.markdown, as_json=args.json
            )
        from verification.config import redact_log_records, secrets_of

        settings = _settings(args)
        redact_log_records(secrets_of(settings))
        cli = VerificationCLI(settings, prog=parser.prog, progress=getattr(args, "progress", None))
        if args.command == "check":
            from verification.plugins import watching_sigint

            with watching_sigint():  # a plugin's own KeyboardInterrupt is no Ctrl-C
                return cli.check(
                    args.names,
                    category=args.category,
                    everything=args.everything,
                    cases=args.cases,
                    as_json=args.json,
                )
        if args.command in ("verify", "merge"):
            from verification.reports.ci import check_ci_outputs

            check_ci_outputs(args.junit_xml, os.environ.get("GITHUB_STEP_SUMMARY"))
        if args.command == "verify":
            return cli.verify(
                args.names,
                category=args.category,
                everything=args.everything,
                scaffold_file=args.scaffold_file,
                tiers=args.tier,
                case_ids=args.case_ids or (),
                resume=args.resume,
                size=args.size,
                estimate=args.estimate,
                junit_xml=args.junit_xml,
                fail_on_regression=args.fail_on_regression,
                baseline=args.baseline,
                shard=args.shard,
            )
        if args.command == "show-prompt":
            from verification.plugins import watching_sigint

            with watching_sigint():  # a plugin's own KeyboardInterrupt is no Ctrl-C
                return cli.show_prompt(
                    args.name,
                    args.case_id,
                    part=args.part,
                    scaffold_file=args.scaffold_file,
                    size=args.size,
                )
        if args.command == "view":
            return cli.view(args.run_id)
        if args.command == "cache":
            return cli.cache(args.action, folder=args.cache_folder, older_than=args.older_than)
        if args.command == "history":
            return cli.history(
                model=args.model, scaffold=args.scaffold, limit=args.limit, as_json=args.json
            )
        if args.command == "compare":
            return cli.compare(args.run_a, args.run_b, html=args.html)
        if args.command == "prune":
            return cli.prune(args.keep)
        if args.command == "merge":
            return cli.merge(
                args.run_dirs,
                junit_xml=args.junit_xml,
                fail_on_regression=args.fail_on_regression,
            )
        return cli.generate_reports(args.run_id)
    except FatalLLMError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except VerificationError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except Terminated:
        print("terminated (SIGTERM): stopped as asked", file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        print("interrupted (Ctrl-C): stopped as asked", file=sys.stderr)
        return 130
    except OSError as exc:  # a results or scaffolds folder that cannot be used
        print(f"error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), file=sys.stderr)
        return 2
    except Exception:  # never exit 1 on a crash: CI would read it as a grade
        logger.exception("internal error")
        return 4
