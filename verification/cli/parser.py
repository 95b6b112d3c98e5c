"""The argument parser: every command and option, as ``--help`` documents them."""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from typing import Any

from verification.cli.arguments import (
    DEFAULT_PAGE,
    Parser,
    add_ci_options,
    add_output_option,
    add_run_options,
    add_size_option,
    common_options,
    integer,
    keyword_argument,
    path_argument,
    positive,
    shard_argument,
)
from verification.cli.exit_codes import EPILOG

__all__ = ["build_parser", "program_name", "shared_parser"]


class VersionAction(argparse.Action):
    """``--version``: the installed version, read only when asked (reading it loads
    ``importlib.metadata``, which every other command started without)."""

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        from verification import __version__

        print(f"{parser.prog} {__version__}")
        parser.exit()


class OnceAction(argparse.Action):
    """An option that may be given once: a second ``--shard`` silently replaced the first
    (hunt ii), where a run slices its cases by one of them."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        if getattr(namespace, self.dest, None) is not None:
            parser.error(f"{option_string} is given twice: give it once")
        setattr(namespace, self.dest, values)


def program_name(prog: str | None = None) -> str:
    """How the user called us: ``prog`` when given, else the name the process was started
    with (``verify-scaffolds`` when it has none)."""
    return prog or Path(sys.argv[0]).name or "verify-scaffolds"


def shared_parser(prog: str | None = None) -> argparse.ArgumentParser:
    """The parser of :func:`build_parser`, built once per process for each program name:
    building it is most of what parsing a command line costs (every option's help, and
    argparse's ``gettext`` on each), and nothing changes a parser once built (parsing
    reads it; defaults are immutable values; streams, the terminal's width and the
    environment are read when a message is printed, not when the parser is built)."""
    return _parser_named(program_name(prog))


@functools.lru_cache(maxsize=8)
def _parser_named(prog: str) -> argparse.ArgumentParser:
    return build_parser(prog)


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    """The argument parser (also documents every command in --help); ``prog`` is how the
    user called us (``python -m verification`` or ``verify-scaffolds``). A new parser each
    call; :func:`shared_parser` is the one ``main`` parses with."""
    common = common_options()
    parser = Parser(
        prog=program_name(prog),
        parents=[common],
        description="Certify algorithm scaffolds: prompt a model with each scaffold, check its "
        "answers against reference implementations, and write Markdown reports.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action=VersionAction, nargs=0, help="show the version and exit"
    )
    commands = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=Parser
    )

    def command(name: str, **options: Any) -> argparse.ArgumentParser:
        parser = commands.add_parser(name, parents=[common], **options)
        parser.command_name = name
        return parser

    parser.commands = commands.choices

    listing = command(
        "list",
        help="list the scaffolds the catalog declares",
        description="One row per scaffold. SIZE names the unit and which sizes each option "
        "accepts: --size, the sizes every tier honours (a run asks them all unless --tier "
        "narrows it; a case's own tier may honour more, as show-prompt --size takes); "
        "--sizes, the sizes the sweep's simple and standard tiers honour between them "
        "(stress sizes included, named when there are some). --json gives each tier's "
        "range under size.ranges and the two options' under size.options.",
    )
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
        help='print the catalog as one JSON object: "scaffolds", an array (name, category, '
        "title, description, validator, size: its unit, each tier's range, the stress "
        "range and what --size and --sizes accept; answer_schema, the answer's JSON Schema; "
        "tolerances; max_output_tokens), and "
        '"skipped", the plugins skipped',
    )

    check = command(
        "check",
        help="run the generic checks on scaffolds (plugins included), no model asked",
        description="For each scaffold: its file and sections, the worked example against the "
        "reference, the Output Format example, every tier's cases against the schema and the "
        "validator, the calibration hooks (every mutant rejected, every alternative accepted), "
        "the size axis, the dry-run answer parsing back, and suites identical when drawn again "
        "in the same process and under two hash seeds. Exits 0 when every check passes, 1 "
        "otherwise.",
    )
    check.add_argument("names", nargs="*", metavar="NAME", help="scaffold names")
    check.add_argument("--category", metavar="CATEGORY", help="every scaffold of a category")
    check.add_argument(
        "--all", action="store_true", dest="everything", help="every scaffold, alone"
    )
    check.add_argument(
        "--json",
        action="store_true",
        help="print one JSON document: the scaffolds checked, the number of failed checks "
        "and each check's scaffold, check, ok, warning and detail",
    )
    check.add_argument(
        "--cases", type=positive, metavar="N", help="calibration cases per tier (50)"
    )
    check.add_argument(
        "--scaffolds-dir", type=path_argument, metavar="DIR", help="where <category>/<name>.md live"
    )

    verify = command(
        "verify",
        help="certify scaffolds",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Generate cases, ask the model, validate, and write reports to "
        "<output>/runs/<run-id>/reports (copied to <output>/reports).",
    )
    verify.add_argument("names", nargs="*", metavar="NAME", help="scaffold names")
    verify.add_argument("--category", metavar="CATEGORY", help="every scaffold of a category")
    verify.add_argument(
        "--all", action="store_true", dest="everything", help="every scaffold, alone"
    )
    verify.add_argument(
        "--scaffold-file",
        type=path_argument,
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
        "the task (its title, When to Use and Conventions sections) and its Output Format (A), "
        "against the scaffold or draft (B). Each run has its own id; a repeat is answered from the "
        "response cache. Refused with --max-cost (each run would get the whole budget): "
        "--estimate --baseline prints what the pair costs at most",
    )
    verify.add_argument(
        "--tier",
        action="append",
        choices=["simple", "standard", "edge"],
        help="only these tiers of the level's cases, under the level's plan (repeatable; "
        "not beside --sizes or --envelope, whose sweep asks its own tiers); a run short of "
        "all three certifies nothing (UNCERTIFIED). A quick check: --level quick",
    )
    verify.add_argument(
        "--case",
        action="append",
        dest="case_ids",
        metavar="ID",
        help="only this case, e.g. dijkstra-standard-004 (repeatable)",
    )
    verify.add_argument(
        "-k",
        dest="keyword",
        type=keyword_argument,
        metavar="EXPR",
        help="only the cases whose id holds EXPR, with and, or, not and parentheses as "
        "pytest's -k: -k 'dijkstra and edge', -k 'not simple' (no NAME: every scaffold)",
    )
    verify.add_argument(
        "--rerun-failed",
        metavar="RUN_ID",
        help="a new run asking only the cases that failed or errored in run RUN_ID (its "
        "seed), of the run's provider, model and server unless the options or the "
        "environment name others (another model, provider or --scaffold-file); its "
        "manifest names RUN_ID (reruns)",
    )
    verify.add_argument(
        "--resume",
        metavar="RUN_ID",
        help="finish an interrupted run: skip answered cases, retry infra errors. The run's "
        "provider, model, base URL, mode, level, cases, sizes swept, samples, seed, "
        "temperature, repair attempts, replay file and scaffolds come from its manifest; an "
        "option given here "
        "that differs is refused (a base URL variable naming another server too), and so are "
        "--case, --tier, --size and -k",
    )
    verify.add_argument(
        "--estimate",
        action="store_true",
        help="print the planned requests, estimated tokens and the most they could cost "
        "(output at each spec's output budget); send nothing",
    )
    verify.add_argument(
        "--shard",
        type=shard_argument,
        action=OnceAction,
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
    add_size_option(verify)
    add_run_options(verify)
    add_ci_options(verify)

    plan = command(
        "plan",
        help="print a level's certification plan: its looks, risks and OC table",
        description="Print the certification plan a run follows: the looks at which it may "
        "stop, its two Wald tests, the risks it keeps (computed exactly) and its operating "
        "characteristic (the probability of each status, and the cases asked on average, at "
        "true pass rates 0.50 to 1.00). No model is asked.",
    )
    plan.add_argument(
        "--level",
        choices=["quick", "standard", "thorough"],
        help="the level whose plan to print (VERIFY_LEVEL; default: the mode's)",
    )
    plan.add_argument(
        "--cases", type=integer, metavar="N", help="the fixed plan of N cases (`verify --cases N`)"
    )
    plan.add_argument(
        "--samples", type=integer, metavar="K", help="answers per case (the OC is stated for 1)"
    )

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
    add_size_option(show, one_case=True)
    show.add_argument(
        "--part",
        choices=["both", "system", "user"],
        default="both",
        help="which part to print: the system prompt (the scaffold), the user prompt (the "
        "input), or both with headers (default)",
    )
    show.add_argument(
        "--scaffold-file", type=path_argument, metavar="FILE", help="use this draft scaffold file"
    )
    show.add_argument(
        "--baseline",
        choices=["none"],
        help="'--baseline none': the prompt verify --baseline none sends (the task part "
        "only: When to Use, Conventions and Output Format)",
    )
    show.add_argument(
        "--answer",
        choices=["trace", "code"],
        help="the prompt of a trace (default: one case's) or of a program (code mode: the "
        "scaffold and the generated Code Format; --case is then not needed)",
    )
    show.add_argument(
        "--seed", type=integer, metavar="N", help="suite seed the case is drawn with (VERIFY_SEED)"
    )
    show.add_argument(
        "--scaffolds-dir",
        type=path_argument,
        metavar="DIR",
        help="where <category>/<name>.md live (VERIFY_SCAFFOLDS_DIR)",
    )

    report = command(
        "report",
        help="re-render a run's reports from its journal",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Fold a run's journal again, no model asked (each scaffold's validator "
        "calibrated on the run's cases), write its reports, summary.json and page to "
        "<output>/runs/<run-id>/reports (copied to <output>/reports when it is the latest "
        "run), and print its summary; exit codes as verify's. A journal that answers cases "
        "the manifest never planned is refused (exit 2).",
    )
    report.add_argument(
        "run_id",
        metavar="RUN_ID",
        nargs="?",
        help="a run under <output>/runs, or a run's folder as verify prints it "
        "(<output>/runs/RUN_ID, its reports folder or summary.md); default: the latest",
    )
    add_output_option(report)

    view = command(
        "view",
        help="open the index of every run, or a run's HTML page, in the browser",
        description="With no run, write <output>/index.html and open it: one static page "
        "listing every run of the results folder, newest first (its status per scaffold, "
        "model, provider, level and start, links to each run's page and to the comparison "
        "pages of `compare --html`; a run folder that cannot be read is listed as broken). "
        "Each run writes it again too. With a run, open that run's self-contained page "
        "(every case with its input, expected and parsed answer, raw reply, filters and "
        "links). The default browser opens it (the BROWSER variable chooses another); its "
        "path is printed either way, so with no browser open the file by hand or copy it.",
    )
    view.add_argument(
        "run_id",
        metavar="RUN_ID",
        nargs="?",
        help="a run under <output>/runs, or a run's folder as verify prints it; default: "
        "the index of every run",
    )
    add_output_option(view)

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
        type=positive,
        metavar="DAYS",
        help="with prune: remove answers neither kept nor served in the last DAYS days",
    )
    cache.add_argument(
        "--cache-dir",
        type=path_argument,
        dest="cache_folder",
        metavar="DIR",
        help="act on the cache.sqlite3 in DIR instead of the shared cache: a folder "
        "VERIFY_CACHE_DIR named, or a results folder where a version before the shared "
        "cache kept one",
    )
    # --output names the results folder everywhere else, which no cache depends on: it is
    # refused with a word on --cache-dir (its name here before) rather than reinterpreted.
    cache.add_argument("--output", type=path_argument, dest="cache_output", help=argparse.SUPPRESS)

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
        "--limit", type=positive, default=20, metavar="N", help="the newest N runs (20)"
    )
    history.add_argument("--json", action="store_true", help="print the runs as JSON")
    add_output_option(history)

    compare = command(
        "compare",
        help="paired comparison of two runs on the cases both answered",
        description="Per scaffold both runs hold, on the cases both answered (case scores: "
        "every sample counts): the cases only RUN_A scored higher, those only RUN_B scored "
        "higher, an exact McNemar (sign) test on that split (Holm-corrected across the "
        "scaffolds), both runs' pass rates, their paired difference with its 95% interval "
        "and a verdict. Fewer than 6 discordant cases can never be significant: the "
        'verdict says so. No verdict ("not comparable", and why) where a run lost answers '
        "the other gave (infrastructure errors, cases left unanswered), is INCOMPLETE, or "
        "asked a selection of cases (the other's failures rerun, cases picked by name or "
        "tier): the shared cases then favour one run by what was left out.",
    )
    compare.add_argument(
        "run_a", metavar="RUN_A", help="a run under <output>/runs: its id or its folder"
    )
    compare.add_argument(
        "run_b", metavar="RUN_B", help="another run of that results folder: its id or folder"
    )
    compare.add_argument(
        "--html",
        type=path_argument,
        nargs="?",
        const=DEFAULT_PAGE,
        metavar="PATH",
        help="also write the comparison as a page (every shared case, the discordant ones "
        "first, both answers side by side) to PATH, by default "
        "<output>/comparisons/<RUN_A>-vs-<RUN_B>/index.html; its path is printed",
    )
    add_output_option(compare)

    merge = command(
        "merge",
        help="make one run of the shards of a plan (verify --shard I/N)",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Read each shard's run folder (manifest.json and results.jsonl, e.g. "
        "downloaded from CI jobs), check that they are all N shards of one plan, and write "
        "one run under <output>/runs with the reports, statuses and intervals of the "
        "unsharded run; exit codes as verify's. Shards of different plans, a shard given "
        "twice and missing shards are refused (exit 2), naming which.",
    )
    merge.add_argument(
        "run_dirs", nargs="+", type=path_argument, metavar="RUN_DIR", help="a shard's run folder"
    )
    add_output_option(merge)
    add_ci_options(merge)

    prune = command(
        "prune",
        help="remove old runs' raw replies, keeping what history and compare need",
        description="For every run but the newest N: rewrite its journal without the raw "
        "model replies (outcomes, parsed answers, reply lengths and hashes stay, so "
        "history, compare and report still work) and delete its scaffold reports and page, "
        "which quote replies (summary.md and summary.json stay), saying what that freed. "
        "With --delete-beyond M, every run but the newest M is deleted whole, so a results "
        "folder kept from night to night stops growing. A run in use, one whose folder is a "
        "symbolic link (an archive linked in, or another name for a run) and a folder whose "
        "manifest cannot be read are left alone, and the run <output>/reports shows is not "
        "deleted (its replies are pruned), each said with why.",
    )
    prune.add_argument(
        "--keep", type=positive, required=True, metavar="N", help="newest runs kept whole"
    )
    prune.add_argument(
        "--delete-beyond",
        type=positive,
        metavar="M",
        help="delete every run but the newest M (at least N) whole: history, compare and the "
        "regression gate's baselines then reach back M runs",
    )
    add_output_option(prune)
    return parser
