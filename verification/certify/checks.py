"""The generic checks every registered scaffold must pass, plugins included.

``python -m verification check NAME`` runs them; the test suite runs them over every spec
(and, in the tests, also confirms each alternative answer with an independent oracle). Each
check returns a :class:`CheckResult`; none asks a model.

The checks: the scaffold file and its sections; the worked example against the reference;
the Output Format's example parsing as an answer; every tier's cases fitting the schema and
passing the validator; the dry-run answer parsing back to the reference's; the calibration
hooks (mutants that fit the schema, differ from the expected answer, and are all rejected,
for at least 90% of cases; alternatives that fit the schema and are all accepted); every
size (cases drawn at every size of every tier's declared range, ``measure`` reading each
size back); and suites identical when drawn again in one process and under two
``PYTHONHASHSEED`` values.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import json
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from verification.cases import TIERS, TestCase, Tier
from verification.catalog import Catalog, default_catalog
from verification.catalog.drawing import draw_case
from verification.catalog.plugin_clock import timed_out_after
from verification.catalog.sizes import in_units
from verification.catalog.spec import STRESS_TIERS, ScaffoldSpec
from verification.certify.case_checks import (
    CALIBRATION_SEED,
    CASES_PER_TIER,
    MUTANT_COVERAGE,
    _Warned,
    calibration_cases,
    check_alternatives,
    check_mutants,
    check_reference,
    check_tiers,
    check_tolerances,
    first_of_each_tier,
    fits_schema,
    json_key,
)
from verification.certify.hash_seed import hash_seed_verdicts, redrawn_verdict, suite_digest
from verification.certify.scaffold_words import (
    check_output_format,
    check_stated_tolerances,
    number_wording,
    scaffold_text,
)
from verification.errors import VerificationError
from verification.llm.bare_prompt import bare_problems, marks_task
from verification.llm.prompt_builder import (
    PromptBuilder,
    ScaffoldParser,
)

__all__ = [
    "CASES_PER_TIER",
    "MUTANT_COVERAGE",
    "ORACLE_SECONDS",
    "SIZE_BUDGET",
    "SIZE_DRAWS",
    "STRESS_POINTS",
    "CheckResult",
    "calibration_cases",
    "check_every_size",
    "check_scaffold",
    "fits_schema",
    "suite_digest",
]

STRESS_POINTS = 5
"""Sizes of the stress range the size check draws at, spread from one end to the other."""
SIZE_DRAWS = 10
"""Cases the size check draws at each size of each tier's declared range."""
SIZE_BUDGET = 20.0
"""Seconds after which the size check starts no further round of draws (the first round,
one case at every declared size, always runs whole)."""


@dataclass(frozen=True)
class CheckResult:
    """One check's verdict on one scaffold."""

    check: str
    ok: bool
    detail: str
    warning: bool = False
    """Passed, with something for the author to review (``detail`` says what)."""


def _check_worked_example(spec: ScaffoldSpec, text: str) -> str:
    parser = ScaffoldParser()
    inputs = parser.tagged_blocks(text, "worked-example-input")
    answers = parser.tagged_blocks(text, "worked-example-answer")
    if len(inputs) != 1 or len(answers) != 1:
        raise VerificationError(
            "needs exactly one ```json worked-example-input block and one "
            f"```json worked-example-answer block (found {len(inputs)} and {len(answers)})"
        )
    # Each failure names its block and says what to change (hunt ff read a bare TypeError
    # and JSONDecodeError, and a mismatch that showed only the reference's side).
    example_input = _worked_block(inputs[0], "worked-example-input")
    example_answer = _worked_block(answers[0], "worked-example-answer")
    if not isinstance(example_input, dict):
        raise VerificationError(
            "the ```json worked-example-input block must be a JSON object of the reference's "
            f"arguments by name, not a {type(example_input).__name__}"
        )
    computed = json.loads(json.dumps(spec.reference(**example_input)))
    if computed != example_answer:
        raise VerificationError(
            f"the ```json worked-example-answer block says {json_key(example_answer)[:300]}; "
            f"the reference computes {json_key(computed)[:300]}"
        )
    problem = fits_schema(spec, example_answer)
    if problem:
        raise VerificationError(f"the worked answer does not fit the schema: {problem}")
    return "agrees with the reference"


def _worked_block(text: str, tag: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise VerificationError(f"the ```json {tag} block is not valid JSON: {exc}") from None


def _check_number_wording(spec: ScaffoldSpec, text: str, *, package: bool) -> str:
    """The shared sentences on numbers the Output Format lacks: a package scaffold fails
    without one, a plugin's is warned."""
    rules, missing = number_wording(spec, text)
    if missing:
        said = (
            f"its Output Format lacks {len(missing)} of the shared sentences its numbers call "
            "for; state each word for word (the judge does what they say): "
            + " ".join(f"({i}) {rule}" for i, rule in enumerate(missing, 1))
        )
        if package:
            raise VerificationError(said)
        raise _Warned(said)
    if not rules:
        return "its answers hold no number the shared sentences are about"
    return f"states the {len(rules)} shared sentence(s) its numbers call for"


def _size_cells(spec: ScaffoldSpec) -> list[tuple[Tier, int]]:
    cells = [
        (tier, size)
        for tier in TIERS
        for size in range(spec.size.ranges[tier][0], spec.size.ranges[tier][1] + 1)
    ]
    return cells + [(tier, size) for tier in STRESS_TIERS for size in _stress_points(spec)]


def _check_code_ladder(spec: ScaffoldSpec) -> str:
    """Code mode's ladder (:attr:`~verification.catalog.spec.ScaffoldSpec.code_sizes`), past
    the sizes "every size" draws: a case at each size, read back. A plugin's generator that
    could not reach its ladder passed `check`, then stopped code mode's run (hunt ff)."""
    for size in spec.code_ladder:
        _check_size_draw(spec, "standard", size, 0)
    sizes = ", ".join(f"{size:,}" for size in spec.code_ladder)
    return f"code mode's ladder draws and reads back at {in_units(sizes, spec.size.unit)}"


def _stress_summary(spec: ScaffoldSpec) -> str:
    axis = spec.size
    if axis.stress is None:
        return f"no stress range: {axis.stress_limit}"
    low, high = axis.stress
    budget = spec.max_output_tokens_at(high)
    said = f"{in_units(f'{low}..{high}', axis.unit)}, budget {budget} tokens at {high}"
    return f"{said}; {axis.stress_limit}" if axis.stress_limit else said


def _stress_points(spec: ScaffoldSpec) -> list[int]:
    """A few sizes spread over the stress range, both ends included: every size there
    would cost the reference seconds each at the top."""
    if spec.size.stress is None:
        return []
    low, high = spec.size.stress
    return sorted({low + (high - low) * k // (STRESS_POINTS - 1) for k in range(STRESS_POINTS)})


def _check_size_draw(spec: ScaffoldSpec, tier: Tier, size: int, index: int) -> None:
    case = draw_case(spec, tier, index, seed=CALIBRATION_SEED, size=size)
    try:
        measured = spec.size.measure(case.input)
    except Exception as exc:  # the spec's measure, on its own generator's input
        raise VerificationError(
            f"scaffold {spec.name!r}, {tier} size {size}, case {index} ({case.id}): measure "
            f"raised {type(exc).__name__}: {exc}"
        ) from exc
    # An edge case may be smaller than asked (SizeAxis): the empty input is its point.
    if measured != size and not (tier == "edge" and measured < size):
        raise VerificationError(
            f"scaffold {spec.name!r}, {tier} size {size}, case {index} ({case.id}): asked "
            f"for size {size}, measured {measured} ({spec.size.unit})"
        )
    problem = fits_schema(spec, case.expected)
    if problem:
        raise VerificationError(
            f"scaffold {spec.name!r}, {tier} size {size}, case {index} ({case.id}): the "
            f"reference answer misfits: {problem}"
        )


def check_every_size(
    spec: ScaffoldSpec,
    *,
    per_size: int = SIZE_DRAWS,
    budget: float = SIZE_BUDGET,
    clock: Callable[[], float] = time.monotonic,
) -> str:
    """Draw cases at every size of every tier's declared range and read each size back.

    Round ``k`` draws case ``k`` at every size of every tier, for ``per_size`` rounds; the
    first round always runs whole, so every declared size draws at least once, and no
    later round starts after ``budget`` seconds. A draw that raises, or an input whose
    measured size is not the size asked (larger than asked, in the edge tier), fails,
    naming the scaffold, tier, size and case index.
    """
    cells = _size_cells(spec)
    started = clock()
    rounds = 0
    for index in range(per_size):
        if index and clock() - started > budget:
            break
        for tier, size in cells:
            _check_size_draw(spec, tier, size, index)
        rounds += 1
    stopped = "" if rounds == per_size else f" (time budget {budget:g} s reached)"
    return (
        f"{rounds * len(cells)} cases: {rounds} at each of the {len(cells)} declared "
        f"(tier, size) pairs, every size read back{stopped}"
    )


def _hash_seed_verdict(name: str, known: Mapping[str, str | VerificationError] | None) -> str:
    verdict = known[name] if known and name in known else hash_seed_verdicts([name])[name]
    if isinstance(verdict, VerificationError):
        raise verdict
    return verdict


_CHECKOUT_TESTS = Path(__file__).resolve().parents[2] / "tests" / "catalog"
"""Where the package's scaffolds keep their oracles, in a checkout of the harness."""
ORACLE_SECONDS = 60.0
"""How long importing a scaffold's test module, or one call of its oracle, may run: each
takes well under a second for the package's scaffolds."""


def _check_oracle(spec: ScaffoldSpec, cases: list[TestCase]) -> str:
    """In a checkout, a package scaffold's test module defines ``oracle(input, answer)``,
    and it accepts the reference's answers on :data:`REFERENCE_CASES` cases of each tier
    (the generic tests hold the reference and the hooks to it on many more). A module that
    cannot be imported here (its test dependencies missing) is a warning: pytest runs it."""
    path = _CHECKOUT_TESTS / f"test_{spec.name}.py"
    root = _CHECKOUT_TESTS.parents[1]
    shown = path.relative_to(root)
    if not path.is_file():
        raise VerificationError(f"add {shown} with oracle(test_input, answer) -> bool")
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    defined = {
        node.name for node in tree.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    } | {
        t.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name)
    }
    if "oracle" not in defined:
        raise VerificationError(f"{shown} defines no oracle(test_input, answer) -> bool")
    if "ONE_WAY_FIELDS" not in defined:
        raise VerificationError(
            f"{shown} defines no ONE_WAY_FIELDS: the answer fields only one way of running the "
            "algorithm determines (frozenset() when the input alone determines every field); "
            "tests/catalog/test_code_format.py holds the spec's code_rules to it"
        )
    if not cases:
        return f"{shown} defines oracle (no case was drawn to hold the reference to it)"
    try:
        with timed_out_after(ORACLE_SECONDS):
            oracle = _checkout_module(spec.name, path, root).oracle
    except TimeoutError:  # a loop at its top level, where `check` waited for ever
        raise VerificationError(
            f"importing {shown} did not end within {ORACLE_SECONDS:g} s: its top level runs "
            "too long (a loop, or work that belongs in a test)"
        ) from None
    except BaseException as exc:  # its imports missing, or pytest.importorskip's skip
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise _Warned(
            f"{shown} defines oracle, but it could not be imported here ({type(exc).__name__}: "
            f"{str(exc)[:200]}): the guide's pytest line runs it"
        ) from exc
    held = first_of_each_tier(cases)
    for case in held:
        try:
            with timed_out_after(ORACLE_SECONDS):
                accepted = oracle(case.input, case.expected)
        except TimeoutError:
            raise VerificationError(
                f"{case.id}: the oracle of {shown} did not return within {ORACLE_SECONDS:g} s"
            ) from None
        if not accepted:  # as pytest asserts it (numpy's bool too)
            raise VerificationError(
                f"{case.id}: the oracle of {shown} rejects the reference's answer "
                f"{json_key(case.expected)[:200]} to {json_key(case.input)[:200]}"
            )
    return f"{shown}'s oracle accepts the reference's answers on {len(held)} cases"


def _checkout_module(name: str, path: Path, root: Path) -> Any:
    """The test module at ``path`` (it imports ``tests.support``: the checkout's root is on
    the path while it loads)."""
    module_name = f"_scaffold_test_of_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    found = importlib.util.spec_from_file_location(module_name, path)
    if found is None or found.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(found)
    added = str(root) not in sys.path
    if added:
        sys.path.insert(0, str(root))
    try:
        found.loader.exec_module(module)
    finally:
        if added:
            sys.path.remove(str(root))
    sys.modules[module_name] = module
    return module


def check_scaffold(
    name: str,
    *,
    scaffolds_dir: Path,
    cases_per_tier: int = CASES_PER_TIER,
    catalog: Catalog | None = None,
    hash_seed: bool = True,
    size_draws: int = SIZE_DRAWS,
    hash_seeds: Mapping[str, str | VerificationError] | None = None,
) -> list[CheckResult]:
    """Every generic check on scaffold ``name``; a check that raises fails, the others run.
    ``hash_seeds``: the hash-seed verdicts of :func:`hash_seed_verdicts`, drawn for several
    scaffolds at once, when the caller has them."""
    spec = (catalog or default_catalog()).get_spec(name)
    origin = (catalog or default_catalog()).origins.get(spec.name, "")
    package = origin.startswith("verification.catalog.")
    builder = PromptBuilder(scaffolds_dir, catalog=catalog)
    results: list[CheckResult] = []
    text: str | None = None

    def run(check: str, body: Callable[[], str]) -> None:
        try:
            results.append(CheckResult(check, True, body()))
        except _Warned as exc:
            results.append(CheckResult(check, True, str(exc)[:1500], warning=True))
        except Exception as exc:  # a check's failure is a verdict, whatever raised it
            detail = str(exc) or type(exc).__name__
            results.append(CheckResult(check, False, f"{type(exc).__name__}: {detail}"[:1000]))

    def scaffold_file() -> str:
        nonlocal text
        text = scaffold_text(spec, builder)
        return f"{builder.scaffold_path(spec)}: the five sections, in order"

    run("scaffold file", scaffold_file)
    if text is not None:
        markdown = text
        run("worked example", lambda: _check_worked_example(spec, markdown))
        run("output format", lambda: check_output_format(spec, markdown))
        run("stated tolerances", lambda: check_stated_tolerances(spec, markdown))
        run("number wording", lambda: _check_number_wording(spec, markdown, package=package))
        run("bare prompt", lambda: bare_problems(spec, markdown))
        if results[-1].ok and not marks_task(markdown):  # a plugin may mark none: a warning
            results[-1] = dataclasses.replace(results[-1], warning=True)
    cases: list[TestCase] = []

    def draw() -> str:
        cases.extend(calibration_cases(spec, cases_per_tier))
        return f"{len(cases)} cases drawn ({cases_per_tier} per tier, seed {CALIBRATION_SEED})"

    run("generator", draw)
    if cases:
        run("same draws", lambda: redrawn_verdict(spec, cases, seed=CALIBRATION_SEED))
        run("tiers", lambda: check_tiers(spec, cases))
        run("reference", lambda: check_reference(spec, cases))
        run("mutants", lambda: check_mutants(spec, cases, package=package))
        run("alternatives", lambda: check_alternatives(spec, cases))
        run("tolerances", lambda: check_tolerances(spec, cases))
    run("every size", lambda: check_every_size(spec, per_size=size_draws))
    if spec.code_sizes and not package:  # the package's ladders: tests/run/test_code_mode.py
        run("code ladder", lambda: _check_code_ladder(spec))
    # A scaffold without a stress range still certifies: its author is told, not stopped.
    short = spec.size.stress_problem()
    results.append(CheckResult("stress range", True, short or _stress_summary(spec), bool(short)))
    if hash_seed:
        run("hash seed", lambda: _hash_seed_verdict(name, hash_seeds))
    if package and _CHECKOUT_TESTS.is_dir():
        run("oracle", lambda: _check_oracle(spec, cases))
    return results
