"""The generic contract, over every registered scaffold: a new scaffold is covered by being
registered, never by being listed here.

For each spec: the generic checks of :mod:`verification.certify.checks` (scaffold file, worked
example, Output Format example, tiers, dry-run answers, calibration hooks, size axis), and,
independently of the validator, the scaffold's own oracle: ``oracle(input, answer)`` in
``tests/catalog/test_<name>.py`` confirms every alternative right and every mutant wrong.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import pkgutil
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.support.draws import shared_draw
from verification.cases import TIERS
from verification.catalog import default_catalog
from verification.catalog.generic_mutants import GenericMutants
from verification.catalog.spec import no_alternatives
from verification.certify import checks
from verification.certify.checks import (
    CASES_PER_TIER,
    calibration_cases,
    check_scaffold,
    suite_digest,
)
from verification.certify.hash_seed import suite_digests
from verification.config import packaged_scaffolds_dir
from verification.errors import VerificationError
from verification.runner import plan_cases
from verification.validators.base import passes

CATALOG = default_catalog()
NAMES = list(CATALOG)
OWN = [name for name in NAMES if CATALOG.origins[name].startswith("verification.catalog.")]
"""The package's own scaffolds (an installed plugin brings its own tests)."""
SCAFFOLDS = packaged_scaffolds_dir()
ORACLES = Path(__file__).parent

Oracle = Callable[[dict[str, Any], dict[str, Any]], bool]


@pytest.fixture
def shared_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks draw through :func:`shared_draw`: the generic checks and the oracle's
    test draw the same calibration cases of a scaffold once between them (the same
    ``draw_case``, called once per case)."""
    monkeypatch.setattr(checks, "draw_case", shared_draw)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.usefixtures("shared_draws")
def test_generic_checks_pass(name: str) -> None:
    failed = [
        f"{r.check}: {r.detail}"
        for r in check_scaffold(name, scaffolds_dir=SCAFFOLDS, hash_seed=False)
        if not r.ok
    ]
    assert failed == []


@pytest.mark.parametrize("name", OWN)
def test_scaffold_has_a_test_module_with_an_oracle(
    name: str, scaffold_tests: dict[str, ModuleType]
) -> None:
    path = ORACLES / f"test_{name}.py"
    assert path.is_file(), f"add {path.relative_to(Path.cwd())} with oracle(input, answer)"
    assert callable(getattr(scaffold_tests[name], "oracle", None)), f"{path} defines no oracle"


@pytest.mark.slow
@pytest.mark.parametrize("name", OWN)
@pytest.mark.usefixtures("shared_draws")
def test_the_oracle_confirms_alternatives_and_refutes_mutants(
    name: str, scaffold_tests: dict[str, ModuleType]
) -> None:
    spec, oracle = CATALOG[name], scaffold_tests[name].oracle
    rng = random.Random(5)
    alternatives = mutants = 0
    for case in calibration_cases(spec, CASES_PER_TIER):
        assert oracle(case.input, case.expected), (case.id, "the reference answer")
        for answer in spec.alternatives(case, rng):
            alternatives += 1
            assert oracle(case.input, answer), (case.id, "an alternative is wrong", answer)
        for answer in spec.mutants(case, rng):
            mutants += 1
            assert not oracle(case.input, answer), (case.id, "a mutant is right", answer)
    assert mutants >= CASES_PER_TIER * len(TIERS) * 0.9


NEAR_MISS_CASES = 4
"""Cases of each tier whose near misses the validator and the oracle both judge."""


@pytest.mark.parametrize("name", OWN)
def test_the_validator_and_the_oracle_agree_on_near_misses(
    name: str, scaffold_tests: dict[str, ModuleType]
) -> None:
    """The expected answer edited in one place (generic mutants: made from the answer's
    shape, not by the scaffold's own hooks), judged by the validator and by the oracle,
    alike. A helper adding a scaffold shipped, through check, a dry run and the fast lane, a
    validator that never read one field, one that let a vertex be matched twice, and one
    that accepted only the reference's matching where the scaffold allows any (it declared
    no alternatives, so no multi-answer test took it): each disagrees with the oracle here."""
    spec, oracle = CATALOG[name], scaffold_tests[name].oracle
    near_misses = GenericMutants(spec.answer_schema)
    rng = random.Random(7)
    editable: set[str] = set()
    edited: set[str] = set()
    for case in calibration_cases(spec, NEAR_MISS_CASES):
        editable |= {key for key, value in case.expected.items() if value not in (None, [], {})}
        for answer in near_misses(case, rng):
            edited |= {key for key, value in case.expected.items() if answer[key] != value}
            right = bool(oracle(case.input, answer))
            judged = passes(spec.validator, answer, case.expected, case=case)
            shown = json.dumps(answer)[:300]
            assert right or not judged, f"{case.id}: the validator accepts a wrong answer {shown}"
            if spec.alternatives is no_alternatives:
                why = "the scaffold declares no alternatives: declare them, and accept each"
            else:
                why = "the validator must accept every right answer"
            assert judged or not right, (
                f"{case.id}: the validator rejects the right {shown} ({why})"
            )
    assert editable <= edited, f"no near miss edited {sorted(editable - edited)}"


@pytest.mark.parametrize("name", OWN)
def test_spec_is_sound(name: str) -> None:
    spec = CATALOG[name]
    assert spec.max_output_tokens >= 1024
    assert spec.title and spec.description
    doc = spec.reference.__doc__ or ""
    for part in ("Parameters", "Returns", "Examples"):
        assert part in doc, f"{spec.reference_name} has no numpydoc {part} section"
    documented = f"verification.reference.{_reference_module(spec.category)}"
    # A large family module is a package: the function may live in one of its submodules.
    assert spec.reference.__module__ in (documented, *_submodules(documented))
    assert getattr(importlib.import_module(documented), spec.reference_name) is spec.reference


def _submodules(package: str) -> list[str]:
    module = importlib.import_module(package)
    return [f"{package}.{m.name}" for m in pkgutil.iter_modules(getattr(module, "__path__", []))]


def _reference_module(category: str) -> str:
    # Categories map onto the API reference's module names; "string" is string_algo there.
    return {"string": "string_algo"}.get(category, category)


def test_every_scaffold_file_has_a_spec_and_every_spec_a_file() -> None:
    files = {p.relative_to(SCAFFOLDS).as_posix() for p in SCAFFOLDS.rglob("*.md")}
    declared = {CATALOG[name].scaffold_file for name in OWN}
    assert files - declared == set(), "scaffold files without a spec"
    assert declared - files == set(), "specs without a scaffold file"


@pytest.mark.slow
def test_suites_do_not_depend_on_the_hash_seed() -> None:
    assert suite_digest(NAMES, "1") == suite_digest(NAMES, "4242")


@pytest.mark.slow
def test_a_failed_draw_is_named_by_its_exception_not_its_traceback() -> None:
    # The check's FAIL line held the traceback's last 300 characters: frames, carets and a
    # message cut anywhere (a helper's hunt).
    with pytest.raises(VerificationError) as failed:
        suite_digest(["no_such_scaffold"], "1")
    said = str(failed.value)
    assert said.startswith(
        "drawing the suite failed: verification.errors.UnknownScaffoldError: unknown "
        "scaffold 'no_such_scaffold'"
    )
    assert "Traceback" not in said and 'File "' not in said and "\n" not in said


@pytest.mark.slow
def test_one_interpreter_draws_each_suite_as_if_alone() -> None:
    """``check`` of several scaffolds draws them all in one interpreter per hash seed: each
    digest is the one of that scaffold's suite alone (drawn here, in this process)."""
    alone = {}
    for name, cases in plan_cases(NAMES, seed=7, cases=10).items():
        data = json.dumps({name: [case.model_dump() for case in cases]}, sort_keys=True)
        alone[name] = hashlib.sha256(data.encode()).hexdigest()
    # Every scaffold: one's module caches must not change another's draws in the interpreter
    # they share, and any scaffold's generator may keep one.
    assert suite_digests(NAMES, "1") == alone


@pytest.mark.slow
def test_case_k_does_not_depend_on_how_many_cases_are_asked() -> None:
    few = plan_cases(NAMES, seed=3, cases=5)
    many = plan_cases(NAMES, seed=3, cases=40)
    for name in NAMES:
        by_id = {case.id: case for case in many[name]}
        for case in few[name]:
            assert by_id[case.id] == case


@pytest.mark.slow
def test_importing_the_registry_loads_no_sdk_numpy_or_networkx() -> None:
    code = (
        "import sys, verification.registry, verification.cli\n"
        "heavy = {'numpy', 'networkx', 'anthropic', 'openai', 'scipy'} & set(sys.modules)\n"
        # The catalog's category folders and their scaffold modules, not its machinery.
        "scaffolds = [m for m, mod in list(sys.modules.items())\n"
        "             if m.startswith('verification.catalog.')\n"
        "             and (hasattr(mod, '__path__') or hasattr(mod, 'SPEC'))]\n"
        "print(sorted(heavy), scaffolds)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[] []"
