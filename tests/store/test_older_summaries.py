"""A ``summary.json`` an older harness wrote is read with what it says: hunt af found every
run's summary before the typed model (version 1, no ``schema_version``; the fixture is one
a fake-server run of 9c4fa4e wrote) called "damaged" by the results index, its statuses
"not reported", and left out of ``history --json``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from verification.reports.history import read_summary

VERSION_1 = Path(__file__).parent / "fixtures" / "summary-v1-9c4fa4e.json"


def test_a_version_1_summary_is_read_with_its_statuses_and_tiers(tmp_path: Path) -> None:
    written = json.loads(VERSION_1.read_text(encoding="utf-8"))
    assert "schema_version" not in written  # the point: the first untyped version
    run = tmp_path / written["run_id"]
    (run / "reports").mkdir(parents=True)
    shutil.copy(VERSION_1, run / "reports" / "summary.json")
    summary = read_summary(run)
    assert summary is not None and summary.run_id == written["run_id"]
    for name, figures in written["scaffolds"].items():
        read = summary.scaffolds[name]
        assert (read.status, read.n, read.pass_rate) == (
            figures["status"],
            figures["n"],
            figures["pass_rate"],
        )
        # One answer a case: a tier's passes are its score.
        assert {tier: (t.score, t.n) for tier, t in read.per_tier.items()} == {
            tier: (t["passed"], t["n"]) for tier, t in figures["per_tier"].items()
        }
