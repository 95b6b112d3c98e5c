"""``benchmarks/output_growth.py`` measures what a dry run journals: its tokens per case at a
size are those of ``verify --sizes`` with the reference provider, counted from the journal's
reply lengths, and its growth exponent is the power a table of tokens was built with."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from tests.support.benchmarks import load_benchmark
from verification.catalog import default_catalog
from verification.certify.envelope import CASES_PER_SIZE
from verification.cli import main
from verification.store.journal import read_journal

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # a dry run of 35 cases and the benchmark's own: some seconds
def test_the_benchmark_counts_a_dry_runs_replies(tmp_path: Path) -> None:
    bench = load_benchmark("output_growth")
    spec = default_catalog()["kmp"]
    size = bench.measured_sizes(spec)[-1]
    argv = ["verify", "kmp", "--level", "quick", "--sizes", str(size), "--provider", "reference"]
    assert main([*argv, "--output", str(tmp_path)]) == 0
    (run,) = (tmp_path / "runs").iterdir()
    at = [r for r in read_journal(run / "results.jsonl") if r.size == size]
    assert len(at) == CASES_PER_SIZE
    journalled = sum(math.ceil(r.raw_response_chars / 4) for r in at) / len(at)
    assert bench.tokens_per_case(spec, size, cases=CASES_PER_SIZE) == pytest.approx(journalled)


def test_the_growth_exponent_is_the_power_tokens_grow_by() -> None:
    bench = load_benchmark("output_growth")
    for power in (0.5, 1.0, 2.0):
        tokens = {size: 7 * size**power for size in (4, 9, 16, 40)}
        one = bench.Growth("x", "items", tokens, None)
        assert one.exponent == pytest.approx(power)
        assert one.ratio == pytest.approx(tokens[40] / tokens[4])


def test_the_docs_give_the_growth_of_every_scaffold_and_the_command_that_measured_it() -> None:
    page = (ROOT / "docs" / "WHERE_IT_BREAKS.md").read_text(encoding="utf-8")
    assert "python benchmarks/output_growth.py --cases 5 --markdown" in page
    rows = [line.split("|")[1].strip() for line in page.splitlines() if line.startswith("| ")]
    # The header, then one per scaffold.
    assert sorted(rows[1:]) == sorted(default_catalog()), (
        "docs/WHERE_IT_BREAKS.md's growth table needs a row per scaffold: paste in the table"
        " `python benchmarks/output_growth.py --cases 5 --markdown` prints"
    )


@pytest.mark.slow  # the benchmark's dry runs of every scaffold: seconds
def test_the_docs_growth_table_is_what_the_benchmark_prints_today(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A stress range declared later once left four rows without it (n_queens, sudoku,
    # bisection, hill_climbing): the page is the command's output, regenerated.
    page = (ROOT / "docs" / "WHERE_IT_BREAKS.md").read_text(encoding="utf-8")
    load_benchmark("output_growth").main(["--cases", "5", "--markdown"])
    printed = capsys.readouterr().out.splitlines()
    shown = [line for line in page.splitlines() if line.startswith("| ")]
    assert shown == [line for line in printed if line.startswith("| ")]
