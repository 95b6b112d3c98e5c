"""The certification plan through the command line (issue 23's done-when): replay runs of
dijkstra at the standard level whose answers are right with a chosen probability.

Run: ``python benchmarks/certification_oc.py [--runs 60,40] [--rates 0.85,0.95]
[--subprocess] [--check]``. One dry run (``--cases`` the plan's cap, the reference
answering) gives every case the plan may ask, its right answer and a wrong one (the
scaffold's first mutant). Each replay run then answers every case right with probability p
(a seeded draw per case, so the whole table is reproducible) and is asked by
``verify dijkstra --level standard --provider replay``: in this process through the command
line's entry point, or with ``--subprocess`` as a fresh ``python -m verification`` each.
Printed per rate: how many runs ended CERTIFIED, PARTIAL and FAILED, the mean number of
cases asked, and what the plan's exact operating characteristic expects. ``--check`` exits 1
unless at 0.85 at most a tenth of the runs certify and at 0.95 at least 33 in 40 do (the
issue's 6 of 60 and 33 of 40), and a perfect replay asks no more than 40 cases.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from verification.catalog import default_catalog
from verification.certify.operating import operating_characteristic
from verification.certify.sequential import plan_for
from verification.cli import main as cli_main
from verification.store.journal import read_journal

SCAFFOLD = "dijkstra"
SEED = 11


@dataclass(frozen=True)
class Answer:
    """A case the plan may ask, with a right and a wrong reply to it."""

    case_id: str
    right: str
    wrong: str


def answer_book(folder: Path, *, scaffold: str = SCAFFOLD, seed: int = SEED) -> list[Answer]:
    """Every case the standard plan may ask of ``scaffold``, from one dry run."""
    cap = plan_for("standard").cap
    argv = [
        *("verify", scaffold, "--provider", "reference", "--cases", str(cap)),
        *("--seed", str(seed), "--no-cache", "--no-progress", "--output", str(folder)),
    ]
    with contextlib.redirect_stdout(io.StringIO()):
        code = cli_main(argv)
    if code != 0:
        raise SystemExit("the dry run that draws the cases failed")
    (run,) = (folder / "runs").iterdir()
    spec = default_catalog()[scaffold]
    book = []
    for record in read_journal(run / "results.jsonl"):
        case = record.test_case()
        wrong = spec.mutants(case, random.Random(record.case_id))[0]
        book.append(
            Answer(record.case_id, spec.render_answer(record.expected), spec.render_answer(wrong))
        )
    return book


def replay_run(
    folder: Path,
    book: list[Answer],
    p: float,
    draw: random.Random,
    *,
    subprocess_: bool = False,
    scaffold: str = SCAFFOLD,
    seed: int = SEED,
) -> tuple[str, int]:
    """One standard run whose every answer is right with probability ``p``: its status and
    the cases it asked."""
    folder.mkdir(parents=True)
    replay = folder / "replay.jsonl"
    lines = [
        {"case_id": a.case_id, "text": a.right if draw.random() < p else a.wrong} for a in book
    ]
    replay.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    argv = [
        *("verify", scaffold, "--level", "standard", "--seed", str(seed)),
        *("--provider", "replay", "--replay-file", str(replay), "--no-cache", "--no-progress"),
        *("--output", str(folder / "out")),
    ]
    if subprocess_:
        subprocess.run(
            [sys.executable, "-m", "verification", *argv], capture_output=True, check=False
        )
    else:
        with contextlib.redirect_stdout(io.StringIO()):  # each run's table: not wanted here
            cli_main(argv)
    summary = json.loads((folder / "out" / "reports" / "summary.json").read_text("utf-8"))
    data = summary["scaffolds"][scaffold]
    return str(data["status"]), int(data["n"])


def replay_runs(
    folder: Path, book: list[Answer], p: float, runs: int, *, subprocess_: bool = False
) -> tuple[Counter[str], float]:
    """``runs`` replay runs at ``p``: how many ended in each status, and the mean cases."""
    draw = random.Random(f"{SEED}:{p}")
    statuses: Counter[str] = Counter()
    asked = 0
    for index in range(runs):
        status, n = replay_run(folder / f"{p}-{index}", book, p, draw, subprocess_=subprocess_)
        statuses[status] += 1
        asked += n
    return statuses, asked / runs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", default="60,40", help="runs at each rate (default 60,40)")
    parser.add_argument("--rates", default="0.85,0.95", help="true pass rates (0.85,0.95)")
    parser.add_argument("--subprocess", action="store_true", help="a fresh process per run")
    parser.add_argument("--check", action="store_true", help="exit 1 when a goal is missed")
    args = parser.parse_args()
    rates = [float(r) for r in args.rates.split(",")]
    runs = [int(n) for n in args.runs.split(",")]
    plan = plan_for("standard")
    missed = False
    with tempfile.TemporaryDirectory() as tmp:
        book = answer_book(Path(tmp) / "book")
        for p, count in [*zip(rates, runs, strict=True), (1.0, 5)]:
            statuses, mean = replay_runs(
                Path(tmp) / "runs", book, p, count, subprocess_=args.subprocess
            )
            oc = operating_characteristic(plan, p)
            print(
                f"p = {p:.2f}: {count} runs, CERTIFIED {statuses['CERTIFIED']}, PARTIAL "
                f"{statuses['PARTIAL']}, FAILED {statuses['FAILED']}; mean cases asked "
                f"{mean:.1f} (exact OC: P(CERTIFIED) {oc.certified:.3f}, expected cases "
                f"{oc.expected_cases:.1f})"
            )
            if p == 0.85:
                missed |= statuses["CERTIFIED"] * 10 > count
            if p == 0.95:
                missed |= statuses["CERTIFIED"] * 40 < 33 * count
            if p == 1.0:
                missed |= mean > 40
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
