"""A swept size that lost answers says so (hunt kk 4): its point, its row of the scaffold
report and its entry of ``summary.json``'s sweep carry the answers lost up to where it
decided and its pass rate had they all failed, as the level's status does with its
infrastructure errors; a size that lost nothing says nothing of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verification.cli import main
from verification.store.journal import read_journal
from verification.store.summary_file import RunSummary

SIZE = 30
ARGV = ["verify", "kmp", "--sizes", str(SIZE)]


def _made(output: Path, argv: list[str], code: int) -> Path:
    """The run ``verify *argv --output output`` makes, which exits ``code``."""
    before = set((output / "runs").iterdir()) if (output / "runs").is_dir() else set()
    assert main([*argv, "--output", str(output)]) == code
    (run,) = set((output / "runs").iterdir()) - before
    return run


@pytest.mark.slow  # two dry runs of a level and a size: a few seconds
def test_a_size_that_lost_answers_says_how_many_and_its_worst_case(tmp_path: Path) -> None:
    first = _made(tmp_path, [*ARGV, "--provider", "reference"], 0)
    lines = (first / "results.jsonl").read_text(encoding="utf-8").splitlines()
    at_size = [line for line in lines if f"-s{SIZE}-" in json.loads(line)["case_id"]]
    dropped = {json.loads(line)["case_id"] for line in at_size[:3]}
    replay = tmp_path / "replay.jsonl"
    kept = [line for line in lines if json.loads(line)["case_id"] not in dropped]
    replay.write_text("".join(line + "\n" for line in kept), encoding="utf-8")
    # Its level CERTIFIED, its size INCOMPLETE: the run could not decide what it was asked
    # (exit 3; hunt kk 4: an envelope search stopped by errors exited 0).
    replayed = [*ARGV, "--provider", "replay", "--replay-file", str(replay)]
    second = _made(tmp_path, replayed, 3)
    records = [r for r in read_journal(second / "results.jsonl") if f"-s{SIZE}-" in r.case_id]
    errors = sum(r.outcome == "infra_error" for r in records)
    assert errors >= len(dropped)  # the replay has no line for them, nor for cases never asked
    for run, lost in ((first, 0), (second, errors)):
        data = RunSummary.from_json((run / "reports" / "summary.json").read_bytes())
        (point,) = data.scaffolds["kmp"].sweep or []
        assert point.lost == lost
        if lost:
            assert point.worst_case_rate == pytest.approx(point.score / (point.n + lost))
        else:
            assert point.worst_case_rate is None
        (row,) = [
            line
            for line in (run / "reports" / "kmp.md").read_text(encoding="utf-8").splitlines()
            if line.startswith(f"| {SIZE} |")
        ]
        said = f"{lost} answer(s) lost, worst case {100 * (point.worst_case_rate or 0):.1f}%"
        assert (said in row) == bool(lost), row


def test_a_size_decided_at_its_cap_with_an_interval_over_the_threshold_is_borderline() -> None:
    # Hunt kk 8: 162 of 180 at the cap (84.7% to 93.6%) read plain CERTIFIED beside a level
    # status that, decided the same way, reads "CERTIFIED (borderline)".
    from verification.certify.envelope import SizePoint
    from verification.certify.sequential import Decision
    from verification.certify.statuses import certify, wilson_interval

    def point(passed: int, n: int, early: bool) -> SizePoint:
        status = certify(passed, n, planned=n, unfinished=0)
        decision = Decision(status, n, 17, early)  # type: ignore[arg-type]
        interval = wilson_interval(float(passed), n)
        return SizePoint(40, float(passed), n, n, 0, n - passed, interval, status, False, decision)

    capped = point(162, 180, early=False)
    assert capped.status == "CERTIFIED" and capped.interval[0] < 0.90 < capped.interval[1]
    assert capped.borderline
    assert not point(162, 180, early=True).borderline  # a Wald test decided it early
    assert not point(180, 180, early=False).borderline  # its interval clears 0.90
