"""The instructions a whole in-process dry run executes, counted by Valgrind: a figure that
does not move with the machine's load, to compare two checkouts.

Run: ``python benchmarks/instruction_count.py [--cases 30 | --level] [CHECKOUT ...]``
(needs ``valgrind``: Debian's ``valgrind`` package). For each checkout (default: this one),
a process imports the harness and makes one dry run of every scaffold, and another makes
three; the difference, halved, is the instructions of one run, warm, without the imports.
Each process runs under ``valgrind --tool=cachegrind --cache-sim=no`` with a fixed hash
seed; a checkout counted again usually gives a figure within about 3% of the first (what
the run does by the clock moves a little: the journal's forced writes, the seconds it
stamps), and now and then one a tenth higher (one count in eleven on 27 November 2026) or
more (a sixth, once, beside other work), so a change of a few percent wants two or three
counts of each side, compared by their lowest.

The CPU times of ``benchmarks/harness_overhead.py`` move by a fifth or more from one minute
to the next on a shared machine, more than most changes it should judge; the instruction
count does not. It does not see what costs time without instructions (cache misses, the
collector's walks over memory, system calls), so a change is judged by both: the count for
its sign and size, the CPU time for what it is worth.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

RUNS = """\
import asyncio, sys, tempfile
from pathlib import Path
from verification.config import load_settings
from verification.registry import SPECS
from verification.reports.generator import write_run_reports
from verification.runner import VerificationRunner

chosen = {} if sys.argv[1] == "level" else {"cases": int(sys.argv[1])}
for _ in range(int(sys.argv[2])):
    with tempfile.TemporaryDirectory() as folder:
        settings = load_settings(provider="reference", results_dir=Path(folder), **chosen)
        result = asyncio.run(VerificationRunner(settings).run(list(SPECS)))
        write_run_reports(
            result.paths, result.manifest, result.results,
            costs=result.costs, records=result.records,
        )
"""
"""One process: ``argv[1]`` cases a scaffold (``level``: the standard level's plan),
``argv[2]`` dry runs."""

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(checkout: Path, cases: str, runs: int) -> int:
    """The instructions a process executes that imports ``checkout``'s harness and makes
    ``runs`` dry runs of ``cases``."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as script:
        script.write(RUNS)
    env = {
        **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
        "PYTHONPATH": str(checkout),
        "PYTHONHASHSEED": "0",
    }
    try:
        done = subprocess.run(
            [
                *("valgrind", "--tool=cachegrind", "--cache-sim=no"),
                "--cachegrind-out-file=/dev/null",
                *(sys.executable, script.name, cases, str(runs)),
            ],
            capture_output=True,
            text=True,
            env=env,
            cwd=checkout,
            check=False,
        )
    finally:
        os.unlink(script.name)
    counted = refs_of(done.stderr)
    if done.returncode != 0 or counted is None:
        raise SystemExit(f"valgrind run in {checkout} failed:\n{done.stderr[-2000:]}")
    return counted


def refs_of(report: str) -> int | None:
    """The instruction count of cachegrind's summary (``==1== I   refs:   6,116,450,417``),
    or ``None`` when ``report`` holds none."""
    found = _REFS.search(report)
    return None if found is None else int(found.group(1).replace(",", ""))


def per_run(checkout: Path, cases: str) -> float:
    """The instructions of one warm dry run: (three runs - one run) / 2."""
    return (instructions(checkout, cases, 3) - instructions(checkout, cases, 1)) / 2


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    which = options.add_mutually_exclusive_group()
    which.add_argument("--cases", type=int, default=30, help="cases a scaffold (default 30)")
    which.add_argument(
        "--level",
        action="store_const",
        const="standard",
        help="the standard level's plan, as verify --all runs it, instead of --cases",
    )
    options.add_argument(
        "checkouts",
        nargs="*",
        type=Path,
        default=[Path(__file__).resolve().parents[1]],
        help="folders holding the verification package (default: this checkout)",
    )
    args = options.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    cases = "level" if args.level else str(args.cases)
    shown = "the standard level" if args.level else f"--cases {args.cases}"
    for checkout in args.checkouts:
        figure = per_run(checkout.resolve(), cases)
        print(f"{checkout}: {figure / 1e6:,.1f} million instructions a dry run ({shown})")


if __name__ == "__main__":
    main()
