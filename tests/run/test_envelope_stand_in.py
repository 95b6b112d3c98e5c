"""Issue 25 item 2's done-when: against a local stand-in model that answers dijkstra right
below 40 vertices and wrong from 40 (tests/support/stand_in.py, behind the fake Anthropic
server), ``verify dijkstra --envelope`` reports ``certified_up_to`` of at least 32 and below
40 and ``fails_from`` of at least 40 and at most 64, in well under 15 minutes of stand-in
calls. The exact sizes are the search's own course on the stand-in's verdicts."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.support.fake_server import FakeModelServer
from tests.support.stand_in import ThresholdModel
from verification.catalog import default_catalog
from verification.certify.envelope import honoured_sizes
from verification.certify.envelope_search import search_for
from verification.cli import main
from verification.store.summary_file import RunSummary

KEY = "sk-ant-envelope-stand-in"
THRESHOLD = 40
STEPS = 3000
"""More than the run can ask: the level's cases and every size's, each at its cap at worst."""


@pytest.mark.slow
def test_the_envelope_of_a_model_wrong_from_40_vertices_is_found(
    anthropic_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = default_catalog()["dijkstra"]
    assert spec.size.stress is not None and spec.size.stress[1] >= 64
    model = ThresholdModel("dijkstra", THRESHOLD)
    anthropic_env.max_requests = STEPS
    anthropic_env.script([model.answer] * STEPS)
    output = tmp_path / "out"
    started = time.monotonic()
    code = main(["verify", "dijkstra", "--envelope", "--output", str(output), "--no-cache"])
    wall = time.monotonic() - started
    printed = capsys.readouterr().out
    assert code == 0, printed  # the level's cases (at their default sizes) all pass
    data = RunSummary.from_json((output / "reports" / "summary.json").read_text())
    result = data.scaffolds["dijkstra"]
    assert result.certified_up_to is not None and 32 <= result.certified_up_to < THRESHOLD
    assert result.fails_from is not None and THRESHOLD <= result.fails_from <= 64
    # Exactly the boundary, on the search's own course.
    sizes = honoured_sizes(spec, stress=True)
    assert result.certified_up_to == max(s for s in sizes if s < THRESHOLD)
    assert result.fails_from == min(s for s in sizes if s >= THRESHOLD)
    search, verdicts = search_for(spec), dict[int, bool]()
    while (size := search.next_size(verdicts)) is not None:
        verdicts[size] = size < THRESHOLD
    searched = result.envelope_search
    assert searched is not None and [t.size for t in searched.tried] == list(verdicts)
    assert [t.status for t in searched.tried] == [
        "CERTIFIED" if ok else "FAILED" for ok in verdicts.values()
    ]
    assert all(t.usd is not None and t.usd > 0 and t.output_tokens > 0 for t in searched.tried)
    assert set(model.sizes) - set(verdicts) <= {
        s for s in model.sizes if s <= max(spec.sizes.values())
    }
    # The plot of pass rate against size, and the report's table in the order tried.
    chart = (output / "reports" / "dijkstra-sizes.svg").read_text()
    assert all(f">{size}<" in chart for size in verdicts)
    report = (output / "reports" / "dijkstra.md").read_text()
    assert "## Envelope search" in report
    failing = next(p.status for p in result.sweep if p.size == 40)
    said = f"certified up to {result.certified_up_to} vertices; fails from 40 ({failing})"
    assert said in printed
    calls = sum(model.sizes.values())
    print(f"stand-in: {calls} calls in {wall:.1f} s, sizes tried {list(verdicts)}")
    assert wall < 15 * 60
    summary = json.loads((output / "reports" / "summary.json").read_text())
    assert summary["scaffolds"]["dijkstra"]["envelope_search"]["fails_from"] == THRESHOLD
