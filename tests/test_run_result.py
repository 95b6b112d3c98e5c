"""A run's result as Python shows it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from verification.config import load_settings
from verification.runner import VerificationRunner


def test_a_run_result_repr_stays_short_whatever_the_run_answered(tmp_path: Path) -> None:
    # asyncio.run formats its main task, and so the task's result, when it puts the SIGINT
    # handler back after the run: a repr that walked every record cost CPU per answer.
    settings = load_settings(provider="reference", cases=2, results_dir=tmp_path)
    result = asyncio.run(VerificationRunner(settings).run(["kmp", "bisection"]))
    assert result.records is not None and len(result.records) == 4
    shown = repr(result)
    assert shown == (
        f"RunResult(run_id={result.run_id!r}, scaffolds=['kmp', 'bisection'], records=4)"
    )
    assert result.records[0].raw_response not in shown
