"""A dry run of every scaffold at the thorough level, and what the validator's calibration
on the run's own cases adds to it.

Run: ``python benchmarks/thorough_dry_run.py [--level thorough]``. Prints the wall time of
the whole run (plan, answer, journal, fold), the number of cases, and the seconds spent
calibrating each scaffold's validator on its cases (the slowest scaffold named). No model
is asked.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from verification.certify.calibration import calibrate
from verification.certify.results import journalled_cases
from verification.config import load_settings
from verification.runner import VerificationRunner
from verification.store.journal import read_journal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", default="thorough", choices=["quick", "standard", "thorough"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        settings = load_settings(
            results_dir=Path(folder), provider="reference", level=args.level, cache=False
        )
        runner = VerificationRunner(settings)
        started = time.perf_counter()
        run = asyncio.run(runner.run(list(runner.catalog)))
        whole = time.perf_counter() - started
        records = read_journal(run.paths.journal)
        spent: dict[str, float] = {}
        for name in run.manifest.scaffolds:
            cases = journalled_cases(name, records)
            begun = time.perf_counter()
            calibrate(runner.catalog[name], cases)
            spent[name] = time.perf_counter() - begun
    slowest = max(spent, key=spent.__getitem__)
    print(f"level {args.level}: {len(records)} answers over {len(spent)} scaffolds")
    print(f"whole dry run (calibration included): {whole:.1f} s")
    print(
        f"calibration alone: {sum(spent.values()):.1f} s "
        f"(slowest {slowest}: {spent[slowest]:.2f} s)"
    )


if __name__ == "__main__":
    main()
