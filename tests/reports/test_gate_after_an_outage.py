"""A scaffold the previous run had INCOMPLETE (an outage that night) is compared with the
latest earlier comparable run that had it whole. A helper's hunt played nightly runs: after
a night of server errors on dijkstra, the next night's real drop was never flagged (nothing
to pair with the outage), and that worse night became the baseline of the one after."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verification.cli import main
from verification.store.summary_file import RunSummary

NAMES = ["kmp", "bfs"]
CASES = 40
WRONG = range(0, 16, 2)
"""The kmp cases the last run gets wrong: 8 of 40, a significant drop."""


def _run(output: Path) -> Path:
    before = set((output / "runs").iterdir()) if (output / "runs").is_dir() else set()
    argv = ["verify", *NAMES, "--provider", "reference", "--cases", str(CASES)]
    assert main([*argv, "--output", str(output)]) in (0, 1, 3, 5)
    (run,) = set((output / "runs").iterdir()) - before
    return run


def _edit(output: Path, run: Path, outcome: str, cases: range | None) -> RunSummary:
    """Mark kmp's cases (all, or those at ``cases`` in journal order) with ``outcome``, then
    report the run again, as its own end would have."""
    journal = run / "results.jsonl"
    lines = [json.loads(line) for line in journal.read_text("utf-8").splitlines()]
    kmp = [line for line in lines if line["scaffold"] == "kmp"]
    for position, line in enumerate(kmp):
        if cases is None or position in cases:
            if outcome == "failed":
                line.update(outcome="failed", level=3, reason="wrong answer")
            else:
                line.update(outcome="infra_error", level=None, reason="HTTP 500", answer=None)
    journal.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    assert main(["report", run.name, "--output", str(output)]) in (0, 1, 3, 5)
    return RunSummary.from_json((run / "reports" / "summary.json").read_bytes())


def test_a_drop_after_an_outage_is_measured_against_the_last_whole_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = _run(tmp_path)
    outage = _run(tmp_path)
    assert _edit(tmp_path, outage, "infra_error", None).scaffolds["kmp"].status == "INCOMPLETE"
    worse = _run(tmp_path)
    summary = _edit(tmp_path, worse, "failed", WRONG)
    assert summary.previous_run_id == outage.name  # bfs, answered both nights, against it
    assert summary.regressions == ["kmp"]
    gate = summary.regression_gate
    assert gate is not None and gate.baselines == {"kmp": whole.name}
    (drop,) = [row for row in summary.rate_drops if row.scaffold == "kmp"]
    assert (drop.shared, drop.only_before, drop.only_now) == (CASES, len(WRONG), 0)
    report = (worse / "reports" / "summary.md").read_text("utf-8")
    assert f"kmp is compared with run `{whole.name}`" in report


def test_a_gated_run_with_nothing_to_compare_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt v: a night whose history was not restored had no baseline, and its gate's silence
    # read like a quiet night's.
    argv = ["verify", "kmp", "--provider", "reference", "--cases", "4", "--fail-on-regression"]
    assert main([*argv, "--output", str(tmp_path)]) == 0
    assert "regression gate: no earlier comparable run" in capsys.readouterr().out
    assert main([*argv, "--output", str(tmp_path)]) == 0
    assert "no earlier comparable run" not in capsys.readouterr().out
