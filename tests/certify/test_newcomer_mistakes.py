"""The mistakes a newcomer adding a scaffold made (a helper's hunt, adding insertion sort as
the guide says), each caught by ``check`` with a message that says what to change: a
reference that sorts its input in place (every check passed, and the prompts showed sorted
arrays), a generator that ignores its rng (all passed; a run certified on 3 inputs), an
oracle that rejects the reference's answers (all passed: only pytest ran it), a missing or
demoted title, Conventions out of place, a validator that raises, a dry-run answer that
parses to something else, a package scaffold on generic mutants, and an inverted size range
that named no scaffold, and a test module or oracle that never returns (``check`` waited
for ever)."""

from __future__ import annotations

import dataclasses
import importlib
import random
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.support.checked import checked
from verification.cases import generate_case
from verification.catalog import _scaffold_module, default_catalog
from verification.catalog.generic_mutants import GenericMutants
from verification.certify import checks
from verification.errors import SpecError, VerificationError
from verification.llm.prompt_builder import PromptBuilder
from verification.validators.base import ValidationResult

SPEC = default_catalog()["merge_sort"]
ORIGIN = "verification.catalog.divide_conquer.merge_sort"


def _sorting_in_place(array: list[int]) -> dict[str, Any]:
    """merge_sort's reference, which first sorts what it is handed (as the newcomer's did)."""
    answer = SPEC.reference(array=list(array))
    array.sort()
    return answer


def test_a_reference_that_edits_its_input_changes_no_case_and_fails_check() -> None:
    spec = dataclasses.replace(SPEC, reference=_sorting_in_place)
    case = generate_case(spec, "standard", 0, seed=7)
    assert case.input == generate_case(SPEC, "standard", 0, seed=7).input  # not sorted
    assert case.input["array"] != sorted(case.input["array"])
    line = checked(spec)["reference"]
    assert not line.ok
    assert "the reference changed its input (array)" in line.detail
    assert checked(SPEC)["reference"].ok


def test_a_generator_that_ignores_its_rng_fails_check() -> None:
    def fixed(rng: random.Random, tier: str, size: int) -> dict[str, Any]:
        return SPEC.generator(random.Random(0), tier, size)  # type: ignore[arg-type]

    line = checked(dataclasses.replace(SPEC, generator=fixed), cases_per_tier=5)["reference"]
    assert not line.ok
    assert "each tier's 5 cases drawn are one input" in line.detail
    assert "rng it is handed" in line.detail


def test_few_distinct_inputs_are_a_warning() -> None:
    def few(rng: random.Random, tier: str, size: int) -> dict[str, Any]:
        return {"array": [rng.randrange(3), 5, 4][: max(2, min(size, 3))]}

    spec = dataclasses.replace(SPEC, generator=few)
    line = checked(spec, cases_per_tier=20)["reference"]
    assert line.ok and line.warning
    assert "3 distinct inputs in 60 cases" in line.detail  # 0, 1 or 2 first: 3 inputs


def test_the_oracle_is_run_on_the_reference_s_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tests = tmp_path / "tests" / "catalog"
    tests.mkdir(parents=True)
    monkeypatch.setattr(checks, "_CHECKOUT_TESTS", tests)
    module = tests / f"test_{SPEC.name}.py"
    cases = list(checks.calibration_cases(SPEC, 3))
    oracle = (  # numpy's bool, as an oracle may give it: pytest's assert takes it
        "import numpy\n\nONE_WAY_FIELDS = frozenset()\n\n\n"
        "def oracle(test_input, answer):\n"
        "    return numpy.bool_(len(test_input['array']) < {})\n"
    )
    for limit, passes in ((10**6, True), (0, False)):
        module.write_text(oracle.format(limit), encoding="utf-8")
        sys.modules.pop(f"_scaffold_test_of_{SPEC.name}", None)
        try:
            detail, ok = checks._check_oracle(SPEC, cases), True
        except VerificationError as exc:
            detail, ok = str(exc), False
        assert ok is passes, detail
        said = "oracle accepts the reference's answers on 9 cases" if passes else "rejects"
        assert said in detail and f"tests/catalog/test_{SPEC.name}.py" in detail
    # a module whose own imports are missing here: pytest runs it, check says so
    module.write_text(
        "import no_such_test_helper\n\nONE_WAY_FIELDS = frozenset()\n\n\n"
        "def oracle(i, a):\n    return True\n"
    )
    sys.modules.pop(f"_scaffold_test_of_{SPEC.name}", None)
    with pytest.raises(checks._Warned, match="could not be imported here"):
        checks._check_oracle(SPEC, cases)
    # one that skips itself where a dependency is missing (pytest's skip is no Exception)
    module.write_text(
        "import pytest\n\npytest.importorskip('no_such_package')\nONE_WAY_FIELDS = frozenset()"
        "\n\n\ndef oracle(i, a):\n    return True\n"
    )
    sys.modules.pop(f"_scaffold_test_of_{SPEC.name}", None)
    try:
        checks._check_oracle(SPEC, cases)
    except checks._Warned as warned:
        assert "could not be imported here" in str(warned)
    except BaseException as exc:  # the skip itself: check would end on it
        pytest.fail(f"check let {type(exc).__name__} out of the oracle's import")
    else:
        pytest.fail("a module that skipped itself was no warning")
    sys.modules.pop(f"_scaffold_test_of_{SPEC.name}", None)
    # the checkout's own oracle, through check
    monkeypatch.undo()
    assert "oracle accepts" in checked(SPEC, origin=ORIGIN)["oracle"].detail


@pytest.mark.parametrize(
    ("top", "oracle_body", "said"),
    [
        ("while True:\n    pass\n", "return True", "importing tests/catalog/test_merge_sort.py"),
        ("", "while True:\n        pass", "merge_sort-simple-000: the oracle of"),
    ],
    ids=["loop at import", "oracle that loops"],
)
def test_a_test_module_that_never_returns_fails_check_instead_of_hanging_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, top: str, oracle_body: str, said: str
) -> None:
    tests = tmp_path / "tests" / "catalog"
    tests.mkdir(parents=True)
    monkeypatch.setattr(checks, "_CHECKOUT_TESTS", tests)
    monkeypatch.setattr(checks, "ORACLE_SECONDS", 0.2)
    (tests / f"test_{SPEC.name}.py").write_text(
        f"ONE_WAY_FIELDS = frozenset()\n\n{top}\n\ndef oracle(test_input, answer):\n"
        f"    {oracle_body}\n",
        encoding="utf-8",
    )
    sys.modules.pop(f"_scaffold_test_of_{SPEC.name}", None)
    try:
        with pytest.raises(
            VerificationError, match=r"did not (end|return) within 0\.2 s"
        ) as raised:
            checks._check_oracle(SPEC, list(checks.calibration_cases(SPEC, 1)))
    finally:
        sys.modules.pop(f"_scaffold_test_of_{SPEC.name}", None)
    assert said in str(raised.value)


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (lambda text: text.replace("# ", "## ", 1), "no '# Title' line"),
        (lambda text: text.split("\n", 1)[1], "no '# Title' line"),
        (lambda text: text.replace("# ", "#", 1), "no '# Title' line"),
        (lambda text: "\ufeff" + text, "byte-order mark"),
        (lambda text: text.replace("# ", "#   ", 1), None),  # CommonMark's title too
        (lambda text: text.replace("# ", "#\t", 1), None),
        (
            lambda text: _moved(text, "## Conventions", "## Output Format"),
            "## Conventions belongs between",
        ),
    ],
    ids=["demoted", "missing", "no space", "bom", "spaces", "tab", "conventions last"],
)
def test_the_title_and_the_conventions_are_where_the_prompts_need_them(
    tmp_path: Path, edit: Any, said: str
) -> None:
    text = PromptBuilder().get_scaffold_content(SPEC)
    path = tmp_path / "merge_sort.md"
    path.write_text(edit(text), encoding="utf-8")
    line = checked(dataclasses.replace(SPEC, markdown=path), cases_per_tier=1)["scaffold file"]
    assert line.ok if said is None else not line.ok and said in line.detail, line.detail


def _moved(text: str, heading: str, before: str) -> str:
    """``text`` with the section under ``heading`` moved to just before ``before``."""
    start = text.index(heading)
    end = text.index("\n## ", start + 1) + 1
    section, rest = text[start:end], text[:start] + text[end:]
    at = rest.index(before)
    return rest[:at] + section + rest[at:]


def test_a_validator_that_raises_is_told_the_rule() -> None:
    class Raising:
        def validate(self, actual: Any, expected: Any, **_: Any) -> ValidationResult:
            if actual != expected:
                raise AssertionError("wrong")  # the newcomer's assert, as it raises
            return ValidationResult(True, "")

    line = checked(dataclasses.replace(SPEC, validator=Raising()))["mutants"]  # type: ignore[arg-type]
    assert not line.ok
    assert "the validator raised AssertionError (wrong)" in line.detail
    assert "must return ValidationResult(False, reason) for a wrong answer" in line.detail


def test_a_dry_run_answer_that_parses_to_another_says_which() -> None:
    def reversed_sorted(expected: dict[str, Any]) -> str:
        return SPEC.render_answer({**expected, "sorted": expected["sorted"][::-1]})

    line = checked(dataclasses.replace(SPEC, render_answer=reversed_sorted))["tiers"]
    assert not line.ok and "parses to {" in line.detail and "not to the reference's" in line.detail
    line = checked(dataclasses.replace(SPEC, render_answer=lambda _: "Sorted: 1 2 3"))["tiers"]
    assert not line.ok and "does not parse (level 1)" in line.detail


def test_a_package_scaffold_on_generic_mutants_is_warned() -> None:
    generic = dataclasses.replace(SPEC, mutants=GenericMutants())
    assert generic.generic_mutants
    package, plugin = checked(generic, origin=ORIGIN), checked(generic, origin="a-plugin")
    assert (
        package["mutants"].warning and "declares its own mutants hook" in package["mutants"].detail
    )
    assert not plugin["mutants"].warning


def test_a_broken_size_axis_names_its_module(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(name: str) -> Any:
        raise SpecError("size range of tier 'standard' is empty: 12..4")

    monkeypatch.setattr(importlib, "import_module", broken)
    with pytest.raises(SpecError) as raised:
        _scaffold_module("verification.catalog.sorting.insertion_sort")
    assert str(raised.value) == (
        "verification.catalog.sorting.insertion_sort: size range of tier 'standard' is empty: 12..4"
    )


def test_a_format_input_that_writes_no_text_fails_check() -> None:
    """Hunt ff: ``format_input=lambda test_input: test_input`` passed every check, then
    ``show-prompt`` exited 2 and every case of every run was an infrastructure error."""
    from verification.catalog.plugins import guarded_spec

    broken = dataclasses.replace(SPEC, format_input=lambda test_input: test_input)
    line = checked(broken)["tiers"]
    assert not line.ok and "format_input returned dict, not the str a prompt holds" in line.detail
    plugin = guarded_spec(broken, "demo-scaffolds")
    line = checked(plugin, origin="demo-scaffolds")["tiers"]
    assert not line.ok and "its input formatter returned dict" in line.detail, line.detail
    assert "prompt input" in checked(SPEC)["tiers"].detail


def test_a_plugin_s_code_ladder_its_generator_cannot_reach_fails_check() -> None:
    """Hunt ff: ``code_sizes=(100, 1000)`` with a generator that raised past 200 passed
    ``check``; code mode's run then exited 2 at size 1000."""
    from verification.catalog.plugins import guarded_spec

    top = SPEC.size.ranges["standard"][1]
    far = 10 * top

    def capped(rng: random.Random, tier: Any, size: int) -> dict[str, Any]:
        if size > 2 * top:
            raise ValueError(f"no array of {size}")
        return SPEC.generator(rng, tier, size)

    good = guarded_spec(dataclasses.replace(SPEC, code_sizes=(2 * top, far)), "demo-scaffolds")
    line = checked(good, origin="demo-scaffolds")["code ladder"]
    assert line.ok and f"{far:,}" in line.detail, line.detail
    bad = guarded_spec(
        dataclasses.replace(SPEC, code_sizes=(2 * top, far), generator=capped), "demo-scaffolds"
    )
    line = checked(bad, origin="demo-scaffolds")["code ladder"]
    assert not line.ok and f"{SPEC.name}-standard-s{far}-000" in line.detail, line.detail
    assert f"no array of {far}" in line.detail
    # No ladder declared: nothing past the ranges to draw, no line.
    bare = guarded_spec(dataclasses.replace(SPEC, code_sizes=()), "demo-scaffolds")
    assert "code ladder" not in checked(bare, origin="demo-scaffolds")


def _block_replaced(text: str, tag: str, body: str) -> str:
    """``text`` with the body of its ```json ``tag`` block replaced by ``body``."""
    start = text.index(f"```json {tag}\n") + len(f"```json {tag}\n")
    return text[:start] + body + "\n" + text[text.index("```", start) :]


@pytest.mark.parametrize(
    ("tag", "body", "said"),
    [
        ("worked-example-input", "{array: [1]}", "the ```json worked-example-input block is not"),
        ("worked-example-answer", "[1,", "the ```json worked-example-answer block is not valid"),
        ("worked-example-input", "[3, 1, 2]", "must be a JSON object of the reference's"),
        ("worked-example-answer", '{"sorted": []}', 'block says {"sorted": []}; the reference'),
    ],
    ids=["input not json", "answer not json", "input a list", "answer disagrees"],
)
def test_a_broken_worked_example_names_its_block(
    tmp_path: Path, tag: str, body: str, said: str
) -> None:
    """Hunt ff read a bare ``TypeError`` or ``JSONDecodeError``, and a disagreement showed
    only what the reference computes."""
    text = PromptBuilder().get_scaffold_content(SPEC)
    path = tmp_path / "merge_sort.md"
    path.write_text(_block_replaced(text, tag, body), encoding="utf-8")
    line = checked(dataclasses.replace(SPEC, markdown=path), cases_per_tier=1)["worked example"]
    assert not line.ok and said in line.detail, line.detail


def test_a_mutant_that_misfits_the_schema_is_shown_with_where_it_misfits() -> None:
    """Hunt ff read "a mutant misfits the schema: 1 validation error for RleAnswer": neither
    the mutant nor its field."""

    def misshapen(case: Any, rng: random.Random) -> list[dict[str, Any]]:
        return [{**case.expected, "sorted": "not a list"}]

    line = checked(dataclasses.replace(SPEC, mutants=misshapen))["mutants"]
    assert not line.ok
    assert '"sorted": "not a list"' in line.detail and "misfits the schema: sorted:" in line.detail


def test_a_plugin_s_hook_or_validator_breaking_its_contract_is_named_for_what_it_did() -> None:
    """Hunt ff: "its alternatives hook returned list: not a JSON object" blamed the list for
    its item, and a validator that returned a bool was told it "raised"."""
    from verification.catalog.plugins import guarded_spec
    from verification.validators.base import Validator

    class Boolean(Validator):
        kind = "boolean"

        def validate(self, actual: Any, expected: Any, *, case: Any = None) -> Any:
            return actual == expected

    def tupled(case: Any, rng: random.Random) -> list[Any]:
        return [case.expected, tuple(case.expected.items())]

    def plugin(**changes: Any) -> Any:
        return guarded_spec(dataclasses.replace(SPEC, **changes), "demo-scaffolds")

    line = checked(plugin(alternatives=tupled), origin="demo-scaffolds")["alternatives"]
    assert not line.ok and "its answer 1 is tuple: not a JSON object" in line.detail, line.detail
    line = checked(plugin(validator=Boolean()), origin="demo-scaffolds")["mutants"]
    assert not line.ok and "its validator returned bool" in line.detail, line.detail
    assert "raised" not in line.detail


def _refused_on_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str], name: str
) -> VerificationError:
    """The error of loading ``name`` of a package of its own (none imported before) whose
    ``files`` (relative paths to their text) are written under ``tmp_path``."""
    package = f"newcomer_{uuid.uuid4().hex}"
    for relative, text in {"__init__.py": "", **files}.items():
        (tmp_path / package / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / package / relative).write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        with pytest.raises(VerificationError) as raised:
            _scaffold_module(f"{package}.{name}")
    finally:
        sys.modules.pop(package, None)
    assert raised.value.exit_code == 2
    return raised.value


@pytest.mark.parametrize(
    ("text", "error", "line"),
    [
        ("SPEC = None\nvalue = 1 / 0\n", "ZeroDivisionError: division by zero", 2),
        ("import math\n\ndef broken(:\n    pass\n", "SyntaxError", 3),
        ("from verification.cases import no_such_name\n", "ImportError", 1),
    ],
    ids=["raises", "syntax error", "import error"],
)
def test_a_package_scaffold_module_that_does_not_load_is_named_with_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, error: str, line: int
) -> None:
    # A newcomer's module that raised while it loaded ended every command with a traceback
    # and exit 4, which says the harness is at fault.
    said = str(_refused_on_load(tmp_path, monkeypatch, {"my_scaffold.py": text}, "my_scaffold"))
    assert said.startswith("scaffold module newcomer_") and ".my_scaffold does not load (" in said
    module = next(tmp_path.glob("newcomer_*/my_scaffold.py"))
    assert f"{module}, line {line}" in said and error in said


def test_a_category_package_that_does_not_load_is_named_with_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Hunt rr: a category's __init__.py that raised still ended every command with exit 4.
    broken = {"my_category/__init__.py": "\n\nraise RuntimeError('half written')\n"}
    said = str(_refused_on_load(tmp_path, monkeypatch, broken, "my_category"))
    category = next(tmp_path.glob("newcomer_*/my_category"))
    assert f"{category / '__init__.py'}, line 3" in said and "RuntimeError: half written" in said
