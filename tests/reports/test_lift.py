"""The lift of a ``verify --baseline none`` pair over sizes: both arms' pass rates and the
paired difference at each size, both envelopes, and the output tokens per case of each arm
with their ratio, in the terminal, ``summary.md`` and ``summary.json``.

The pair is answered from a replay file whose two arms answer differently, built from a dry
run's right answers: the scaffold arm right at every size, the bare arm right below
:data:`BREAK` and, from it, right only on every third case (or right everywhere); each line
carries its output tokens. Every expected figure is computed here from those lines: rates
and splits by counting, p-values by scipy, the interval by the paired machinery."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support.calibrations import calibrating_each_case_once
from tests.support.draws import drawing_each_case_once
from verification.catalog import default_catalog
from verification.certify.paired import paired_difference_interval
from verification.cli import main
from verification.store.journal import read_journal
from verification.store.manifests import read_manifest_file
from verification.store.records import AttemptRecord

SIZES = (6, 12)
BREAK = 12
WRONG = "```json\n{}\n```"
ARGV = ["verify", "dijkstra", "--level", "quick", "--sizes", ",".join(map(str, SIZES))]

Rule = Callable[[AttemptRecord], bool]
"""Whether the bare arm answers a case right."""
RULES: dict[str, Rule] = {
    "breaks": lambda r: (r.size or 0) < BREAK or r.index % 3 == 0,
    # Six wrong at BREAK: the interval of the difference clears zero and the sign test's
    # p-value (0.03125) would, but not once Holm-corrected across the two sizes.
    "borderline": lambda r: (r.size or 0) < BREAK or r.index >= 3,
    "adds nothing": lambda r: True,
}


def _bare_tokens(record: AttemptRecord) -> int:
    return 5 * (record.size or 1)


def _scaffold_tokens(record: AttemptRecord) -> int:
    return 13 * (record.size or 1) + record.index


@pytest.fixture(scope="module", autouse=True)
def _drawn_once() -> Iterator[None]:
    """The dry run and every pair here ask the same dijkstra cases: each is drawn once
    (tests/support/draws.py) and calibrated once (tests/support/calibrations.py)."""
    with drawing_each_case_once(), calibrating_each_case_once():
        yield


@pytest.fixture(scope="module")
def dry_run(tmp_path_factory: pytest.TempPathFactory) -> list[AttemptRecord]:
    """A dry run's journal: every case the pair will ask, with its right answer."""
    output = tmp_path_factory.mktemp("dry")
    assert main([*ARGV, "--provider", "reference", "--output", str(output)]) == 0
    (run,) = (output / "runs").iterdir()
    return read_journal(run / "results.jsonl")


def _replay(path: Path, records: list[AttemptRecord], bare_right: Rule) -> Path:
    lines = []
    for r in records:
        bare = r.raw_response if bare_right(r) else WRONG
        usage = {"output_tokens": _bare_tokens(r)}
        lines.append({"case_id": r.case_id, "arm": "bare", "text": bare, "usage": usage})
        usage = {"output_tokens": _scaffold_tokens(r)}
        lines.append(
            {"case_id": r.case_id, "arm": "scaffold", "text": r.raw_response, "usage": usage}
        )
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _holm(p: dict[int, float]) -> dict[int, float]:
    """Holm's step-down adjustment, written out for this test."""
    ordered = sorted(p, key=p.__getitem__)
    adjusted, running = {}, 0.0
    for i, key in enumerate(ordered):
        running = max(running, min(1.0, (len(p) - i) * p[key]))
        adjusted[key] = running
    return adjusted


@pytest.mark.slow  # a dry run and a replayed pair of about 75 cases each: some seconds
@pytest.mark.parametrize("scenario", list(RULES))
def test_a_baseline_none_pair_over_sizes_reports_the_lift_and_its_price(
    dry_run: list[AttemptRecord],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    scenario: str,
) -> None:
    from scipy.stats import binomtest

    right = RULES[scenario]
    replay = _replay(tmp_path / "pair.jsonl", dry_run, right)
    output = tmp_path / "out"
    argv = [*ARGV, "--provider", "replay", "--replay-file", str(replay), "--output", str(output)]
    main([*argv, "--baseline", "none"])
    terminal = capsys.readouterr().out
    runs = {
        read_manifest_file(run / "manifest.json").variant: run
        for run in (output / "runs").iterdir()
    }
    bare_run, scaffold_run = runs["bare"], runs[None]

    # No swept size is a tier's own: the level's cases are at none of them.
    assert not set(SIZES) & set(default_catalog()["dijkstra"].sizes.values())
    expected: dict[int, dict[str, float]] = {}
    p_values: dict[int, float] = {}
    for size in SIZES:
        at = [r for r in dry_run if r.size == size]
        bare = [float(right(r)) for r in at]
        only_b = sum(1 for x in bare if x == 0)  # the scaffold arm is right on every case
        p_values[size] = binomtest(0, only_b, 0.5).pvalue if only_b else 1.0
        low, high = paired_difference_interval(bare, [1.0] * len(at))
        expected[size] = {
            "shared": len(at),
            "bare_pass_rate": sum(bare) / len(at),
            "scaffold_pass_rate": 1.0,
            "difference": 1.0 - sum(bare) / len(at),
            "low": low,
            "high": high,
            "bare_tokens": sum(map(_bare_tokens, at)) / len(at),
            "scaffold_tokens": sum(map(_scaffold_tokens, at)) / len(at),
        }
    holm = _holm(p_values)

    for run in (bare_run, scaffold_run):  # either run of the pair reports it
        summary = json.loads((run / "reports" / "summary.json").read_text(encoding="utf-8"))
        lift = summary["lift"]["dijkstra"]
        assert (lift["bare_run"], lift["scaffold_run"]) == (bare_run.name, scaffold_run.name)
        assert [row["size"] for row in lift["sizes"]] == list(SIZES)
        for row in lift["sizes"]:
            want = expected[row["size"]]
            assert row["shared"] == want["shared"]
            assert row["bare_pass_rate"] == pytest.approx(want["bare_pass_rate"])
            assert row["scaffold_pass_rate"] == pytest.approx(want["scaffold_pass_rate"])
            assert row["difference"] == pytest.approx(want["difference"])
            assert row["difference_interval_95"] == pytest.approx([want["low"], want["high"]])
            assert row["p_value"] == pytest.approx(p_values[row["size"]])
            assert row["p_holm"] == pytest.approx(holm[row["size"]])
            assert row["bare_output_tokens_per_case"] == pytest.approx(want["bare_tokens"])
            assert row["scaffold_output_tokens_per_case"] == pytest.approx(want["scaffold_tokens"])
            assert row["token_ratio"] == pytest.approx(
                want["scaffold_tokens"] / want["bare_tokens"]
            )
            assert row["tokens_estimated"] is False
        # Every case both arms answered, the level's included.
        every = lift["overall"]
        bare_total = sum(map(_bare_tokens, dry_run)) / len(dry_run)
        scaffold_total = sum(map(_scaffold_tokens, dry_run)) / len(dry_run)
        assert every["shared"] == len(dry_run)
        assert every["bare_pass_rate"] == pytest.approx(sum(map(right, dry_run)) / len(dry_run))
        assert every["token_ratio"] == pytest.approx(scaffold_total / bare_total)
        # Each arm's envelope, as its own summary's sweep decided it.
        arms = {}
        for arm, folder in (("bare", bare_run), ("scaffold", scaffold_run)):
            own = json.loads((folder / "reports" / "summary.json").read_text(encoding="utf-8"))
            arms[arm] = own["scaffolds"]["dijkstra"]
            assert lift[f"{arm}_certified_up_to"] == arms[arm]["certified_up_to"]
            assert lift[f"{arm}_fails_from"] == arms[arm]["fails_from"]
        assert lift["scaffold_certified_up_to"] == max(SIZES)
        ratio = f"{scaffold_total / bare_total:.1f}x the output tokens"
        sentence = lift["sentence"]
        assert ratio in sentence
        fails = arms["bare"]["fails_from"]
        if fails is not None:
            below = arms["bare"]["certified_up_to"]
            status = next(p["status"] for p in arms["bare"]["sweep"] if p["size"] == fails)
            assert f"without, up to {below} vertices, failing from {fails} ({status})" in sentence
        lifted = [s for s in SIZES if holm[s] < 0.05 and expected[s]["difference"] > 0]
        if lifted:
            assert f"lifts the pass rate at {', '.join(map(str, lifted))} vertices" in sentence
        else:
            assert "adds nothing detectable at these sizes" in sentence
        markdown = (run / "reports" / "summary.md").read_text(encoding="utf-8")
        assert "## Lift over no scaffold" in markdown and sentence in markdown
    assert f"lift of dijkstra (vertices): {sentence}" in terminal
    # compare of the pair's two runs prints what verify printed, the lift included.
    assert main(["compare", bare_run.name, scaffold_run.name, "--output", str(output)]) == 0
    compared = capsys.readouterr().out
    lift_lines = terminal[terminal.index("lift of dijkstra") :]
    assert lift_lines and compared.endswith(lift_lines)
    shown = [line.split() for line in terminal.splitlines() if line[:1].isdigit()]
    assert [row[0] for row in shown] == [str(s) for s in SIZES]
    for row in shown:
        want = expected[int(row[0])]
        assert row[1:4] == [
            str(want["shared"]),
            f"{100 * want['bare_pass_rate']:.1f}%",
            "100.0%",
        ]
        assert row[-1] == f"{want['scaffold_tokens'] / want['bare_tokens']:.2f}x"


@pytest.mark.slow  # a dry-run pair: a few seconds
def test_a_pair_of_no_sweep_prices_its_replies_by_their_length_when_no_usage_was_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "out"
    argv = ["verify", "kmp", "--level", "quick", "--provider", "reference"]
    assert main([*argv, "--baseline", "none", "--output", str(output)]) == 0
    terminal = capsys.readouterr().out
    runs = {
        read_manifest_file(run / "manifest.json").variant: run
        for run in (output / "runs").iterdir()
    }
    summary = json.loads((runs[None] / "reports" / "summary.json").read_text(encoding="utf-8"))
    lift = summary["lift"]["kmp"]
    assert lift["sizes"] == [] and lift["bare_certified_up_to"] is None
    per_case = {}
    for arm, run in runs.items():
        records = read_journal(run / "results.jsonl")
        assert all(not r.usage for r in records)  # the reference provider records none
        per_case[arm] = sum(math.ceil(r.raw_response_chars / 4) for r in records) / len(records)
    every = lift["overall"]
    assert every["tokens_estimated"] is True
    assert every["bare_output_tokens_per_case"] == pytest.approx(per_case["bare"])
    assert every["scaffold_output_tokens_per_case"] == pytest.approx(per_case[None])
    assert lift["sentence"] == (
        "The scaffold adds nothing detectable on these cases and costs "
        f"{per_case[None] / per_case['bare']:.1f}x the output tokens ({per_case[None]:,.0f} "
        f"per case against {per_case['bare']:,.0f}, estimated from reply lengths)."
    )
    assert lift["sentence"] in terminal


@pytest.mark.slow  # a dry-run pair, each arm searching its envelope: some seconds
def test_a_pair_searching_envelopes_takes_each_arms_envelope_from_its_search(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "out"
    argv = ["verify", "dijkstra", "--envelope", "--level", "quick", "--provider", "reference"]
    assert main([*argv, "--baseline", "none", "--output", str(output)]) == 0
    terminal = capsys.readouterr().out
    runs = {
        read_manifest_file(run / "manifest.json").variant: run
        for run in (output / "runs").iterdir()
    }
    tried = {}
    for variant, run in runs.items():
        manifest = read_manifest_file(run / "manifest.json")
        assert manifest.envelope is not None
        tried[variant] = manifest.envelope["dijkstra"].tried
    assert tried["bare"] == tried[None]  # every answer right: both climb the same course
    summary = json.loads((runs[None] / "reports" / "summary.json").read_text(encoding="utf-8"))
    lift = summary["lift"]["dijkstra"]
    assert [row["size"] for row in lift["sizes"]] == sorted(tried[None])
    for arm in ("bare", "scaffold"):
        assert lift[f"{arm}_certified_up_to"] == max(tried[None])
        assert lift[f"{arm}_fails_from"] is None and lift[f"{arm}_stopped"] == ""
    said = f"up to {max(tried[None])} vertices (every size tried)"
    assert lift["sentence"].startswith(f"With the scaffold certified {said}; without, {said}.")
    assert lift["sentence"] in terminal
