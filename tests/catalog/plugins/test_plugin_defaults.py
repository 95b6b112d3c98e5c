"""A plugin spec that gives only what it must: its Markdown is ``<name>.md`` beside its
module, its title that file's first heading, its sizes from the size axis and its mutants
generic, made from the answer's shape. ``check`` passes, warning about the generic mutants
the validator accepts; a dry run certifies it, the accepted generic mutants no miss. Built-in
scaffolds keep their own hooks."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from verification.cases import TIERS, TestCase
from verification.catalog.generic_mutants import MAX_GENERIC_MUTANTS, GenericMutants
from verification.catalog.plugins import first_heading
from verification.catalog.spec import AnswerSchema, ScaffoldSpec, SizeAxis
from verification.certify.calibration import calibrate
from verification.registry import default_catalog

BARE_MODULE = '''
"""The largest number, declared with only the fields a plugin must give."""
from __future__ import annotations

from typing import Any

from verification.catalog.spec import ScaffoldSpec, SizeAxis
from verification.validators.base import ValidationResult, Validator

from demo_scaffolds import LargestAnswer, generate, largest_number


class OneOver(Validator):
    """Accepts an answer one over: generic mutants nudge by one up or down, so some pass
    (and some fail: a validator that accepts them all is unchecked)."""

    kind = "one_over"

    def validate(self, actual: Any, expected: Any, *, case: Any = None) -> ValidationResult:
        ok = 0 <= actual["largest"] - expected["largest"] <= 1
        return ValidationResult(ok, "at most one over" if ok else "under, or more than one over")


SPEC = ScaffoldSpec(
    name="largest_bare",
    category="plugin_demo",
    reference=largest_number,
    generator=generate,
    answer_schema=LargestAnswer,
    validator=OneOver(),
    size=SizeAxis(
        unit="numbers",
        measure=lambda test_input: len(test_input["numbers"]),
        ranges={"simple": (2, 10), "standard": (5, 21), "edge": (1, 3)},
    ),
)
'''


@pytest.fixture(scope="module")
def bare_env(tmp_path_factory: pytest.TempPathFactory, install_plugin: Any) -> dict[str, str]:
    root = tmp_path_factory.mktemp("site")
    env: dict[str, str] = install_plugin(
        root, "largest_bare = demo_scaffolds.bare:SPEC\n", {"bare": BARE_MODULE}
    )
    heading = "# Largest Number, Bare"
    package = root / "demo_scaffolds"
    markdown = (package / "largest_number.md").read_text(encoding="utf-8")
    markdown = markdown.replace("# Largest Number", heading, 1)
    (package / "largest_bare.md").write_text(markdown, encoding="utf-8")
    return env


RANGES = {"simple": (2, 10), "standard": (5, 21), "edge": (1, 3)}


@pytest.fixture(scope="module")
def output(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("runs")


@pytest.fixture(scope="module")
def runs(bare_env: dict[str, str], cli_several: Any, output: Path) -> dict[str, Any]:
    """The commands the tests read, by name, run one after another, each forked (cli_several)
    (their outputs depend on the plugin alone)."""
    commands = {
        "listed": ["list", "--json"],
        "shown": ["show-prompt", "largest_bare", "--part", "system"],
    }
    commands |= {
        tier: [
            "show-prompt",
            "largest_bare",
            "--case",
            f"largest_bare-{tier}-000",
            "--part",
            "user",
        ]
        for tier in RANGES
    }
    commands["checked"] = ["check", "largest_bare", "--cases", "5"]
    dry_run = ["--provider", "reference", "--cases", "6", "--output", str(output / "out")]
    commands["certified"] = ["verify", "largest_bare", *dry_run]
    return dict(zip(commands, cli_several(bare_env, output, *commands.values()), strict=True))


@pytest.mark.slow
def test_the_defaults_fill_markdown_title_and_sizes(runs: dict[str, Any]) -> None:
    listed, shown = runs["listed"], runs["shown"]
    assert listed.returncode == 0, listed.stderr
    (entry,) = (e for e in json.loads(listed.stdout)["scaffolds"] if e["name"] == "largest_bare")
    assert entry["title"] == "Largest Number, Bare"
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("# Largest Number, Bare")
    for tier, (low, high) in RANGES.items():
        case = runs[tier]
        assert case.returncode == 0, case.stderr
        size = low if tier == "edge" else (low + high) // 2
        numbers = json.loads(case.stdout[case.stdout.index("{") : case.stdout.rindex("}") + 1])
        assert len(numbers["numbers"]) == size


@pytest.mark.slow
def test_check_warns_about_generic_mutants_the_validator_accepts(runs: dict[str, Any]) -> None:
    checked = runs["checked"]
    assert checked.returncode == 0, checked.stdout + checked.stderr
    warned = [line for line in checked.stdout.splitlines() if line.startswith("WARN")]
    # Four warnings: the generic mutants, a Markdown that marks no task part, an Output
    # Format without the shared sentence on integers, and a spec that declares no stress
    # range (a plugin's author is told, not stopped).
    (mutants,) = [line for line in warned if "largest_bare: mutants:" in line]
    (bare,) = [line for line in warned if "largest_bare: bare prompt:" in line]
    (wording,) = [line for line in warned if "largest_bare: number wording:" in line]
    (stress,) = [line for line in warned if "largest_bare: stress range:" in line]
    assert len(warned) == 4 and "## Conventions" in bare and "no stress range" in stress
    assert "An integer is written with digits only" in wording
    assert "generic mutants" in mutants and "review" in mutants
    assert "all checks passed" in checked.stdout


@pytest.mark.slow
def test_a_dry_run_certifies_it_without_counting_generic_mutants(
    runs: dict[str, Any], output: Path
) -> None:
    done = runs["certified"]
    assert done.returncode == 0, done.stdout + done.stderr
    assert "CERTIFIED" in done.stdout and "INCOMPLETE" not in done.stdout
    summary = json.loads((output / "out" / "reports" / "summary.json").read_text())
    scaffold = summary["scaffolds"]["largest_bare"]
    assert scaffold["status"] == "CERTIFIED"
    # Judged, some accepted (no miss) and some rejected (the validator checked).
    report = (output / "out" / "reports" / "largest_bare.md").read_text()
    rejected, judged = map(int, re.findall(r"generic mutants rejected (\d+)/(\d+)", report)[0])
    assert 0 < rejected < judged


class _Shape(AnswerSchema):
    count: int
    ratio: float
    found: bool
    order: list[int]
    label: str


def _case(expected: dict[str, Any]) -> TestCase:
    return TestCase(
        id="shape-simple-000", scaffold="shape", tier="simple", input={}, expected=expected
    )


def test_generic_mutants_change_one_place_and_fit_the_schema() -> None:
    expected = {"count": 3, "ratio": 0.5, "found": True, "order": [4, 1, 1, 7], "label": "a"}
    made = GenericMutants(_Shape)(_case(expected), random.Random(1))
    assert made and all(fits_schema_of(_Shape, answer) for answer in made)
    assert expected not in made and len({json.dumps(m, sort_keys=True) for m in made}) == len(made)
    changed = [{key for key in expected if answer[key] != expected[key]} for answer in made]
    assert all(len(keys) == 1 for keys in changed)
    assert {"count", "ratio", "found", "order", "label"} <= set().union(*changed)
    orders = [answer["order"] for answer in made if answer["order"] != expected["order"]]
    lengths = {len(order) for order in orders}
    assert lengths >= {3, 5}  # an item dropped, an item duplicated
    assert any(sorted(order) == sorted(expected["order"]) for order in orders)  # swapped


def test_generic_mutants_edit_a_string_one_character() -> None:
    class Word(AnswerSchema):
        word: str

    words = [
        answer["word"]
        for seed in range(20)
        for answer in GenericMutants(Word)(_case({"word": "1011"}), random.Random(seed))
    ]
    assert "1011" not in words
    assert {len(word) for word in words} == {3, 4, 5}  # a character dropped, changed, added
    changed = [w for w in words if len(w) == 4]
    assert all(sum(a != b for a, b in zip(w, "1011", strict=True)) == 1 for w in changed)
    assert set("".join(words)) == {"0", "1"}  # edits keep to the string's own characters
    assert GenericMutants(Word)(_case({"word": ""}), random.Random(0)) == [{"word": "x"}]


def fits_schema_of(schema: type[BaseModel], answer: dict[str, Any]) -> bool:
    try:
        schema.model_validate_json(json.dumps(answer), strict=True)
    except ValueError:
        return False
    return True


def test_generic_mutants_keep_only_answers_the_schema_takes() -> None:
    class Bounded(AnswerSchema):
        flags: tuple[bool, bool]

    made = GenericMutants(Bounded)(_case({"flags": [True, True]}), random.Random(2))
    # Drops and duplicates misfit the pair; swaps of equal items are none; flips remain.
    flipped = [[not first, second] for first, second in [[True, True]]]
    flipped += [[first, not second] for first, second in [[True, True]]]
    assert sorted(made, key=json.dumps) == sorted(({"flags": f} for f in flipped), key=json.dumps)


def test_every_built_in_spec_declares_its_own_mutants_and_title() -> None:
    catalog = default_catalog()
    built_in = [
        spec for name, spec in catalog.items() if catalog.origins[name].startswith("verification.")
    ]
    assert len(built_in) >= 33
    assert [spec.name for spec in built_in if spec.generic_mutants] == []
    assert [spec.name for spec in built_in if not spec.title] == []  # no heading read for them


def test_a_spec_without_sizes_takes_them_from_its_axis() -> None:
    ranges = {"simple": (2, 10), "standard": (5, 21), "edge": (1, 3)}
    spec = ScaffoldSpec(
        name="bare_sizes",
        category="demo",
        reference=lambda: {},
        generator=lambda r, t, s: {},
        answer_schema=_Shape,
        validator=default_catalog().get_spec("kmp").validator,
        size=SizeAxis(unit="items", measure=len, ranges=ranges),
    )
    for tier in TIERS:
        low, high = ranges[tier]
        assert spec.sizes[tier] == (low if tier == "edge" else (low + high) // 2)
        assert spec.size.check(tier, spec.sizes[tier]) is None
    assert spec.generic_mutants and spec.defined_in == Path(__file__)
    assert calibrate(spec, []).mutants == 0


def test_the_first_heading_is_read_from_a_bounded_head(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("intro\n#not a heading\n## Real Title ##\n# Later\n", encoding="utf-8")
    assert first_heading(page) == "Real Title"
    page.write_bytes(b"\n" * (70 * 1024) + b"# Too late\n")
    assert first_heading(page) is None
    page.write_bytes(b"# \xff\xfe\n")
    assert first_heading(page) is None


@pytest.mark.slow
def test_generic_mutants_of_a_wide_answer_stay_few() -> None:
    class Wide(AnswerSchema):
        colours: dict[str, int]

    expected = {"colours": {f"v{i}": i % 3 for i in range(5000)}}
    made = GenericMutants(Wide)(_case(expected), random.Random(3))
    assert 0 < len(made) <= MAX_GENERIC_MUTANTS
    changed = [
        [key for key, value in answer["colours"].items() if value != expected["colours"][key]]
        for answer in made
    ]
    assert all(len(keys) == 1 for keys in changed)
    assert len({keys[0] for keys in changed}) > 1  # random keys, not the first one only
