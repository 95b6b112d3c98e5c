"""``verify --baseline none --envelope``: each arm searches its own envelope against a local
stand-in model (tests/support/stand_in.py, behind the fake Anthropic server) that answers
dijkstra right below one size with the scaffold and below a smaller one without it, and the
pair reports both envelopes, the paired difference at the sizes both arms tried, and the
price of each arm's replies. Every expected figure comes from the two thresholds and the
search's own course (the sizes it can take), not from the report."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from tests.support.fake_server import FakeModelServer, RecordedRequest, Reply
from tests.support.stand_in import ThresholdModel
from verification.catalog import default_catalog
from verification.certify.envelope import honoured_sizes
from verification.certify.paired import ALPHA
from verification.cli import main
from verification.store.manifests import read_manifest_file

KEY = "sk-ant-lift-envelope"
WITH, WITHOUT = 40, 12
"""The stand-in answers right below these sizes: with the scaffold, and without it."""
TOKENS = {"scaffold": 1000, "bare": 400}
"""Output tokens each arm's replies report."""
STEPS = 4000


def _system(sent: RecordedRequest) -> str:
    system = sent.json.get("system", "")
    return system if isinstance(system, str) else "".join(b["text"] for b in system)


@pytest.mark.slow  # two envelope searches against a stand-in: about a minute
def test_a_bare_pair_searching_envelopes_reports_both_and_the_lift_between(
    anthropic_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    models = {
        "scaffold": ThresholdModel("dijkstra", WITH),
        "bare": ThresholdModel("dijkstra", WITHOUT),
    }

    def answer(sent: RecordedRequest) -> Reply:
        arm = "scaffold" if "## Scaffold Instructions" in _system(sent) else "bare"
        reply = models[arm].answer(sent)
        usage = {**reply.body["usage"], "output_tokens": TOKENS[arm]}
        return dataclasses.replace(reply, body={**reply.body, "usage": usage})

    anthropic_env.max_requests = STEPS
    anthropic_env.keep_alive = True  # thousands of requests, none dropped
    anthropic_env.script([answer] * STEPS)
    output = tmp_path / "out"
    argv = ["verify", "dijkstra", "--envelope", "--level", "quick", "--no-cache"]
    main([*argv, "--baseline", "none", "--output", str(output)])
    printed = capsys.readouterr().out
    runs = {
        read_manifest_file(run / "manifest.json").variant: run
        for run in (output / "runs").iterdir()
    }
    summary = json.loads((runs[None] / "reports" / "summary.json").read_text(encoding="utf-8"))
    lift = summary["lift"]["dijkstra"]
    sizes = honoured_sizes(default_catalog()["dijkstra"], stress=True)
    tried: dict[str, set[int]] = {}
    for arm, threshold in (("scaffold", WITH), ("bare", WITHOUT)):
        assert lift[f"{arm}_certified_up_to"] == max(s for s in sizes if s < threshold)
        assert lift[f"{arm}_fails_from"] == min(s for s in sizes if s >= threshold)
        assert lift[f"{arm}_stopped"] == ""
        # Each arm searched its own envelope: the sizes its manifest says it tried, the
        # envelope its own summary states.
        folder = runs["bare" if arm == "bare" else None]
        own = read_manifest_file(folder / "manifest.json")
        assert own.envelope is not None
        tried[arm] = set(own.envelope["dijkstra"].tried)
        assert set(models[arm].sizes) >= tried[arm]
        stated = json.loads((folder / "reports" / "summary.json").read_text(encoding="utf-8"))
        searched = stated["scaffolds"]["dijkstra"]["envelope_search"]
        assert searched["certified_up_to"] == lift[f"{arm}_certified_up_to"]
        assert searched["fails_from"] == lift[f"{arm}_fails_from"]
    rows = {row["size"]: row for row in lift["sizes"]}
    assert set(rows) == tried["scaffold"] | tried["bare"]
    both = [size for size, row in rows.items() if row["shared"]]
    assert set(both) == tried["scaffold"] & tried["bare"]
    # The standard maximum is decided first by both searches: there the arms are paired.
    top = max(default_catalog()["dijkstra"].size.ranges["standard"])
    assert top in both
    for size, row in rows.items():
        right = {
            arm: size < threshold for arm, threshold in (("scaffold", WITH), ("bare", WITHOUT))
        }
        if row["shared"]:
            assert row["bare_pass_rate"] == float(right["bare"])
            assert row["scaffold_pass_rate"] == float(right["scaffold"])
            assert row["difference"] == float(right["scaffold"]) - float(right["bare"])
        else:  # a size only one arm's search tried: that arm's own rate, the other's none
            assert None in (row["bare_pass_rate"], row["scaffold_pass_rate"])
            assert row["difference"] is None
        assert row["token_ratio"] in (None, TOKENS["scaffold"] / TOKENS["bare"])
    assert lift["overall"]["token_ratio"] == TOKENS["scaffold"] / TOKENS["bare"]
    lifted = [s for s in both if rows[s]["p_holm"] < ALPHA and rows[s]["difference"] > 0]
    assert top in lifted
    sentence = lift["sentence"]
    status = {  # the size each arm fails from, as that arm decided it
        arm: next(
            r[f"{arm}_status"] for r in lift["sizes"] if r["size"] == lift[f"{arm}_fails_from"]
        )
        for arm in ("scaffold", "bare")
    }
    reached = {
        arm: f"up to {lift[f'{arm}_certified_up_to']} vertices, failing from "
        f"{lift[f'{arm}_fails_from']} ({status[arm]})"
        for arm in ("scaffold", "bare")
    }
    assert sentence.startswith(
        f"With the scaffold certified {reached['scaffold']}; without, {reached['bare']}."
    )
    assert f"lifts the pass rate at {', '.join(map(str, lifted))} vertices" in sentence
    assert f"costs {TOKENS['scaffold'] / TOKENS['bare']:.1f}x the output tokens" in sentence
    assert sentence in printed
    print(printed[printed.index("lift of dijkstra") :])  # the table, with -s
