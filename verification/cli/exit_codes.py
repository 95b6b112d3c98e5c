"""What each exit code means, and a run's code."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

__all__ = ["EPILOG", "EXIT_CODES", "exit_code", "regression_exit"]


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
EPILOG = "exit codes:\n" + "\n".join(f"  {code:<4} {text}" for code, text in EXIT_CODES.items())


def regression_exit(summary: Path, code: int) -> int:
    """5 when the run's ``summary.json`` (beside ``summary``) names a regression, else
    ``code``."""
    from verification.store.summary_file import RunSummary

    regressions = RunSummary.from_json(summary.with_suffix(".json").read_bytes()).regressions
    if regressions:
        print(f"regression against the previous comparable run: {', '.join(regressions)}")
        return 5
    return code


def exit_code(statuses: Sequence[str], level: str | None = None) -> int:
    """The exit code of a run's statuses; at the quick level (which certifies nothing) only
    errors (INCOMPLETE) count."""
    if "INCOMPLETE" in statuses:
        return 3
    if level == "quick":
        return 0
    return 0 if all(status == "CERTIFIED" for status in statuses) else 1
