"""A plugin that fails while a run draws its cases, run in process: its scaffold is
INCOMPLETE, and its error is what the terminal and the reports name (a helper's hunt: the
journal held the error, but reading it back dropped each line as "the input of case ... is
none of" the scaffold, with a warning per case, and the reports said "infra errors 0").
So is a reference whose answer breaks the plugin's own answer schema: the plugin's error,
not every model's failure. The plugin's spec is guarded as loading it does
(:func:`guarded_spec`), nothing installed."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
from pathlib import Path
from typing import Any

import pytest

from verification.cases import Tier
from verification.catalog import Catalog, default_catalog
from verification.catalog.drawing import draw_case
from verification.catalog.plugins import guarded_spec
from verification.catalog.spec import _UNBOUND_GENERIC_MUTANTS, ScaffoldSpec
from verification.certify.results import ScaffoldResults
from verification.cli.run_output import print_infra_reasons, print_summary
from verification.config import load_settings
from verification.errors import ConfigurationError, PluginError
from verification.reports.generator import write_run_reports
from verification.runner import VerificationRunner
from verification.validators.base import ValidationResult, Validator

DISTRIBUTION = "demo-scaffolds"
BASE = default_catalog()["kmp"]
"""A cheap spec to make plugins of (its name keeps its Markdown file found)."""


def _plugin(**changes: Any) -> ScaffoldSpec:
    return guarded_spec(dataclasses.replace(BASE, **changes), DISTRIBUTION)


def _run(spec: ScaffoldSpec, results_dir: Path) -> ScaffoldResults:
    catalog = Catalog([spec], origins={spec.name: DISTRIBUTION})
    settings = load_settings(results_dir=results_dir, cases=10, provider="reference")
    run = asyncio.run(VerificationRunner(settings, catalog=catalog).run([spec.name]))
    write_run_reports(run.paths, run.manifest, run.results)
    return run.results[spec.name]


def _raises(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    raise RuntimeError("gen boom")


def test_a_generator_that_raises_is_named_as_the_reason_its_scaffold_is_incomplete(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    with caplog.at_level(logging.WARNING):
        results = _run(_plugin(generator=_raises), tmp_path)
    assert "none of" not in caplog.text
    assert results.status == "INCOMPLETE"
    assert results.infra_errors == results.planned > 0
    print_infra_reasons([results])
    said = capsys.readouterr().out.splitlines()
    # One line per tier (one cause), each naming the plugin and its error.
    assert len(said) == len({result.test_case.tier for result in results.results}) > 1
    assert all(DISTRIBUTION in line and "RuntimeError: gen boom" in line for line in said)
    report = (tmp_path / "reports" / f"{BASE.name}.md").read_text(encoding="utf-8")
    assert "RuntimeError: gen boom" in report


def _with_extra_key(**test_input: Any) -> dict[str, Any]:
    return {**BASE.reference(**test_input), "extra": [1]}


def _of_wrong_type(**test_input: Any) -> dict[str, Any]:
    return {key: str(value) for key, value in BASE.reference(**test_input).items()}


@pytest.mark.parametrize("reference", [_with_extra_key, _of_wrong_type])
def test_a_reference_that_breaks_its_own_schema_is_the_plugin_s_error(
    reference: Any, tmp_path: Path
) -> None:
    spec = _plugin(reference=reference)
    case_input = BASE.generator(random.Random(1), "simple", BASE.sizes["simple"])
    with pytest.raises(PluginError) as raised:
        spec.reference(**case_input)
    assert (raised.value.distribution, raised.value.scaffold) == (DISTRIBUTION, BASE.name)
    assert "its reference's answer does not fit its answer schema" in str(raised.value)
    # Before: every dry-run answer failed its schema, FAILED as the model's failure.
    results = _run(spec, tmp_path)
    assert results.status == "INCOMPLETE" and results.n == 0
    assert results.infra_errors == results.planned > 0
    report = (tmp_path / "reports" / f"{BASE.name}.md").read_text(encoding="utf-8")
    assert "does not fit its answer schema" in report


def _raises_on_edge(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    if tier == "edge":
        raise RuntimeError("edge boom")
    return BASE.generator(rng, tier, size)


def test_a_tier_that_cannot_be_drawn_keeps_its_places_in_a_sequential_plan(
    tmp_path: Path,
) -> None:
    # A helper's hunt: the standard level's plan listed a plugin's undrawable cases after all
    # the others, so no look's window held one; the first look decided on the two tiers that
    # could be drawn and the scaffold CERTIFIED, "infra errors 36" beside it.
    orders, statuses = {}, {}
    for name, generator in (("whole", BASE.generator), ("no edge", _raises_on_edge)):
        spec = _plugin(generator=generator)
        catalog = Catalog([spec], origins={spec.name: DISTRIBUTION})
        settings = load_settings(results_dir=tmp_path / name, provider="reference")
        assert settings.certification_plan.sequential
        run = asyncio.run(VerificationRunner(settings, catalog=catalog).run([spec.name]))
        orders[name] = run.manifest.scaffolds[spec.name].case_ids
        statuses[name] = run.results[spec.name]
    assert orders["no edge"] == orders["whole"]  # each undrawable case in its place
    assert statuses["whole"].status == "CERTIFIED"
    broken = statuses["no edge"]
    assert broken.status == "INCOMPLETE"
    assert broken.infra_errors > broken.planned // 10
    assert all(r.test_case.tier == "edge" for r in broken.results if r.outcome == "infra_error")


def _raises_on_four_edge_cases() -> Any:
    failed = [0]

    def generate(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
        if tier == "edge" and failed[0] < 4:  # the plan draws a plugin's cases in order
            failed[0] += 1
            raise RuntimeError("edge boom")
        return BASE.generator(rng, tier, size)

    return generate


@pytest.mark.parametrize("envelope", [False, True], ids=["looks", "envelope search"])
def test_a_few_undrawable_cases_read_alike_with_and_without_an_envelope_search(
    tmp_path: Path, envelope: bool
) -> None:
    # A helper's hunt: the envelope search's first stage read the level in the drawn cases'
    # order, the undrawable ones left out of its windows but counted after: INCOMPLETE,
    # where the same run without the search certified.
    spec = _plugin(generator=_raises_on_four_edge_cases())
    catalog = Catalog([spec], origins={spec.name: DISTRIBUTION})
    settings = load_settings(results_dir=tmp_path, provider="reference", envelope=envelope)
    run = asyncio.run(VerificationRunner(settings, catalog=catalog).run([spec.name]))
    results = run.results[spec.name]
    assert results.infra_errors == 4 and results.status == "CERTIFIED"


def test_each_scaffold_s_plan_lists_its_own_undrawable_cases_alone(tmp_path: Path) -> None:
    # Two plugins each failing to draw its edge tier: each manifest lists its own cases.
    specs = [
        _plugin(generator=_raises_on_edge),
        guarded_spec(
            dataclasses.replace(
                default_catalog()["lcs"], generator=_raises_on_every_edge_of("lcs")
            ),
            DISTRIBUTION,
        ),
    ]
    catalog = Catalog(specs, origins={spec.name: DISTRIBUTION for spec in specs})
    settings = load_settings(results_dir=tmp_path, provider="reference")
    run = asyncio.run(VerificationRunner(settings, catalog=catalog).run([s.name for s in specs]))
    for spec in specs:
        ids = run.manifest.scaffolds[spec.name].case_ids
        assert all(i.startswith(f"{spec.name}-") for i in ids)
        assert any("-edge-" in i for i in ids)
        assert run.results[spec.name].status == "INCOMPLETE"


def _raises_on_every_edge_of(name: str) -> Any:
    base = default_catalog()[name]

    def generate(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
        if tier == "edge":
            raise RuntimeError("edge boom")
        return base.generator(rng, tier, size)

    return generate


CAP = 30
"""Where :func:`_capped` stops growing its inputs: inside kmp's simple and standard ranges."""


def _capped(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """kmp's generator, drawing no input past :data:`CAP` whatever size it is asked for."""
    return BASE.generator(rng, tier, min(size, CAP))


def test_a_generator_that_ignores_its_size_claims_no_size_in_a_sweep(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its inputs measured other than asked are the plugin's error, each case's: a sweep of
    such a plugin read "certified up to" sizes no input had, where only ``check`` (which
    reads every size back) said why."""
    spec = _plugin(generator=_capped)
    past = spec.size.ranges["standard"][1]
    assert past > CAP
    draw_case(spec, "standard", 0, seed=1, size=CAP)
    with pytest.raises(PluginError, match=f"of size {CAP} when asked for size {past}") as raised:
        draw_case(spec, "standard", 0, seed=1, size=past)
    assert DISTRIBUTION in str(raised.value) and spec.size.unit in str(raised.value)
    catalog = Catalog([spec], origins={spec.name: DISTRIBUTION})
    settings = load_settings(results_dir=tmp_path, cases=6, provider="reference", sizes=[CAP, past])
    run = asyncio.run(VerificationRunner(settings, catalog=catalog).run([spec.name]))
    results = run.results[spec.name]
    points = {point.size: point for point in results.size_points}
    assert points[CAP].status == "CERTIFIED"
    assert points[past].status == "INCOMPLETE" and points[past].n == 0
    assert results.certified_up_to == CAP
    lost = [r for r in results.results if r.outcome == "infra_error"]
    assert lost and all(f"when asked for size {past}" in (r.validation_message or "") for r in lost)
    # The status line counts the level's errors, and says how many more the sizes had: a
    # bare "infra errors 0" above the sizes' listed errors read as a contradiction (hunt ff).
    print_summary([results], None, tmp_path / "summary.md")
    (line,) = [said for said in capsys.readouterr().out.splitlines() if "(n=" in said]
    swept = len(lost) - results.infra_errors
    assert f"infra errors {results.infra_errors}; {swept} more at the swept sizes" in line


def _own_reference(**test_input: Any) -> dict[str, Any]:
    """kmp's answer from a plugin's own module (not the harness's reference package)."""
    return BASE.reference(**test_input)


def test_code_mode_s_dry_run_refuses_a_plugin_s_scaffold_before_any_request(
    tmp_path: Path,
) -> None:
    """Hunt ff: every program of a plugin's scaffold was an unanswerable case (no program is
    built from a plugin's reference), 180 infrastructure errors and exit 3 after the run
    began; refused up front, it names the way that does check code mode."""
    spec = _plugin(reference=_own_reference)
    catalog = Catalog([spec], origins={spec.name: DISTRIBUTION})
    settings = load_settings(results_dir=tmp_path, cases=3, provider="reference", answer="code")
    runner = VerificationRunner(settings, catalog=catalog)
    with pytest.raises(ConfigurationError, match=f"{spec.name} has a plugin's reference") as raised:
        asyncio.run(runner.run([spec.name]))
    assert "--provider replay" in str(raised.value)
    assert not any(path.read_text() for path in tmp_path.glob("runs/*/results.jsonl"))


class _RaisingOnWrong(Validator):
    """A plugin's validator that raises on a wrong answer (its author's ``assert``)."""

    kind = "raising"

    def validate(self, actual: Any, expected: Any, *, case: Any = None) -> ValidationResult:
        if actual != expected:
            raise ValueError("not the expected answer")
        return ValidationResult(True, "")


def test_a_plugin_validator_that_fails_on_wrong_answers_is_a_calibration_miss(
    tmp_path: Path,
) -> None:
    """Hunt ff: counted as rejections, its failures on the generic mutants let a dry run
    certify it ("generic mutants rejected 118/118"), while a real run made every wrong
    answer an uncounted infrastructure error."""
    spec = _plugin(validator=_RaisingOnWrong(), mutants=_UNBOUND_GENERIC_MUTANTS)
    assert spec.generic_mutants
    results = _run(spec, tmp_path)
    calibration = results.calibration
    assert calibration is not None and calibration.validator_errors > 0
    assert calibration.misses >= calibration.validator_errors
    assert (results.status, results.incomplete_reason) == ("INCOMPLETE", "validator miss")
    assert calibration.first_misses[0].kind == "validator error"
    report = (tmp_path / "reports" / f"{BASE.name}.md").read_text(encoding="utf-8")
    assert "the validator failed on an answer (its plugin error" in report


def test_a_resume_whose_plugin_now_fails_to_draw_goes_on_as_a_run_does(tmp_path: Path) -> None:
    """The resume's check that journalled cases draw as they did (hunt hh) compares the
    cases the plan drew: a plugin that cannot draw one now leaves it among the plan's
    failures, the run's to report case by case (an infrastructure error), not a refusal
    of the whole resume."""
    first = _run(_plugin(), tmp_path)
    (run,) = (tmp_path / "runs").iterdir()
    journal = run / "results.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    journal.write_text("".join(lines[:-2]), encoding="utf-8")  # two cases left to ask
    spec = _plugin(generator=_raises)
    catalog = Catalog([spec], origins={spec.name: DISTRIBUTION})
    settings = load_settings(results_dir=tmp_path, cases=10, provider="reference")
    resumed = asyncio.run(
        VerificationRunner(settings, catalog=catalog).run([spec.name], resume=run.name)
    )
    results = resumed.results[spec.name]
    assert first.status == "CERTIFIED"
    assert results.infra_errors >= 2  # the two left, which the plugin no longer draws
