"""Every spec against its scaffold file and its own reference: the catalog's invariants."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from verification.config import packaged_scaffolds_dir
from verification.generators.base import TIERS, generate_case
from verification.llm.prompt_builder import REQUIRED_SECTIONS, ScaffoldParser
from verification.registry import DEFAULT_SEED, SPECS
from verification.spec import ScaffoldSpec

SCAFFOLDS = packaged_scaffolds_dir()
NAMES = sorted(SPECS)
parser = ScaffoldParser()


def test_every_scaffold_file_has_a_spec_and_every_spec_a_file() -> None:
    files = {p.relative_to(SCAFFOLDS).as_posix() for p in SCAFFOLDS.rglob("*.md")}
    declared = {spec.scaffold_file for spec in SPECS.values()}
    assert files - declared == set(), "scaffold files without a spec"
    assert declared - files == set(), "specs without a scaffold file"


@pytest.mark.parametrize("name", NAMES)
def test_scaffold_has_the_required_sections_in_order(name: str) -> None:
    text = (SCAFFOLDS / SPECS[name].scaffold_file).read_text(encoding="utf-8")
    sections = parser.check(text, source=name)
    order = [key for key in sections if key in REQUIRED_SECTIONS]
    assert order == list(REQUIRED_SECTIONS)
    assert "```json" in sections["output_format"], "the Output Format shows its JSON shape"


@pytest.mark.parametrize("name", NAMES)
def test_worked_example_is_what_the_reference_computes(name: str) -> None:
    spec = SPECS[name]
    text = (SCAFFOLDS / spec.scaffold_file).read_text(encoding="utf-8")
    inputs = parser.tagged_blocks(text, "worked-example-input")
    answers = parser.tagged_blocks(text, "worked-example-answer")
    assert len(inputs) == 1 and len(answers) == 1, "one tagged input and one tagged answer"
    example_input, example_answer = json.loads(inputs[0]), json.loads(answers[0])
    assert json.loads(json.dumps(spec.reference(**example_input))) == example_answer
    spec.answer_schema.model_validate_json(json.dumps(example_answer), strict=True)


def _all_tier_cases(spec: ScaffoldSpec, count: int = 12) -> list:  # type: ignore[type-arg]
    return [generate_case(spec, t, k, seed=DEFAULT_SEED) for t in TIERS for k in range(count)]


@pytest.mark.parametrize("name", NAMES)
def test_reference_answers_pass_schema_and_validator_in_every_tier(name: str) -> None:
    spec = SPECS[name]
    for case in _all_tier_cases(spec):
        spec.answer_schema.model_validate_json(json.dumps(case.expected), strict=True)
        verdict = spec.validator.validate(case.expected, case.expected, case=case)
        assert verdict.is_valid, (case.id, verdict.message)
        json.dumps(case.input, allow_nan=False)  # plain JSON data, no NaN


@pytest.mark.parametrize("name", NAMES)
def test_the_dry_run_answer_parses_back_to_the_reference(name: str) -> None:
    from verification.llm.response_parser import ResponseParser

    spec = SPECS[name]
    for case in _all_tier_cases(spec, 4):
        parsed = ResponseParser().extract(name, spec.render_answer(case.expected))
        assert parsed.ok and parsed.answer == case.expected and parsed.leniency == ()


@pytest.mark.parametrize("name", NAMES)
def test_spec_is_sound(name: str) -> None:
    spec = SPECS[name]
    assert spec.name == name and spec.max_output_tokens >= 1024
    assert spec.title and spec.description
    assert spec.reference.__doc__ and "Parameters" in spec.reference.__doc__
    assert all(spec.sizes[tier] >= 1 for tier in TIERS)


def _suite_digest(hash_seed: str) -> str:
    code = (
        "import json,hashlib\n"
        "from verification.runner import plan_cases\n"
        "from verification.registry import SPECS\n"
        "cases = plan_cases(sorted(SPECS), seed=7, cases=10)\n"
        "data = {n: [c.model_dump() for c in cs] for n, cs in cases.items()}\n"
        "print(hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest())\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_suites_do_not_depend_on_the_hash_seed() -> None:
    assert _suite_digest("1") == _suite_digest("4242")


def test_case_k_does_not_depend_on_how_many_cases_are_asked() -> None:
    from verification.runner import plan_cases

    few = plan_cases(NAMES, seed=3, cases=5)
    many = plan_cases(NAMES, seed=3, cases=40)
    for name in NAMES:
        by_id = {case.id: case for case in many[name]}
        for case in few[name]:
            assert by_id[case.id] == case


def test_importing_the_registry_loads_no_sdk_numpy_or_networkx() -> None:
    code = (
        "import sys, verification.registry, verification.cli\n"
        "heavy = {'numpy', 'networkx', 'anthropic', 'openai', 'scipy'} & set(sys.modules)\n"
        "print(sorted(heavy))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_scaffolds_dir_is_the_checkout_or_the_package_copy() -> None:
    assert SCAFFOLDS.is_dir()
    assert any(SCAFFOLDS.rglob("*.md"))
    assert Path(SCAFFOLDS, SPECS["dijkstra"].scaffold_file).is_file()
