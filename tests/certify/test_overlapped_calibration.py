"""The runner calibrates each case as its answer comes (while other requests wait): the
results it returns must be exactly those ``report`` folds from the run's files alone."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from verification.catalog import default_catalog
from verification.certify.results import results_from_journal
from verification.config import load_settings
from verification.runner import VerificationRunner
from verification.store.journal import read_journal


@pytest.mark.slow
def test_a_runs_results_are_those_folded_from_its_files(tmp_path: Path) -> None:
    names = list(default_catalog())
    runner = VerificationRunner(
        load_settings(provider="reference", results_dir=tmp_path, cases=3, seed=11)
    )
    inputs = []
    for seed in (11, 12):  # one runner, two runs: a case id of the first is not reused
        runner.settings = runner.settings.model_copy(update={"seed": seed})
        result = asyncio.run(runner.run(names))
        records = read_journal(result.paths.journal)
        answered = {record.case_id for record in records}
        assert set(runner._calibrations) == answered  # made as the answers came
        assert result.results == results_from_journal(result.manifest, records)
        assert sorted(result.results) == sorted(names)
        inputs.append([record.test_case().input for record in records])
        assert all(r.calibration and r.calibration.mutants for r in result.results.values())
    assert inputs[0] != inputs[1]  # the second run drew other cases under the same ids
