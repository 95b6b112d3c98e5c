"""Tolerances from one place: what an Output Format says is accepted is exactly what the spec
applies, and ``check`` fails when they differ (issue 13 item 2).

Every registered scaffold passes the ``stated tolerances`` check in
``tests/catalog/test_scaffold_contract.py``; here specs and scaffolds are built to break it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tests.support.checked import checked
from verification.catalog import default_catalog
from verification.catalog.spec import ScaffoldSpec
from verification.certify.scaffold_words import stated_tolerances
from verification.config import packaged_scaffolds_dir
from verification.llm.prompt_builder import PromptBuilder
from verification.validators.base import Tolerance
from verification.validators.numeric_tolerance import NumericToleranceValidator

MONTE_CARLO = default_catalog()["monte_carlo"]
STATED = "It is accepted\n  within 0.0001 of the exact value"
"""The sentence monte_carlo.md's `estimate` bullet states its tolerance with."""


def _markdown() -> str:
    return PromptBuilder(packaged_scaffolds_dir()).get_scaffold_content(MONTE_CARLO)


def _verdict(spec: ScaffoldSpec) -> str | None:
    """The ``stated tolerances`` check's detail when it fails, None when it passes."""
    result = checked(spec)["stated tolerances"]
    return None if result.ok else result.detail


def _with_markdown(tmp_path: Path, text: str) -> ScaffoldSpec:
    path = tmp_path / "monte_carlo.md"
    path.write_text(text, encoding="utf-8")
    return dataclasses.replace(MONTE_CARLO, markdown=path)


def test_the_packaged_scaffold_states_what_its_spec_applies() -> None:
    assert STATED in _markdown()
    assert _verdict(MONTE_CARLO) is None


def test_check_fails_when_the_stated_figure_differs_from_the_spec(tmp_path: Path) -> None:
    spec = _with_markdown(tmp_path, _markdown().replace(STATED, STATED.replace("0.0001", "0.001")))
    detail = _verdict(spec)
    assert detail is not None
    assert "estimate: the Output Format states absolute 0.001" in detail
    assert "the spec applies absolute 0.0001" in detail


def test_check_fails_when_the_spec_adds_a_relative_term_the_scaffold_does_not_state() -> None:
    """Defect 6: 54764950.01 passed for 54764950.0 under "within 0.0001"."""
    loose = NumericToleranceValidator(tolerance=1e-4, field="estimate", relative=1e-9)
    detail = _verdict(dataclasses.replace(MONTE_CARLO, validator=loose))
    assert detail is not None and "relative 1e-09" in detail


def test_check_fails_when_a_toleranced_field_states_nothing(tmp_path: Path) -> None:
    spec = _with_markdown(tmp_path, _markdown().replace(STATED, "It is compared"))
    detail = _verdict(spec)
    assert detail is not None and "states no tolerance for it" in detail


def test_check_fails_on_a_tolerance_the_spec_does_not_apply(tmp_path: Path) -> None:
    markdown = _markdown().replace(
        "- Exactly this one key.", "- Exactly this one key, accepted within 0.5 of nothing."
    )
    assert markdown != _markdown()
    detail = _verdict(_with_markdown(tmp_path, markdown))
    assert detail is None  # a bullet that names no field is prose, not a statement
    markdown = _markdown().replace(
        "- Exactly this one key.", "- `samples`: is accepted within 0.5 of the input."
    )
    detail = _verdict(_with_markdown(tmp_path, markdown))
    assert detail is not None and "samples" in detail and "does not apply" in detail


def test_check_fails_on_a_tolerance_tighter_than_the_rounding_asked(tmp_path: Path) -> None:
    tight = NumericToleranceValidator(tolerance=1e-7, field="estimate")
    markdown = _markdown().replace(STATED, STATED.replace("0.0001", "0.0000001"))
    spec = dataclasses.replace(_with_markdown(tmp_path, markdown), validator=tight)
    detail = _verdict(spec)
    assert detail is not None and "tighter than the rounding to 6 decimal places" in detail


@pytest.mark.parametrize(
    ("output_format", "stated"),
    [
        ("- `x`: a number. It is accepted within 0.001 of the optimum.", {"x": Tolerance(1e-3)}),
        (
            "- `x`: a number, accepted\n  within 5e-8 of it.\n- `y`: an integer.",
            {"x": Tolerance(5e-8)},
        ),
        (
            "- `x`: accepted within 0.01 (or a relative tolerance of 1e-6) of it.",
            {"x": Tolerance(0.01, 1e-6)},
        ),
        ("- `x`: a number.\n\nAny answer is accepted within 0.1.", {}),
    ],
)
def test_stated_tolerances_reads_each_fields_bullet(
    output_format: str, stated: dict[str, Tolerance]
) -> None:
    assert stated_tolerances(output_format) == stated
