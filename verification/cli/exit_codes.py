"""What each exit code means, and a run's code.

An error's code is its class's ``exit_code`` (:mod:`verification.errors` draws the tree with
them); the table here says what each code means, and a test holds every class's code to
it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from verification.errors import Terminated, VerificationError

__all__ = [
    "EPILOG",
    "EXIT_CODES",
    "INTERNAL_ERROR",
    "INTERRUPTED",
    "exit_code",
    "regression_exit",
    "results_exit_code",
]

INTERNAL_ERROR = 4
"""Anything raised outside the error tree: a bug of ours."""
INTERRUPTED = 130
"""Ctrl-C (``KeyboardInterrupt``, Python's own): 128 + SIGINT, as a shell reports it."""


EXIT_CODES = {
    0: "every scaffold CERTIFIED",
    1: "some scaffold PARTIAL or FAILED",
    VerificationError.exit_code: "usage or configuration error (bad option, setting, "
    "scaffold name or file; no key; a spec that cannot draw a case of its declared sizes; "
    "a run in use by another process; a results folder that cannot be written)",
    3: "some scaffold INCOMPLETE (infrastructure errors or nothing counted), or a swept or "
    "searched size of one",
    INTERNAL_ERROR: "internal error: a bug in the harness (please report it with the traceback)",
    5: "a regression against the previous comparable run, with --fail-on-regression (a "
    "drop significant by the paired test on shared cases; a status change within the noise "
    "is none; before 1 and 3)",
    INTERRUPTED: "interrupted by Ctrl-C (resume with --resume RUN_ID)",
    Terminated.exit_code: "terminated by SIGTERM (resume with --resume RUN_ID)",
}
EPILOG = "exit codes:\n" + "\n".join(f"  {code:<4} {text}" for code, text in EXIT_CODES.items())


def regression_exit(
    summary: Path,
    code: int,
    *,
    results_dir: Path | None = None,
    prog: str = "python -m verification",
    fail: bool = True,
) -> int:
    """Say any regression the run's ``summary.json`` (beside ``summary``) names, with both
    runs and the ``compare`` command that shows their cases (``results_dir``: the results
    folder it reads, ``prog``: how the command is invoked); 5 when it names one and ``fail``
    (``--fail-on-regression``), else ``code``."""
    import shlex

    from verification.cases import printable
    from verification.store.summary_file import RunSummary

    data = RunSummary.from_json(summary.with_suffix(".json").read_bytes())
    gate = data.regression_gate
    if fail and data.previous_run_id is None:
        # A night with no baseline read like a quiet one (a helper's hunt): say it.
        where = f" in {results_dir}" if results_dir is not None else ""
        print(
            printable(
                f"regression gate: no earlier comparable run{where} to compare with: nothing "
                "was gated (the first run, the earlier runs' folders were not restored, or "
                "none of them asked as this one did: `history` lists them)"
            )
        )
    for name, why in (gate.withheld if gate is not None else {}).items():
        # A quiet gate is no "no regression" where the runs' answers differ in what they hold.
        print(
            f"regression gate: no verdict on {printable(name, 100)}: {printable(why, 300)} "
            f"(against run {data.previous_run_id})"
        )
    if not data.regressions or data.previous_run_id is None:
        return code
    words = [*shlex.split(prog), "compare", data.previous_run_id, data.run_id]
    if results_dir is not None:
        words += ["--output", str(results_dir)]
    print(
        f"regression against the previous comparable run: {', '.join(data.regressions)} "
        f"(run {data.run_id} against run {data.previous_run_id}); the cases side by side: "
        f"{shlex.join(words)}"
    )
    return 5 if fail else code


def results_exit_code(results: Iterable[Any], level: str | None = None) -> int:
    """:func:`exit_code` of scaffolds' results (:class:`~verification.certify.results.
    ScaffoldResults`): a swept or searched size left INCOMPLETE counts as an INCOMPLETE
    status, since the run could not decide what it was asked (an envelope search stopped
    by errors exited 0, a green light for an envelope it never found; hunt kk 4)."""
    results = list(results)
    statuses = [r.status for r in results]
    if any(point.status == "INCOMPLETE" for r in results for point in r.size_points):
        statuses.append("INCOMPLETE")
    return exit_code(statuses, level)


def exit_code(statuses: Sequence[str], level: str | None = None) -> int:
    """The exit code of a run's statuses; at the quick level (which certifies nothing) only
    errors (INCOMPLETE) count."""
    if "INCOMPLETE" in statuses:
        return 3
    if level == "quick":
        return 0
    return 0 if all(status == "CERTIFIED" for status in statuses) else 1
