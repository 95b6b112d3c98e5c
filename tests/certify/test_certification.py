"""Certification end to end (issue 15 items 1-4): a dry run plans the cases, a replay run
answers them with a scripted mix of right and wrong answers, and the reports' figures are
checked against what the script makes them (levels, samples, the size envelope, the
private cert seed, a validator miss)."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

from tests.support.calibrations import calibrating_each_case_once
from tests.support.clustering import design_effect_answers
from tests.support.copies import cases_asked, first_of_each_input
from tests.support.draws import drawing_each_case_once
from verification.cases import parse_case_id
from verification.catalog import Catalog, default_catalog
from verification.catalog.sizes import in_units
from verification.certify.envelope import CASES_PER_SIZE, size_plan, sweep_cases, sweep_sizes
from verification.certify.envelope_search import search_for
from verification.certify.operating import operating_characteristic
from verification.certify.sequential import decide, plan_for
from verification.cli import main
from verification.config import LEVEL_CASES, load_settings
from verification.registry import plan_tier_counts
from verification.reports.generator import md_cell, write_run_reports
from verification.run import case_plan
from verification.runner import VerificationRunner, plan_cases
from verification.store.journal import read_journal
from verification.store.records import AttemptRecord
from verification.store.summary_file import RunSummary
from verification.validators.base import ValidationResult

Script = Callable[[AttemptRecord, int], dict[str, Any]]
"""(a dry-run journal line, the sample) -> a replay line for that answer."""


@pytest.fixture(scope="module", autouse=True)
def _drawn_once() -> Iterator[None]:
    """Each test here answers a dry run's cases again in a replay (and the levels' plans
    share their first cases): each case is drawn once (tests/support/draws.py) and
    calibrated once (tests/support/calibrations.py)."""
    with drawing_each_case_once(), calibrating_each_case_once(), pytest.MonkeyPatch.context() as mp:
        # The tests' own sweep_cases draws the cases a run's sweep drew: from the same memo
        # (the planner's draw_case is the memo's while the block runs).
        mp.setattr("verification.certify.envelope.draw_case", case_plan.draw_case)
        yield


def _verify(output: Path, *options: str) -> int:
    return main(["verify", *options, "--output", str(output), "--no-cache"])


def _runs(output: Path) -> list[Path]:
    return sorted((output / "runs").iterdir())


def _journal(run_dir: Path) -> list[AttemptRecord]:
    return read_journal(run_dir / "results.jsonl")


def _summary(output: Path) -> RunSummary:
    return RunSummary.from_json((output / "reports" / "summary.json").read_text())


def _right(record: AttemptRecord) -> str:
    return default_catalog()[record.scaffold].render_answer(record.expected)


def _wrong(record: AttemptRecord) -> str:
    """A wrong answer in the right form: one of the spec's own mutants."""
    spec = default_catalog()[record.scaffold]
    case = record.test_case()
    (mutant, *_) = spec.mutants(case, random.Random(record.case_id))
    return spec.render_answer(mutant)


def _replay(
    output: Path, dry_run: list[AttemptRecord], script: Script, samples: int, *options: str
) -> int:
    """Answer the dry run's cases again, each sample as ``script`` says."""
    lines = [
        script(record, sample)
        for record in dry_run
        if record.epoch == 0 and record.attempt == 1
        for sample in range(samples)
    ]
    replay = output.parent / f"{output.name}-replay.jsonl"
    replay.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return _verify(output, *options, "--provider", "replay", "--replay-file", str(replay))


@pytest.mark.slow
def test_each_level_asks_its_count_and_says_what_it_certifies(tmp_path: Path) -> None:
    spec = default_catalog()["kmp"]
    for level in ("quick", "standard", "thorough"):
        output = tmp_path / level
        assert _verify(output, "kmp", "--provider", "reference", "--level", level) == 0
        (run_dir,) = _runs(output)
        ids = {r.case_id for r in _journal(run_dir)}
        manifest = json.loads((run_dir / "manifest.json").read_text())
        tiers = ["simple"] if level == "quick" else ["simple", "standard", "edge"]
        expected = plan_tier_counts(LEVEL_CASES[level], tiers)  # type: ignore[arg-type]
        planned = manifest["scaffolds"]["kmp"]["case_ids"]
        level_ids = planned[: LEVEL_CASES[level]]
        assert Counter(parse_case_id(i).tier for i in level_ids) == expected  # type: ignore[union-attr]
        # the level's plan asks its cases in plan order until a look decides (a perfect
        # scaffold: at its first deciding look; quick is fixed at its 5)
        plan = plan_for(level)
        decided_on = decide(plan, [1.0] * plan.cap).n
        assert decided_on == (
            5 if level == "quick" else operating_characteristic(plan, 1.0).max_cases
        )
        asked = decided_on
        if plan.sequential:  # a look counts each input once, at its first case
            drawn = plan_cases(["kmp"], seed=manifest["seed"], cases=LEVEL_CASES[level])["kmp"]
            firsts = first_of_each_input(level_ids, {c.id: c.input for c in drawn})
            asked = cases_asked(plan.looks, firsts, decided_on)
        if level == "thorough":  # the envelope search: a dry run climbs to the largest size
            search, verdicts = search_for(spec), dict[int, bool]()
            while (next_size := search.next_size(verdicts)) is not None:
                verdicts[next_size] = True
            sizes = sorted(verdicts)
            assert manifest["sizes"] == {"kmp": sizes}
            assert manifest["envelope"]["kmp"]["tried"] == list(verdicts)
            per_size = manifest["sweep_cases"]
            assert per_size == size_plan(level).cap > CASES_PER_SIZE  # a size may need more
            # each size asks its cases in the sweep's order until its own plan decides
            at_each = decide(size_plan(level), [1.0] * per_size).n
            assert at_each < per_size
            swept = set()
            for size in sizes:
                cases = sweep_cases(spec, [size], seed=manifest["seed"], per_size=per_size)
                firsts = first_of_each_input([c.id for c in cases], {c.id: c.input for c in cases})
                reach = cases_asked(size_plan(level).looks, firsts, at_each)
                swept |= {c.id for c in cases[:reach]}
            assert len(swept) >= at_each * len(sizes)
            assert ids == set(level_ids[:asked]) | swept
        else:
            assert manifest["sizes"] is None and ids == set(level_ids[:asked])
        summary = _summary(output)
        assert summary.level == manifest["level"] == level
        report = (output / "reports" / "kmp.md").read_text()
        assert (f"| Level | {level}" in report) and (
            ("Quick level" in report) == (level == "quick")
        )


def test_the_quick_level_exits_on_errors_only(tmp_path: Path) -> None:
    dry = tmp_path / "dry"
    assert _verify(dry, "kmp", "--provider", "reference", "--level", "quick") == 0
    (run_dir,) = _runs(dry)
    records = _journal(run_dir)
    wrong = tmp_path / "wrong"
    script: Script = lambda record, _: {"case_id": record.case_id, "text": _wrong(record)}  # noqa: E731
    assert _replay(wrong, records, script, 1, "kmp", "--level", "quick") == 0
    assert _summary(wrong).scaffolds["kmp"].status == "FAILED" and not _summary(wrong).certifies
    broken = tmp_path / "broken"
    errors: Script = lambda record, _: {"case_id": record.case_id, "error": "error"}  # noqa: E731
    assert _replay(broken, records, errors, 1, "kmp", "--level", "quick") == 3
    # At the standard level the same wrong answers are a FAILED scaffold: exit 1.
    standard = tmp_path / "standard"
    assert _verify(standard, "kmp", "--provider", "reference", "--cases", "5") == 0
    (standard_run,) = _runs(standard)
    again = tmp_path / "again"
    assert _replay(again, _journal(standard_run), script, 1, "kmp", "--cases", "5") == 1


def _wilson_by_roots(x: float, n: float) -> tuple[float, float]:
    """Wilson bounds solved from their definition, (x/n - p)^2 = z^2 p (1 - p) / n."""
    from scipy.stats import norm

    z = float(norm.ppf(0.975))
    phat, k = x / n, z * z / n
    roots = sorted(float(np.real(r)) for r in np.roots([1 + k, -(2 * phat + k), phat * phat]))
    return max(0.0, roots[0]), min(1.0, roots[1])


def test_samples_count_cases_and_the_interval_is_on_case_scores(tmp_path: Path) -> None:
    samples, cases = 3, 12
    dry = tmp_path / "dry"
    options = ("bfs", "--cases", str(cases), "--samples", str(samples))
    assert _verify(dry, *options, "--provider", "reference") == 0
    (run_dir,) = _runs(dry)
    records = _journal(run_dir)

    def good(record: AttemptRecord) -> int:  # how many of the case's samples are right
        return record.index % (samples + 1)

    def script(record: AttemptRecord, sample: int) -> dict[str, Any]:
        text = _right(record) if sample < good(record) else _wrong(record)
        return {"case_id": record.case_id, "text": text}

    output = tmp_path / "replay"
    _replay(output, records, script, samples, *options)
    firsts = [r for r in records if r.epoch == 0]
    score = sum(Fraction(good(r), samples) for r in firsts)
    data = _summary(output).scaffolds["bfs"]
    assert data.n == cases and data.answers == cases * samples
    assert data.score == pytest.approx(float(score))
    assert data.pass_rate == pytest.approx(float(score) / cases)
    # Wilson's at the effective number of answers: the samples cluster by case.
    answers = np.array([[sample < good(r) for sample in range(samples)] for r in firsts], float)
    effective = design_effect_answers(answers)
    assert data.effective_answers == pytest.approx(effective)
    assert data.interval_95 == pytest.approx(
        _wilson_by_roots(float(score) / cases * effective, effective), abs=1e-9
    )
    assert data.consistent == sum(good(r) in (0, samples) for r in firsts)
    report = (output / "reports" / "bfs.md").read_text()
    assert f"Consistent cases (all {samples} answers agree) | {data.consistent} of {cases}" in (
        report
    )


@pytest.mark.slow
def test_the_size_curve_certifies_up_to_the_last_size_the_script_answers_right(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERIFY_ENVELOPE", "false")  # the thorough level's fixed sweep
    spec = default_catalog()["kmp"]
    sizes = sweep_sizes(spec)
    cutoff, limited = sizes[1], sizes[-1]
    dry = tmp_path / "dry"
    assert _verify(dry, "kmp", "--provider", "reference", "--level", "thorough") == 0
    (run_dir,) = _runs(dry)
    records = _journal(run_dir)

    def script(record: AttemptRecord, _: int) -> dict[str, Any]:
        size = record.size
        assert size is not None
        if size == limited:  # every answer at the largest size cut by the output budget
            return {"case_id": record.case_id, "text": "...", "stop_reason": "max_tokens"}
        right = size <= cutoff
        return {"case_id": record.case_id, "text": _right(record) if right else _wrong(record)}

    output = tmp_path / "replay"
    _replay(output, records, script, 1, "kmp", "--level", "thorough")
    data = _summary(output).scaffolds["kmp"]
    assert data.certified_up_to == cutoff and not data.holds_across_range
    assert data.fails_from == sizes[2] and data.budget_limited_sizes == [limited]
    by_size = {point.size: point for point in data.sweep}
    assert list(by_size) == sizes
    plan = size_plan("thorough", json.loads((run_dir / "manifest.json").read_text())["sweep_cases"])
    for size, point in by_size.items():
        rate = 1.0 if size <= cutoff else 0.0
        # Each size is decided by the plan on its cases in sweep order, where it decides.
        assert point.n == decide(plan, [rate] * plan.cap).n
        assert point.pass_rate == rate
        assert point.interval_95 == pytest.approx(_wilson_by_roots(rate * point.n, point.n))
    report = (output / "reports" / "kmp.md").read_text()
    n = by_size[sizes[2]].n
    failing = by_size[sizes[2]].status
    said = f"up to {in_units(cutoff, spec.size.unit)}; fails from {sizes[2]} ({failing}): "
    assert f"**Size envelope: {md_cell(said)}{n} wrong " in report
    cut = decide(plan, [0.0] * plan.cap)
    assert f"| {limited} | {cut.n} |" in report
    assert f"FAILED at look {cut.look} (budget-limited)" in report


@pytest.mark.slow
def test_a_thorough_run_wrong_from_16_vertices_certifies_its_level_and_fails_from_16(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23's done-when: answers wrong from 16 vertices, some of them cut by the output
    budget, give an envelope up to 12 that fails from 16 and does not hold across the range;
    the status is on the level's cases alone, none of the sweep's."""
    monkeypatch.setenv("VERIFY_ENVELOPE", "false")  # the thorough level's fixed sweep
    spec = default_catalog()["dijkstra"]
    sizes = sweep_sizes(spec)
    assert sizes[-2:] == [12, 16]
    dry = tmp_path / "dry"
    assert _verify(dry, "dijkstra", "--provider", "reference", "--level", "thorough") == 0
    (run_dir,) = _runs(dry)
    records = _journal(run_dir)
    manifest = json.loads((run_dir / "manifest.json").read_text())
    level = {
        f"dijkstra-{tier}-{index:03d}"
        for tier, count in plan_tier_counts(manifest["cases"], manifest["tiers"]).items()
        for index in range(count)
    }
    plan = size_plan("thorough", manifest["sweep_cases"])
    at_16 = [c.id for c in sweep_cases(spec, [16], seed=manifest["seed"], per_size=plan.cap)]
    # At 16 vertices one case in three is right, through the 31st (11 right of the first 35,
    # spread so that no look before 35 decides); of the wrong ones the first five are cut.
    right = {i for k, i in enumerate(at_16) if k % 3 == 0 and k <= 30}
    truncated = set([i for i in at_16 if i not in right][:5])
    decided = decide(plan, [float(i in right) for i in at_16])
    kept = set(at_16[: decided.n])
    cut = len(kept & truncated)
    wrong = decided.n - len(kept & right) - cut
    assert decided.status == "FAILED" and 10 * cut > decided.n

    def script(record: AttemptRecord, _: int) -> dict[str, Any]:
        if record.case_id in truncated:
            return {"case_id": record.case_id, "text": "...", "stop_reason": "max_tokens"}
        bad = record.size == 16 and record.case_id not in right
        return {"case_id": record.case_id, "text": _wrong(record) if bad else _right(record)}

    output = tmp_path / "replay"
    code = _replay(output, records, script, 1, "dijkstra", "--level", "thorough")
    data = _summary(output).scaffolds["dijkstra"]
    assert data.status == "CERTIFIED" and code == 0
    assert 0 < data.n <= len(level) == LEVEL_CASES["thorough"] and data.score == data.n
    assert data.certified_up_to == 12 < 16 and data.fails_from == 16
    assert not data.holds_across_range and data.budget_limited_sizes == [16]
    by_size = {point.size: point for point in data.sweep}
    assert [by_size[s].status for s in sizes] == ["CERTIFIED"] * 3 + ["FAILED"]
    assert (by_size[16].wrong, by_size[16].truncated, by_size[16].answers) == (
        wrong,
        cut,
        decided.n,
    )
    sentence = f"up to 12 vertices; fails from 16 (FAILED): {wrong} wrong and {cut} truncated"
    sentence += f" of {decided.n}"
    sentence += ", budget-limited"  # decided at its look of 40: "24 wrong and 5 truncated of 40"
    assert data.envelope == sentence
    shown = md_cell(sentence)  # as Markdown: its parentheses escaped
    assert f"**Size envelope: {shown}.**" in (output / "reports" / "dijkstra.md").read_text()
    assert shown in (output / "reports" / "summary.md").read_text()


def test_sizes_sweep_chosen_sizes_at_any_level(tmp_path: Path) -> None:
    output = tmp_path / "out"
    code = _verify(output, "kmp", "--provider", "reference", "--level", "quick", "--sizes", "8,12")
    assert code == 0
    data = _summary(output).scaffolds["kmp"]
    assert [p.size for p in data.sweep] == [8, 12] and data.holds_across_range
    assert _verify(tmp_path / "bad", "kmp", "--provider", "reference", "--sizes", "1000") == 2


class _AcceptsAnything:
    """A broken validator: every answer passes."""

    kind = "exact"
    tolerances: ClassVar[dict[str, Any]] = {}

    def validate(self, actual: Any, expected: Any, *, case: Any = None) -> ValidationResult:
        return ValidationResult(True, "accepted")


def test_a_validator_miss_blocks_certified_and_tops_the_reports(tmp_path: Path) -> None:
    spec = default_catalog()["kmp"]
    broken = dataclasses.replace(spec, validator=_AcceptsAnything())  # type: ignore[arg-type]
    catalog = Catalog([broken])
    settings = load_settings(results_dir=tmp_path, cases=10, provider="reference")
    run = asyncio.run(VerificationRunner(settings, catalog=catalog).run(["kmp"]))
    results = run.results["kmp"]
    assert (results.status, results.incomplete_reason) == ("INCOMPLETE", "validator miss")
    assert results.pass_rate == 1.0  # every answer right, and still not CERTIFIED
    assert results.calibration is not None and results.calibration.mutants_rejected == 0
    write_run_reports(run.paths, run.manifest, run.results)
    summary = _summary(tmp_path)
    assert summary.validator_misses == ["kmp"]
    assert summary.scaffolds["kmp"].calibration is not None
    assert summary.scaffolds["kmp"].calibration.misses == results.calibration.misses > 0
    report = (tmp_path / "reports" / "kmp.md").read_text()
    banner = next(line for line in report.splitlines() if line.startswith("> **"))
    assert banner.startswith("> **Harness defect: validator miss.**")
    assert "**Harness defect: validator miss**" in (tmp_path / "reports" / "summary.md").read_text()


def test_the_dry_run_of_the_real_validators_misses_nothing(tmp_path: Path) -> None:
    assert _verify(tmp_path, "kmp", "bfs", "--provider", "reference", "--cases", "10") == 0
    for name, data in _summary(tmp_path).scaffolds.items():
        assert data.calibration is not None and data.calibration.misses == 0, name
        assert data.calibration.mutants > 0, name


_SECRET = "a-private-cert-seed-0123456789"


def test_cert_mode_draws_from_the_private_seed_and_writes_only_its_hash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    options = ("kmp", "--provider", "reference", "--level", "standard")
    public = tmp_path / "public"
    assert _verify(public, *options) == 0
    monkeypatch.setenv("VERIFY_CERT_SEED", _SECRET)
    private = tmp_path / "private"
    assert _verify(private, *options, "--mode", "cert") == 0
    (run_dir,) = _runs(private)
    manifest = json.loads((run_dir / "manifest.json").read_text())
    digest = hashlib.sha256(_SECRET.encode()).hexdigest()
    assert manifest["seed_private"] and manifest["seed_sha256"] == digest
    assert manifest["seed"] == 0 and manifest["settings"]["cert_seed_set"] is True
    summary = _summary(private)
    assert summary.seed_private and summary.seed_sha256 == digest
    assert f"a private cert seed, sha256 `{digest}`" in (private / "reports" / "kmp.md").read_text()
    for path in private.rglob("*"):
        if path.is_file():
            assert _SECRET not in path.read_bytes().decode("utf-8", "replace"), path
    (public_run,) = _runs(public)
    inputs = {json.dumps(r.input, sort_keys=True) for r in _journal(public_run)}
    assert not inputs & {json.dumps(r.input, sort_keys=True) for r in _journal(run_dir)}
    # A resume must be given the same seed: without it, or with another, it is refused.
    monkeypatch.delenv("VERIFY_CERT_SEED")
    resume = ("--resume", run_dir.name, "--mode", "cert", "--provider", "reference")
    assert _verify(private, *resume) == 2
    monkeypatch.setenv("VERIFY_CERT_SEED", _SECRET[::-1])
    assert _verify(private, *resume) == 2
    monkeypatch.setenv("VERIFY_CERT_SEED", _SECRET)
    assert _verify(private, *resume) == 0


def test_a_short_cert_seed_is_refused_without_showing_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("VERIFY_CERT_SEED", "s3cr3t")
    assert _verify(tmp_path, "kmp", "--provider", "reference", "--mode", "cert") == 2
    out, err = capsys.readouterr()
    assert "VERIFY_CERT_SEED" in err and "s3cr3t" not in out + err


def test_infrastructure_errors_are_shown_as_a_worst_case_rate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = 20
    dry = tmp_path / "dry"
    assert _verify(dry, "kmp", "--cases", str(cases), "--provider", "reference") == 0
    (run_dir,) = _runs(dry)
    records = _journal(run_dir)
    lost = {r.case_id for r in records if r.epoch == 0}
    lost = set(sorted(lost)[:2])  # two cases the infrastructure never answers

    def script(record: AttemptRecord, _: int) -> dict[str, Any]:
        if record.case_id in lost:
            return {"case_id": record.case_id, "error": "error"}
        return {"case_id": record.case_id, "text": _right(record)}

    output = tmp_path / "replay"
    capsys.readouterr()
    _replay(output, records, script, 1, "kmp", "--cases", str(cases))
    data = _summary(output).scaffolds["kmp"]
    assert (data.n, data.infra_errors, data.pass_rate) == (cases - 2, 2, 1.0)
    assert data.worst_case_pass_rate == pytest.approx((cases - 2) / cases)
    shown = f"infra errors 2: worst case {100 * (cases - 2) / cases:.1f}% had they failed"
    assert shown in capsys.readouterr().out
    summary = (output / "reports" / "summary.md").read_text()
    assert f"| 2 (worst case {100 * (cases - 2) / cases:.1f}%) |" in summary
