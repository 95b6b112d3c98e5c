"""Every registered scaffold reaches past its comfort zone (issue 25 item 1): it declares a
stress range reaching four times its standard maximum, or says why it stops short; at the
top of that range its generator draws the size asked, the reference's answer is judged
right, fits the answer schema, and its written answer fits the budget of that size; and a
dry run there certifies, as any dry run does (it certifies no model)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.support.draws import sharing_draws
from verification.cases import TestCase
from verification.catalog import default_catalog
from verification.catalog.drawing import draw_case
from verification.catalog.spec import STRESS_TIERS, ScaffoldSpec
from verification.certify.checks import fits_schema
from verification.config import load_settings
from verification.runner import VerificationRunner
from verification.store.pricing import estimate_tokens

CATALOG = default_catalog()
STRESSED = [name for name, spec in CATALOG.items() if spec.size.stress is not None]


@pytest.mark.parametrize("name", list(CATALOG))
def test_every_scaffold_declares_a_stress_range_or_says_why_it_stops_short(name: str) -> None:
    assert CATALOG[name].size.stress_problem() is None


def _top_cases(spec: ScaffoldSpec) -> list[TestCase]:
    assert spec.size.stress is not None
    top = spec.size.stress[1]
    return [
        draw_case(spec, tier, index, seed=7, size=top) for tier in STRESS_TIERS for index in (0, 1)
    ]


@pytest.mark.parametrize("name", STRESSED)
def test_the_top_stress_size_draws_and_its_reference_answer_is_judged_right(name: str) -> None:
    spec = CATALOG[name]
    for case in _top_cases(spec):
        assert spec.size.measure(case.input) == case.size, case.id
        assert fits_schema(spec, case.expected) is None, case.id
        verdict = spec.validator.validate(case.expected, case.expected, case=case)
        assert verdict.is_valid, (case.id, verdict)
        written = spec.render_answer(case.expected)
        assert estimate_tokens(written) < spec.max_output_tokens_at(case.size), case.id


@pytest.mark.slow
@pytest.mark.parametrize("name", STRESSED)
def test_a_dry_run_at_the_top_stress_size_certifies(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sharing_draws(monkeypatch)  # its first cases are the budgets' and stress tests' too
    spec = CATALOG[name]
    assert spec.size.stress is not None
    # The 30 cases at which the sequential plan decides a perfect run (drawing its whole
    # cap of top-size cases would cost minutes for a few scaffolds, sudoku's above all).
    settings = load_settings(provider="reference", results_dir=tmp_path, cases=30)
    result = asyncio.run(
        VerificationRunner(settings).run([name], tiers=("standard",), size=spec.size.stress[1])
    )
    assert result.results[name].status == "CERTIFIED"
