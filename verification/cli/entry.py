"""The entry point: parse, build settings, call the command, map errors to exit codes."""

from __future__ import annotations

import argparse
import atexit
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Sequence
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn

from verification.cli.commands import VerificationCLI
from verification.cli.exit_codes import INTERNAL_ERROR, INTERRUPTED
from verification.cli.parser import shared_parser
from verification.errors import ConfigurationError, Terminated, VerificationError

if TYPE_CHECKING:
    from verification.config import RunConfig

logger = logging.getLogger("verification")

__all__ = ["exit_with", "main", "run_command", "script", "settings_from_arguments"]


SETTING_OPTIONS = (
    "provider",
    "model",
    "current_mode",
    "level",
    "cases",
    "sizes",
    "envelope",
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
    "answer",
    "sandbox",
)


def settings_from_arguments(args: argparse.Namespace) -> RunConfig:
    """The settings the environment and the options give, resolved once into the run
    configuration every command is handed (a resumed run's own, from its manifest)."""
    from verification.config import load_settings, resolve_settings

    given: dict[str, Any] = {name: getattr(args, name, None) for name in SETTING_OPTIONS}
    settings = load_settings(**given)
    rerun = getattr(args, "rerun_failed", None)
    if rerun is not None:  # the failed cases' ids name cases of the run's own seed
        from verification.cli.rerun_options import settings_of_rerun
        from verification.run.selection import rerun_seed
        from verification.store.paths import RunPaths

        manifest = RunPaths(settings.results_dir, rerun).read_manifest()
        # The run's provider, model and server where nothing given names them: its
        # failures are asked again of the model that failed them, unless told otherwise.
        given = settings_of_rerun(manifest, given, settings)
        settings = load_settings(
            warn=False, **given | {"seed": rerun_seed(manifest, given["seed"])}
        )
    # What verify refuses beside --resume, it refuses with its own reason.
    refused = len(given.get("model") or ()) > 1 or any(
        getattr(args, option, None) not in (None, False)
        for option in ("baseline", "shard", "estimate")
    )
    if getattr(args, "resume", None) is None or refused:
        return resolve_settings(settings)
    from verification.cli.resume_options import settings_of_run
    from verification.store.paths import RunPaths

    # The run's own provider, model, level, cases...: --resume RUN_ID alone goes on with it.
    manifest = RunPaths(settings.results_dir, args.resume).read_manifest()
    return resolve_settings(load_settings(warn=False, **settings_of_run(manifest, given, settings)))


def escape_what_stdout_cannot_encode() -> None:
    """A console that cannot encode a character (of a scaffold, a reply, a model name)
    shows it as a backslash escape, as standard error already does: printing is never what
    fails a command."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if callable(reconfigure):
        with contextlib.suppress(ValueError, OSError):  # a stream that cannot be reconfigured
            reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None, *, prog: str | None = None) -> int:
    """Entry point of ``python -m verification`` and ``verify-scaffolds``."""
    try:  # before the command's own handling: the imports and its parser's
        from verification.cli.closed_pipe import quiet_when_stdout_closes

        with quiet_when_stdout_closes():  # `list | head -1` ends with list's own exit code
            return run_command(argv, prog)
    except KeyboardInterrupt:
        print("interrupted (Ctrl-C): stopped as asked", file=sys.stderr)
        return INTERRUPTED


def script() -> NoReturn:
    """``verify-scaffolds`` as a script written before its entry point moved to
    :func:`verification.__main__.script` calls it (an editable install keeps the script it
    was made with until it is installed again; hunt ah: after a pull, an ImportError):
    :func:`main`, ending the process with its exit code, without that entry point's guard
    for a Ctrl-C during the first imports."""
    exit_with(main())


def exit_with(code: int) -> NoReturn:
    """End the process with ``code``, the command's own, whatever signal comes as it ends.

    Once a command has returned, a Ctrl-C or SIGTERM that arrives while the interpreter
    shuts down (the second of two quick Ctrl-Cs, a supervisor's SIGTERM as a run finishes)
    made Python die of that signal: a parent process read -2 or -15 where the command had
    decided 130, 143 or the run's own status, and a finished run looked killed. Until the
    threads left are joined, such a signal ends the process at once with ``code`` (what was
    printed flushed first), so a shutdown that hangs still stops on Ctrl-C; after that the
    signals are ignored, since Python's last steps put back their default action, death."""

    def at_once(signum: int, frame: FrameType | None) -> None:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # closed, or a pipe nobody reads
                stream.flush()
        os._exit(code)

    _handle_late_signals(at_once)
    # Exit handlers run once every thread is joined, and before Python resets its handlers.
    atexit.register(_handle_late_signals, signal.SIG_IGN)
    sys.exit(code)


def _handle_late_signals(handler: Any) -> None:
    for each in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(each) is signal.SIG_IGN:
            continue  # ignored from the start (a script's `cmd &`): it stays so (hunt ac)
        with contextlib.suppress(ValueError, OSError):  # not the main thread
            signal.signal(each, handler)


def _shown(message: str) -> str:
    """An error message as the terminal gets it: each line with what is not printable
    escaped (a path or a name the user typed may hold a terminal's escape codes)."""
    from verification.cases import printable
    from verification.llm.credentials import redact_known

    return "\n".join(printable(line) for line in redact_known(message).split("\n"))


def run_command(argv: Sequence[str] | None, prog: str | None) -> int:
    escape_what_stdout_cannot_encode()
    parser = shared_parser(prog)
    try:
        args = parser.parse_args(argv)
    except Exception:  # an option's own check crashed: our bug, never exit 1 (a grade)
        logger.exception("internal error")
        return INTERNAL_ERROR
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
        from verification.config import secrets_of
        from verification.llm.credentials import redact_log_records

        settings = settings_from_arguments(args)
        redact_log_records(secrets_of(settings))
        cli = VerificationCLI(settings, prog=parser.prog, progress=getattr(args, "progress", None))
        if args.command == "check":
            from verification.catalog.plugins import watching_sigint

            with watching_sigint():  # a plugin's own KeyboardInterrupt is no Ctrl-C
                return cli.check(
                    args.names,
                    category=args.category,
                    everything=args.everything,
                    cases=args.cases,
                    as_json=args.json,
                )
        if args.command in ("verify", "merge"):
            from verification.cli.run_output import RunOutputs
            from verification.reports.ci import check_ci_outputs

            check_ci_outputs(
                args.junit_xml, os.environ.get("GITHUB_STEP_SUMMARY"), args.junit_cases
            )
            outputs = RunOutputs(
                junit_xml=args.junit_xml,
                junit_cases=args.junit_cases,
                fail_on_regression=args.fail_on_regression,
                exports=args.export or (),
                as_json=args.json,
            )
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
                outputs=outputs,
                baseline=args.baseline,
                shard=args.shard,
                keyword=args.keyword,
                rerun_failed=args.rerun_failed,
            )
        if args.command == "show-prompt":
            from verification.catalog.plugins import watching_sigint

            with watching_sigint():  # a plugin's own KeyboardInterrupt is no Ctrl-C
                return cli.show_prompt(
                    args.name,
                    args.case_id,
                    part=args.part,
                    scaffold_file=args.scaffold_file,
                    size=args.size,
                    answer=args.answer,
                    bare=args.baseline == "none",
                )
        if args.command == "plan":
            return cli.plan()
        if args.command == "view":
            return cli.view(args.run_id)
        if args.command == "cache":
            return cli.cache(
                args.action,
                folder=args.cache_folder,
                older_than=args.older_than,
                output=args.cache_output,
            )
        if args.command == "history":
            return cli.history(
                model=args.model, scaffold=args.scaffold, limit=args.limit, as_json=args.json
            )
        if args.command == "compare":
            return cli.compare(args.run_a, args.run_b, html=args.html)
        if args.command == "prune":
            return cli.prune(args.keep, delete_beyond=args.delete_beyond)
        if args.command == "merge":
            return cli.merge(args.run_dirs, outputs)
        return cli.generate_reports(args.run_id)
    except VerificationError as exc:  # the tree's classes each carry their code
        print(f"error: {_shown(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except Terminated as exc:
        print("terminated (SIGTERM): stopped as asked", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("interrupted (Ctrl-C): stopped as asked", file=sys.stderr)
        return INTERRUPTED
    except OSError as exc:  # a results or scaffolds folder that cannot be used
        shown = _shown(f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": "))
        if isinstance(exc, FileExistsError | IsADirectoryError | NotADirectoryError):
            # What stands there is not the kind the harness writes (hunt hh read the bare
            # "File exists: .../reports" of a reports folder made a file by hand).
            shown += (
                ": a file stands where a folder goes, or a folder where a file goes (made by "
                "hand?); move it, or choose another folder with --output"
            )
        print(f"error: {shown}", file=sys.stderr)
        return ConfigurationError.exit_code
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").partition(".")[0]
        if not missing or missing == "verification":
            logger.exception("internal error")  # a module of ours: our bug
            return INTERNAL_ERROR
        # Imported as a command needs it: an install without its dependencies (another
        # interpreter than the one it was installed in, say), not a bug of the harness.
        print(
            f"error: the package {_shown(missing)!r} the harness needs is not installed in "
            f"this Python ({_shown(sys.executable)}): install the harness into it with its "
            "dependencies (pip install scaffold-verification; in a checkout, pip install -e .)",
            file=sys.stderr,
        )
        return ConfigurationError.exit_code
    except Exception:  # never exit 1 on a crash: CI would read it as a grade
        logger.exception("internal error")
        return INTERNAL_ERROR
    except BaseException as exc:
        # A stray asyncio.CancelledError (a BaseException) ended a run with a bare traceback
        # and exit 1, a grade (hunt ae: anyio 3.6 cancelled a late reply's task). asyncio is
        # imported by then if it can be one at all.
        asyncio = sys.modules.get("asyncio")
        if asyncio is None or not isinstance(exc, asyncio.CancelledError):
            raise
        logger.exception("internal error")
        return INTERNAL_ERROR
