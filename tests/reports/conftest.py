"""Replay runs with a scripted mix of right and wrong answers, through the command line."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from tests.support.calibrations import calibrating_each_case_once
from tests.support.disk import no_fsync  # noqa: F401  (the runs' files need not reach the disk)
from tests.support.draws import drawing_each_case_once
from verification.cli import main
from verification.registry import DEFAULT_SEED, get_spec
from verification.runner import plan_cases

ScriptedRun = Callable[..., tuple[int, str]]
"""``scripted_run(output, {scaffold: right}, cases, *more)`` -> (exit code, run id)."""


def _wrong(name: str) -> str:
    """An answer every validator rejects at level 2 (the schema): an empty JSON object."""
    return f"```json\n{{}}\n```\n(wrong on purpose for {name})"


@pytest.fixture
def scripted_run(tmp_path: Path) -> Iterator[ScriptedRun]:
    """Runs ``verify`` with ``--provider replay``: for each scaffold, the cases whose
    position (in plan order) is in ``right`` get the reference's answer, the rest a wrong
    one. ``right`` is a count (the first ``right`` cases) or a set of positions.

    For the test's rest each case is drawn once and calibrated once
    (tests/support/draws.py, tests/support/calibrations.py): the replay file is written
    from the plan the run then draws again, and a test's runs ask the same cases."""
    counter = iter(range(1_000_000))

    def run(
        output: Path,
        right: dict[str, int | Sequence[int]],
        cases: int,
        *more: str,
    ) -> tuple[int, str]:
        lines = []
        planned = plan_cases(list(right), seed=DEFAULT_SEED, cases=cases)
        for name, chosen in right.items():
            spec = get_spec(name)
            passing = set(range(chosen)) if isinstance(chosen, int) else set(chosen)
            for k, case in enumerate(planned[name]):
                text = spec.render_answer(case.expected) if k in passing else _wrong(name)
                lines.append({"case_id": case.id, "raw_response": text})
        replay = tmp_path / f"replay-{next(counter)}.jsonl"
        replay.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
        before = set((output / "runs").iterdir()) if (output / "runs").is_dir() else set()
        argv = ["verify", *right, "--provider", "replay", "--replay-file", str(replay)]
        code = main([*argv, "--cases", str(cases), "--output", str(output), *more])
        (new,) = set((output / "runs").iterdir()) - before
        return code, new.name

    with drawing_each_case_once(), calibrating_each_case_once():
        yield run
