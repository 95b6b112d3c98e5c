"""What ``compare`` and the regression gate claim when a run lost answers or asked a
selection of cases (a helper's hunt, F4 and F5): the figures on the shared cases are shown,
each run's lost answers are named, and no "better" or "worse" (nor a gate's improvement) is
claimed from a pairing that sees only what both runs answered."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scipy.stats import binomtest

from verification.certify.paired import ALPHA
from verification.cli import main
from verification.cli.exit_codes import regression_exit
from verification.reports.regressions import ArmAnswers, withheld_reasons
from verification.store.summary_file import RunSummary

NAME = "kmp"
CASES = 40
FAILED = range(0, 16, 2)
"""Journal lines A gets wrong: 8 cases, enough for a significant split against B."""
MANY_FAILED = range(16)
"""Lines B gets wrong where a drop holds beside four answers A lost (16 vs 4)."""
ERRORS = range(21, 25)
"""Lines whose answers B lost to infrastructure errors (a tenth: B is not INCOMPLETE)."""


def _run(output: Path, *extra: str) -> str:
    before = set((output / "runs").iterdir()) if (output / "runs").is_dir() else set()
    argv = ["verify", NAME, "--provider", "reference", "--cases", str(CASES)]
    assert main([*argv, "--output", str(output), *extra]) in (0, 1, 3)
    (run,) = set((output / "runs").iterdir()) - before
    return run.name


def _edit(output: Path, run: str, outcome: str, lines: range) -> None:
    """Mark ``lines`` (from 0) of ``run``'s journal with ``outcome``, then report it again
    (its summary's statuses are what ``compare`` reads beside the journal)."""
    journal = output / "runs" / run / "results.jsonl"
    texts = journal.read_text(encoding="utf-8").splitlines()
    for number in lines:
        data = json.loads(texts[number])
        if outcome == "failed":
            data.update(outcome="failed", level=3, reason="wrong answer")
        else:
            data.update(outcome="infra_error", level=None, reason="HTTP 500", answer=None)
        texts[number] = json.dumps(data)
    journal.write_text("\n".join(texts) + "\n", encoding="utf-8")
    assert main(["report", run, "--output", str(output)]) in (0, 1, 3)


def _compare(output: Path, a: str, b: str, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["compare", a, b, "--output", str(output)]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return out


def _row(out: str) -> str:
    (row,) = [line for line in out.splitlines() if line.startswith(f"{NAME} ")]
    return row


def test_compare_names_answers_lost_to_errors_and_claims_no_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: "B is better" (A's 8 failures, B right on them), while B's 4 errors on cases
    # A answered went unsaid.
    a, b = _run(tmp_path), _run(tmp_path)
    _edit(tmp_path, a, "failed", FAILED)
    _edit(tmp_path, b, "infra_error", ERRORS)
    assert binomtest(0, len(FAILED)).pvalue < ALPHA  # the split alone would say "better"
    out = _compare(tmp_path, a, b, capsys)
    row = _row(out)
    assert "better" not in out and "worse" not in out
    assert f"not comparable: B lost {len(ERRORS)} answer(s) to infrastructure errors" in row
    expected = f"{NAME}: A {CASES} answered, 0 infrastructure error(s), 0 unanswered; B "
    expected += f"{CASES - len(ERRORS)} answered, {len(ERRORS)} infrastructure error(s)"
    assert any(line.strip().startswith(expected) for line in out.splitlines()), out


def test_compare_claims_no_verdict_on_an_incomplete_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = _run(tmp_path), _run(tmp_path)
    _edit(tmp_path, a, "failed", FAILED)
    more = range(21, 21 + CASES // 10 + 1)  # over a tenth: INCOMPLETE
    _edit(tmp_path, b, "infra_error", more)
    summary = RunSummary.from_json(
        (tmp_path / "runs" / b / "reports" / "summary.json").read_bytes()
    )
    assert summary.scaffolds[NAME].status == "INCOMPLETE"
    row = _row(_compare(tmp_path, a, b, capsys))
    assert "B is INCOMPLETE" in row and "better" not in row


def test_compare_of_a_run_and_its_rerun_of_failures_claims_no_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: "B is better" at p 0.0078: B asked only A's failures, and passed them.
    a = _run(tmp_path)
    _edit(tmp_path, a, "failed", FAILED)
    b = _run(tmp_path, "--rerun-failed", a)
    for first, second, who in ((a, b, "B asked only the cases A failed"), (b, a, "A asked")):
        row = _row(_compare(tmp_path, first, second, capsys))
        assert f"not comparable: {who}" in row and "better" not in row, row
    shared = row.split()[1]
    assert shared == str(len(FAILED))  # the figures are still shown


def test_a_run_of_cases_picked_by_name_gets_no_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _run(tmp_path)
    _edit(tmp_path, a, "failed", FAILED)
    b = _run(tmp_path, "-k", "simple or standard")
    row = _row(_compare(tmp_path, a, b, capsys))
    assert "not comparable: B asked only cases picked by name" in row


def test_the_gate_reads_no_improvement_from_a_run_that_lost_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: PARTIAL -> CERTIFIED read "improvement" though the new run lost 4 answers the
    # previous one gave (its failures, had they come back as errors, would read the same).
    a, b = _run(tmp_path), _run(tmp_path)
    _edit(tmp_path, a, "failed", FAILED)
    capsys.readouterr()
    _edit(tmp_path, b, "infra_error", ERRORS)
    summary = RunSummary.from_json(
        (tmp_path / "runs" / b / "reports" / "summary.json").read_bytes()
    )
    assert summary.previous_run_id == a
    assert [c.direction for c in summary.status_changes or []] == ["not significant"]
    assert summary.regression_gate is not None
    why = summary.regression_gate.withheld[NAME]
    assert f"this run lost {len(ERRORS)} answer(s) to infrastructure errors" in why
    markdown = (tmp_path / "runs" / b / "reports" / "summary.md").read_text(encoding="utf-8")
    assert f"No verdict on {NAME}" in markdown and "improvement" not in markdown
    # What `verify` prints of the gate, and its exit: no regression, no "nothing changed".
    assert regression_exit(tmp_path / "runs" / b / "reports" / "summary.md", 0) == 0
    out, _ = capsys.readouterr()
    assert f"regression gate: no verdict on {NAME}: {why}" in out


def test_a_significant_drop_still_fires_the_gate_beside_lost_answers(tmp_path: Path) -> None:
    a, b = _run(tmp_path), _run(tmp_path)
    _edit(tmp_path, b, "failed", FAILED)
    _edit(tmp_path, b, "infra_error", ERRORS)
    summary = RunSummary.from_json(
        (tmp_path / "runs" / b / "reports" / "summary.json").read_bytes()
    )
    assert summary.previous_run_id == a and summary.regressions == [NAME]
    # Hunt i, F3: the gate said "no verdict" of the scaffold it fired on, in one breath.
    assert summary.regression_gate is not None and summary.regression_gate.withheld == {}


def _arm(
    scores: dict[str, float], errors: frozenset[str] = frozenset(), incomplete: bool = False
) -> ArmAnswers:
    return ArmAnswers(scores, dict.fromkeys(errors, 1), frozenset(), incomplete)


def test_withheld_reasons_name_only_errors_on_cases_the_other_answered() -> None:
    a = _arm({"c1": 1.0, "c2": 0.0})
    b = _arm({"c1": 1.0}, errors={"c2", "c9"})
    assert withheld_reasons({NAME: a}, {NAME: b}) == {
        NAME: "B lost 1 answer(s) to infrastructure errors"
    }
    # An error on a case the other never answered hides nothing of the pairing.
    assert withheld_reasons({NAME: _arm({"c1": 1.0})}, {NAME: _arm({"c1": 1.0}, {"c9"})}) == {}
    assert withheld_reasons({NAME: a}, {NAME: _arm({"c1": 1.0}, incomplete=True)}) == {
        NAME: "B is INCOMPLETE"
    }


def test_a_run_whose_status_held_is_not_called_incomplete_for_the_pairing_s_rule() -> None:
    # Hunt af: a FAILED run (its status decided on its look's window) that lost over a
    # tenth of the cases it asked was called "INCOMPLETE" by compare and the gate.
    a = _arm({"c1": 1.0})
    short = ArmAnswers({"c1": 1.0}, {}, frozenset(), incomplete=False, short=True)
    (reason,) = withheld_reasons({NAME: a}, {NAME: short}).values()
    assert reason == "B left over a tenth of the cases it asked without an answer"
    assert "INCOMPLETE" not in short.counts()


def test_a_sample_lost_to_an_error_is_named_though_its_case_kept_a_score() -> None:
    # Hunt i, F2: with --samples, a case whose other samples were answered kept a score over
    # them alone, and the sample lost (where the answer would have been wrong) went unsaid.
    a = _arm({"c1": 1.0, "c2": 0.5})
    b = ArmAnswers({"c1": 1.0, "c2": 1.0}, {"c2": 2}, frozenset(), False)
    assert withheld_reasons({NAME: a}, {NAME: b}) == {
        NAME: "B lost 2 answer(s) to infrastructure errors"
    }


def test_two_runs_of_the_same_selection_compare_as_any_two(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt i, F5: two runs of the same --tier (or two quick runs) read "not comparable",
    # though neither was chosen by the other's outcomes.
    argv = ("--tier", "edge")
    a, b = _run(tmp_path, *argv), _run(tmp_path, *argv)
    _edit(tmp_path, a, "failed", FAILED)
    row = _row(_compare(tmp_path, a, b, capsys))
    assert "not comparable" not in row and "B is better" in row
    c = _run(tmp_path)  # all three tiers: B's cases are a selection A did not make
    assert "not comparable: A asked only some tiers" in _row(_compare(tmp_path, a, c, capsys))


def test_a_significant_drop_is_a_verdict_beside_what_was_lost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt i, F3: the gate fired on a significant drop while compare, the command it names,
    # read "not comparable" for a previous run's few errors.
    # B fails 16 cases A passed: a drop A's 4 lost answers, had they all been failures B
    # passed, could not undo (16 vs 4, one-sided p 0.006).
    a, b = _run(tmp_path), _run(tmp_path)
    _edit(tmp_path, a, "infra_error", ERRORS)
    _edit(tmp_path, b, "failed", MANY_FAILED)
    assert (
        binomtest(len(MANY_FAILED), len(MANY_FAILED) + len(ERRORS), alternative="greater").pvalue
        < ALPHA
    )
    row = _row(_compare(tmp_path, a, b, capsys))
    assert "A is better" in row and "A lost 4 answer(s) to infrastructure errors" in row
    assert "not comparable" not in row


def test_a_drop_the_earlier_run_s_lost_answers_could_undo_is_no_regression(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt kk 2: the earlier run's failures came back as errors, so the shared cases were
    # its successes, and a later run as good "dropped" on them (7 vs 0, p 0.008: exit 5).
    # Counted as the failures they may have been, B's passes on them undo the drop.
    a, b = _run(tmp_path), _run(tmp_path)
    _edit(tmp_path, a, "infra_error", ERRORS)
    _edit(tmp_path, b, "failed", FAILED)  # 8 vs 0 shared: significant on its own
    assert binomtest(0, len(FAILED)).pvalue < ALPHA
    worst = binomtest(len(FAILED), len(FAILED) + len(ERRORS), alternative="greater").pvalue
    assert worst > ALPHA
    row = _row(_compare(tmp_path, a, b, capsys))
    assert "not comparable: A lost 4 answer(s) to infrastructure errors" in row
    summary = RunSummary.from_json(
        (tmp_path / "runs" / b / "reports" / "summary.json").read_bytes()
    )
    assert summary.previous_run_id == a and summary.regressions == []
    (drop,) = summary.rate_drops or []
    assert (drop.only_before, drop.only_now) == (len(FAILED), 0)  # the shared cases' split
    assert drop.against_drop == (len(FAILED), len(ERRORS))  # the split the gate tested
    assert drop.p_value == pytest.approx(worst) and not drop.significant
    assert regression_exit(tmp_path / "runs" / b / "reports" / "summary.md", 0) == 0


def test_a_size_sweep_s_cases_past_a_size_s_decision_are_not_unanswered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt i, F1: every swept size's planned cases counted as meant to be asked, so two
    # identical CERTIFIED runs with a sweep (the thorough level's default) read INCOMPLETE,
    # hundreds of cases "unanswered", and no verdict, even a run against itself.
    a = _run(tmp_path, "--sizes", "6,8")
    out = _compare(tmp_path, a, a, capsys)
    assert "not comparable" not in _row(out)
    assert "unanswered" not in out or " 0 unanswered" in out
    assert "INCOMPLETE" not in out
