"""Scaffolds from installed plugins: a throwaway distribution (a ``*.dist-info`` with an
``entry_points.txt``, found on ``PYTHONPATH`` as importlib.metadata finds any installed
package) is listed, checked, shown and certified in a dry run by the real command line; a
broken one is skipped with a warning that names its distribution, and the rest keep working.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PLUGIN_MODULE = '''
"""A plugin scaffold: the largest number of a list."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from verification.cases import TestCase, Tier
from verification.spec import AnswerSchema, ScaffoldSpec, SizeAxis
from verification.validators.exact_match import ExactMatchValidator


class LargestAnswer(AnswerSchema):
    largest: int


def largest_number(numbers: list[int]) -> dict[str, Any]:
    """The largest number.

    Parameters
    ----------
    numbers : list of int

    Returns
    -------
    dict

    Examples
    --------
    >>> largest_number([1, 5, 2])
    {'largest': 5}
    """
    if not numbers:
        raise ValueError("numbers must not be empty")
    return {"largest": max(numbers)}


def generate(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    return {"numbers": [rng.randint(-50, 50) for _ in range(size)]}


def mutants(case: TestCase, rng: random.Random) -> list[dict[str, Any]]:
    largest = case.expected["largest"]
    return [{"largest": largest + 1}, {"largest": largest - 1}]


SPEC = ScaffoldSpec(
    name="largest_number",
    category="plugin_demo",
    title="Largest number",
    description="the largest number of a list (a plugin's scaffold)",
    reference=largest_number,
    generator=generate,
    answer_schema=LargestAnswer,
    validator=ExactMatchValidator(),
    sizes={"simple": 3, "standard": 6, "edge": 1},
    size=SizeAxis(
        unit="numbers",
        measure=lambda test_input: len(test_input["numbers"]),
        ranges={"simple": (1, 20), "standard": (1, 20), "edge": (1, 20)},
    ),
    mutants=mutants,
    markdown=Path(__file__).with_name("largest_number.md"),
)

NOT_A_SPEC = "just a string"
SHADOW = ScaffoldSpec(**{**SPEC.__dict__, "name": "dijkstra", "category": "graph"})
MISSING_MARKDOWN = ScaffoldSpec(**{**SPEC.__dict__, "name": "lost_scaffold",
                                   "markdown": Path(__file__).with_name("nowhere.md")})
'''

PLUGIN_MARKDOWN = """\
# Largest Number

## When to Use

Use this to find the largest number of a list. The input is `{"numbers": [...]}`.

## Scaffold Instructions

1. Keep the largest number seen so far, starting with the first.
2. Compare each next number with it and keep the larger.
3. Check: no number of the list is larger than your answer.

## Worked Example

```json worked-example-input
{"numbers": [3, -1, 7, 2]}
```

3, then 7. The answer:

```json worked-example-answer
{"largest": 7}
```

## Output Format

End your reply with exactly ONE fenced `json` block:

```json
{"largest": 7}
```

## Edge Cases

- One number: it is the largest.
"""


def _plugin(root: Path, entry_points: str) -> dict[str, str]:
    """Install a throwaway distribution ``demo-scaffolds`` under ``root``; the environment
    that makes it visible."""
    package = root / "demo_scaffolds"
    package.mkdir()
    (package / "__init__.py").write_text(textwrap.dedent(PLUGIN_MODULE), encoding="utf-8")
    (package / "largest_number.md").write_text(PLUGIN_MARKDOWN, encoding="utf-8")
    info = root / "demo_scaffolds-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: demo-scaffolds\nVersion: 0.1\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        "[verification.scaffolds]\n" + entry_points, encoding="utf-8"
    )
    paths = [str(root), os.environ.get("PYTHONPATH", "")]
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERIFY_")}
    return {**env, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}


def _cli(env: dict[str, str], cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "verification", *argv],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("site")
    return _plugin(
        root,
        "largest_number = demo_scaffolds:SPEC\n"
        "broken = demo_scaffolds:NOT_A_SPEC\n"
        "lost_scaffold = demo_scaffolds:MISSING_MARKDOWN\n"
        "dijkstra = demo_scaffolds:SHADOW\n"
        "unimportable = demo_scaffolds_missing:SPEC\n",
    )


def test_a_plugin_scaffold_is_certified_in_a_dry_run(
    plugin_env: dict[str, str], tmp_path: Path
) -> None:
    done = _cli(
        plugin_env,
        tmp_path,
        "verify",
        "largest_number",
        "--provider",
        "reference",
        "--cases",
        "10",
        "--output",
        str(tmp_path / "out"),
    )
    assert done.returncode == 0, done.stderr
    assert "largest_number" in done.stdout and "CERTIFIED" in done.stdout
    summary = json.loads((tmp_path / "out" / "reports" / "summary.json").read_text())
    assert summary["dry_run"] is True
    assert summary["scaffolds"]["largest_number"]["pass_rate"] == 1.0
    manifest = json.loads(
        next((tmp_path / "out" / "runs").iterdir()).joinpath("manifest.json").read_text()
    )
    assert manifest["scaffolds"]["largest_number"]["file"].endswith("largest_number.md")


def test_a_plugin_scaffold_is_listed_checked_and_shown(
    plugin_env: dict[str, str], tmp_path: Path
) -> None:
    listed = _cli(plugin_env, tmp_path, "list")
    assert listed.returncode == 0, listed.stderr
    assert "largest_number" in listed.stdout and "dijkstra" in listed.stdout
    checked = _cli(plugin_env, tmp_path, "check", "largest_number", "--cases", "10")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "all checks passed" in checked.stdout
    shown = _cli(
        plugin_env,
        tmp_path,
        "show-prompt",
        "largest_number",
        "--case",
        "largest_number-standard-000",
        "--part",
        "system",
    )
    assert shown.returncode == 0 and shown.stdout.startswith("# Largest Number")


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("broken", "not a ScaffoldSpec"),
        ("lost_scaffold", "markdown file of 'lost_scaffold' is missing"),
        ("unimportable", "does not load"),
    ],
)
def test_a_broken_plugin_is_skipped_with_its_reason(
    plugin_env: dict[str, str], tmp_path: Path, name: str, reason: str
) -> None:
    listed = _cli(plugin_env, tmp_path, "list")
    assert "demo-scaffolds" in listed.stderr and reason in listed.stderr  # the warning
    asked = _cli(plugin_env, tmp_path, "verify", name, "--provider", "reference")
    assert asked.returncode == 2
    assert f"scaffold {name!r} from demo-scaffolds was skipped" in asked.stderr
    assert reason in asked.stderr


def test_a_plugin_cannot_take_a_known_name(plugin_env: dict[str, str], tmp_path: Path) -> None:
    listed = _cli(plugin_env, tmp_path, "list")
    assert "already declared by verification.catalog.graph.dijkstra" in listed.stderr
    done = _cli(
        plugin_env,
        tmp_path,
        "verify",
        "dijkstra",
        "--provider",
        "reference",
        "--cases",
        "3",
        "--output",
        str(tmp_path / "out"),
    )
    assert done.returncode == 0, done.stderr  # the catalog's own dijkstra, untouched
