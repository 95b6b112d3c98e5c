"""The Code Format of every registered scaffold, the spec's code-mode declarations, and the
reference programs a code-mode dry run answers with."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from verification.catalog import default_catalog
from verification.catalog.code_format import (
    CODE_FORMAT_VERSION,
    code_answer,
    code_format,
    worked_case,
)
from verification.catalog.docs import catalog_markdown
from verification.catalog.reference_programs import bundled_modules, reference_program
from verification.catalog.spec import ScaffoldSpec
from verification.errors import SpecError
from verification.registry import get_spec

SPECS = [default_catalog().get_spec(name) for name in default_catalog()]


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_every_code_format_states_the_contract_and_the_scaffold_s_rules(spec: ScaffoldSpec) -> None:
    text = code_format(spec, python_version="3.11", time_limit="LIMIT")
    case = worked_case(spec)
    assert "def solve(input: dict) -> dict:" in text and "Python 3.11" in text
    assert "LIMIT" in text and "standard library only" in text
    # The suite's largest size is stated (the ladder's top; no tier's own size passes it).
    largest = max(spec.code_ladder)
    assert f"the largest of size {largest:,} ({spec.size.unit}:" in text
    assert all(size <= largest for size in spec.sizes.values())
    assert "never `3.0`" in text and "`None`" in text and "keeps no state" in text
    *_, reply = text.rstrip().split("\n\n")  # the last paragraph: the reply's one block
    assert "ONE fenced ```python block" in reply and "write nothing after it" in reply
    assert "takes the place of the ```json block" in reply  # the scaffold's own ending
    if spec.code_rules:  # ruled fields are exact, whatever else a trace may answer
        assert "whatever other forms the scaffold accepts from a hand trace" in text
    assert json.dumps(case.input, allow_nan=False) in text
    shown = {
        k: v for k, v in spec.reference(**case.input).items() if k not in spec.code_dropped_fields
    }
    assert json.dumps(json.loads(json.dumps(shown)), allow_nan=False) in text
    for key, rule in spec.code_rules.items():
        assert f"- `{key}`: {rule}" in text
    for key in spec.code_dropped_fields:
        assert f"- `{key}`: not asked" in text
    for key in spec.code_rules.keys() | spec.code_dropped_fields.keys():
        assert key in spec.answer_schema.model_fields
    assert all(size > 0 for size in spec.code_ladder)


def test_a_declaration_naming_no_field_or_a_field_twice_is_refused() -> None:
    spec = get_spec("binary_search")
    with pytest.raises(SpecError, match="not a field"):
        dataclasses.replace(spec, code_rules={"prob": "x"})
    with pytest.raises(SpecError, match="both ruled and dropped"):
        dataclasses.replace(spec, code_dropped_fields={"probes": "a trace's"})
    with pytest.raises(SpecError, match="every answer field"):
        dataclasses.replace(
            spec,
            code_rules={},
            code_dropped_fields=dict.fromkeys(["index", "found", "probes"], "x"),
        )
    with pytest.raises(SpecError, match="positive"):
        dataclasses.replace(spec, code_sizes=(0,))
    # A string is no ladder: '1000' was refused as "code size '1'" (hunt ff).
    with pytest.raises(SpecError, match="code_sizes must be a sequence of ints, got str"):
        dataclasses.replace(spec, code_sizes="1000")  # type: ignore[arg-type]


def test_a_dropped_field_is_judged_as_the_reference_s() -> None:
    spec = dataclasses.replace(
        get_spec("binary_search"), code_rules={}, code_dropped_fields={"probes": "by hand only"}
    )
    case = worked_case(spec)
    returned = {k: v for k, v in case.expected.items() if k != "probes"}
    assert code_answer(spec, returned, case.expected) == case.expected
    assert code_answer(spec, {**returned, "probes": [99]}, case.expected) == case.expected
    assert "- `probes`: not asked (by hand only)" in code_format(
        spec, python_version="3.11", time_limit="1 s"
    )


def test_a_reference_importing_outside_the_standard_library_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("inspect.getsource", lambda module: "import numpy\n")
    with pytest.raises(SpecError, match="numpy, not of the standard library"):
        bundled_modules.__wrapped__("verification.reference.greedy")


@pytest.mark.slow
def test_every_reference_program_runs_with_the_standard_library_alone() -> None:
    """Each reference program, in an isolated interpreter without site-packages, returns
    the reference's answer on the spec's worked case."""
    programs = {spec.name: reference_program(spec) for spec in SPECS}
    cases = {spec.name: worked_case(spec).input for spec in SPECS}
    driver = (
        "import json, sys\n"
        "data = json.load(sys.stdin)\n"
        "out = {}\n"
        "for name, source in data['programs'].items():\n"
        "    space = {}\n"
        "    exec(compile(source, name, 'exec'), space)\n"
        "    out[name] = space['solve'](data['cases'][name])\n"
        "print(json.dumps(out))\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", driver],
        input=json.dumps({"programs": programs, "cases": cases}),
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    answers = json.loads(done.stdout)
    for spec in SPECS:
        expected = json.loads(json.dumps(spec.reference(**cases[spec.name])))
        assert answers[spec.name] == expected, spec.name


def test_every_registered_scaffold_is_audited_for_its_code_mode_fields(
    scaffold_tests: dict[str, ModuleType],
) -> None:
    """The audit of issue 26 item 1, kept by each scaffold's test module as
    ``ONE_WAY_FIELDS``: the answer fields a program is told an exact rule for or that are
    dropped (an order or tie only one way of running determines, an iteration count, a
    value computed from given draws, a form the Output Format fixes); every other field is
    determined by the input alone, or any right value is accepted. A new scaffold's module
    states its own, written from its Output Format, apart from its spec."""
    unaudited = [
        name
        for name in default_catalog()
        if not isinstance(getattr(scaffold_tests.get(name), "ONE_WAY_FIELDS", None), frozenset)
    ]
    assert unaudited == [], "define ONE_WAY_FIELDS = frozenset({...}) in their test modules"


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_every_field_one_way_of_running_determines_is_ruled_or_dropped(
    spec: ScaffoldSpec, scaffold_tests: dict[str, ModuleType]
) -> None:
    fields = scaffold_tests[spec.name].ONE_WAY_FIELDS
    declared = set(spec.code_rules) | set(spec.code_dropped_fields)
    assert declared == fields, (
        f"{spec.name}: the spec's code_rules and code_dropped_fields name {sorted(declared)}, "
        f"tests/catalog/test_{spec.name}.py's ONE_WAY_FIELDS {sorted(fields)}: a field only "
        "one way of running the algorithm determines needs a rule (or a reason to drop it), "
        "and the audit lists exactly those"
    )
    text = code_format(spec, python_version="3.11", time_limit="1 s")
    for key in fields:
        stated = (
            f"- `{key}`: {spec.code_rules[key]}"
            if key in spec.code_rules
            else f"- `{key}`: not asked ({spec.code_dropped_fields[key]})"
        )
        assert stated in text


@pytest.mark.parametrize(
    "spec", [s for s in SPECS if "iterations" in s.answer_schema.model_fields], ids=lambda s: s.name
)
def test_an_iteration_count_run_another_way_fails(spec: ScaffoldSpec) -> None:
    """A program that counts iterations otherwise (the stopping one left out, or the start
    counted) fails every case it runs, as its Code Format's rule says."""
    from verification.cases import ProgramTask
    from verification.run.programs import judge_executions, program_tasks
    from verification.run.sandbox import Execution, Outcome

    (task,) = program_tasks(spec, seed=5, cases=9, tiers=("simple", "standard", "edge"), count=1)
    assert isinstance(task, ProgramTask)
    for shift in (-1, 1):
        executions = [
            Execution(
                Outcome.OK,
                value={**case.expected, "iterations": case.expected["iterations"] + shift},
            )
            for case in task.suite
        ]
        run = judge_executions(
            spec, spec.validator, task, "", executions, engine="none", python="3"
        )
        judged = [c for c in run.cases if c.outcome != "not_run"]
        assert judged and all(c.outcome == "failed" for c in judged)
    right = [Execution(Outcome.OK, value=dict(case.expected)) for case in task.suite]
    run = judge_executions(spec, spec.validator, task, "", right, engine="none", python="3")
    assert run.first_failure is None


@cache
def _catalog_page() -> str:
    """The catalog page, written once for the module (the same text for every scaffold)."""
    return catalog_markdown(default_catalog())


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_a_ladder_short_of_1000_says_why_and_one_reaching_it_does_not(spec: ScaffoldSpec) -> None:
    """Issue 26 item 2: 1,000 vertices or items where the algorithm is polynomial; the spec
    states why where its ladder stops short, and the catalog page shows it."""
    short = max(spec.code_ladder) < 1000
    assert bool(spec.code_size_limit) == short, (
        f"{spec.name}: code_sizes reach {max(spec.code_ladder)}; "
        + (
            "declare code_sizes up to 1,000 (vertices, items) where the generator honours "
            "them, or say in code_size_limit why the ladder stops short"
            if short
            else f"code_size_limit ({spec.code_size_limit!r}) is for a ladder short of 1,000"
        )
    )
    if short:
        assert spec.code_size_limit in _catalog_page()
    assert list(spec.code_ladder) == sorted(set(spec.code_ladder))


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_every_size_of_a_ladder_is_drawn_and_answered(spec: ScaffoldSpec) -> None:
    from verification.cases import DEFAULT_SEED
    from verification.catalog.drawing import draw_case

    # The default seed is the dry run's: a ladder size its generator fails ends that run.
    for seed in (DEFAULT_SEED, 26):
        for size in spec.code_ladder:
            for index in range(2):
                case = draw_case(spec, "standard", index, seed=seed, size=size)
                assert spec.size.measure(case.input) == size
                assert spec.reference(**case.input) == case.expected


def test_the_user_guide_names_the_code_format_version_in_force() -> None:
    guide = Path(__file__).resolve().parents[2] / "docs" / "VERIFICATION.md"
    said = re.search(r"`CODE_FORMAT_VERSION`, now (v\d+)", guide.read_text(encoding="utf-8"))
    assert said is not None and said[1] == CODE_FORMAT_VERSION
