"""The regression gate through the command line: pairs of replay runs of one scaffold whose
answers are right with the same probability, nothing changed between them."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.calibrations import calibrating_each_case_once
from verification.cases import TestCase
from verification.catalog import drawing
from verification.cli import main
from verification.registry import DEFAULT_SEED, get_spec
from verification.runner import plan_cases

_PAIRS = 30
_RATE = 0.90
_MOST_CASES = 400
"""More cases than any standard plan asks: each run's replay file answers all of them."""


@pytest.fixture
def drawn_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each case the sixty runs ask is drawn once: every run draws the same cases from the
    same seed (a draw is a function of the scaffold, tier, index, seed and size), so the
    later runs are handed the case the first drew (a frozen model, which no run changes)."""
    draw = drawing.generate_case
    kept: dict[tuple[Any, ...], TestCase] = {}

    def once(spec: Any, tier: Any, index: int, *, seed: int, size: int | None = None) -> TestCase:
        key = (spec.name, tier, index, seed, size)
        if key not in kept:
            kept[key] = draw(spec, tier, index, seed=seed, size=size)
        return kept[key]

    monkeypatch.setattr(drawing, "generate_case", once)


@pytest.fixture
def calibrated_once() -> Iterator[None]:
    """Each case's calibration is judged once for the sixty runs (a function of the spec and
    the case: tests/support/calibrations.py); the commit a manifest records is read once per
    process (verification/store/code_version.py)."""
    with calibrating_each_case_once():
        yield


def _wrong(name: str) -> str:
    return f"```json\n{{}}\n```\n(wrong on purpose for {name})"


@pytest.mark.slow
@pytest.mark.usefixtures("drawn_once", "calibrated_once")
def test_thirty_pairs_of_standard_runs_at_090_with_nothing_changed_exit_5_at_most_3_times(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = "kmp"
    spec = get_spec(name)
    cases = plan_cases([name], seed=DEFAULT_SEED, cases=_MOST_CASES)[name]
    right = {case.id: spec.render_answer(case.expected) for case in cases}
    rng = random.Random(23)
    exits = []
    for pair in range(_PAIRS):
        output = tmp_path / f"pair-{pair}"
        for run in range(2):
            replay = output / f"replay-{run}.jsonl"
            replay.parent.mkdir(parents=True, exist_ok=True)
            lines = [
                {"case_id": case_id, "raw_response": text if rng.random() < _RATE else _wrong(name)}
                for case_id, text in right.items()
            ]
            replay.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
            argv = ["verify", name, "--provider", "replay", "--replay-file", str(replay)]
            argv += ["--level", "standard", "--output", str(output / "results")]
            code = main([*argv, "--fail-on-regression"] if run else argv)
        exits.append(code)
        capsys.readouterr()
    assert all(code in (0, 1, 5) for code in exits)
    print(f"exit codes of the {_PAIRS} second runs: {exits}")
    assert exits.count(5) <= 3, exits
