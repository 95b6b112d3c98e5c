"""A throwaway plugin distribution, installed the way importlib.metadata finds any package:
a ``*.dist-info`` with an ``entry_points.txt`` on ``PYTHONPATH``; and the real command line
run in a child process that sees it (a fresh interpreter, or one forked from a preloaded
one: ``tests/support/preloaded.py``)."""

from __future__ import annotations

import functools
import os
import subprocess
import textwrap
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest

from tests.support.light_forks import light_fork_server
from tests.support.preloaded import ForkServer

InstallPlugin = Callable[..., dict[str, str]]
RunSeveral = Callable[..., list[subprocess.CompletedProcess[str]]]

PLUGIN_MODULE = '''
"""A plugin scaffold: the largest number of a list."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.spec import AnswerSchema, ScaffoldSpec, SizeAxis
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


def _plugin(
    root: Path, entry_points: str, modules: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Install a throwaway distribution ``demo-scaffolds`` under ``root`` (the package
    ``demo_scaffolds`` with the largest_number scaffold, and ``modules`` beside it by
    name); the environment that makes it visible."""
    package = root / "demo_scaffolds"
    package.mkdir()
    (package / "__init__.py").write_text(textwrap.dedent(PLUGIN_MODULE), encoding="utf-8")
    for name, source in (modules or {}).items():
        (package / f"{name}.py").write_text(textwrap.dedent(source), encoding="utf-8")
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


def _cli_several(
    env: dict[str, str], cwd: Path, *argvs: list[str], bytecode: Path, forks: ForkServer
) -> list[subprocess.CompletedProcess[str]]:
    env = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(bytecode)
    done = []
    for argv in argvs:
        child = forks.start(
            argv, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        out, err = child.communicate(timeout=600)
        done.append(subprocess.CompletedProcess(argv, child.returncode, out, err))
    return done


@pytest.fixture(scope="session")
def install_plugin() -> InstallPlugin:
    """``install_plugin(root, entry_points, modules=None) -> env``: see :func:`_plugin`."""
    return _plugin


@pytest.fixture(scope="session")
def bytecode(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the children keep the bytecode they compile (``PYTHONPYCACHEPREFIX``)."""
    return tmp_path_factory.mktemp("bytecode")


@pytest.fixture(scope="session")
def plugin_forks(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ForkServer]:
    """A fork server (``tests/support/light_forks.py``) that has imported the command line,
    the runner, the reports and the scaffolds, not the SDK, which no command here uses."""
    with light_fork_server(request, tmp_path_factory) as server:
        yield server


@pytest.fixture(scope="session")
def cli_several(bytecode: Path, plugin_forks: ForkServer) -> RunSeveral:
    """``cli_several(env, cwd, *argvs)``: ``python -m verification *argv`` for each ``argv``,
    one after another, each a process of its own with its own exit code, standard output
    and standard error, forked by :func:`plugin_forks` from an interpreter that has imported
    the harness already (the plugin's folder put on its ``sys.path`` from ``PYTHONPATH``, as
    a fresh interpreter's). For tests that read commands' output and are not about a fresh
    interpreter's start: a fork each, not an interpreter's start and imports (about 1.5 s
    of CPU for a dry run's). Each command loads the plugins, as a command line does."""
    return functools.partial(_cli_several, bytecode=bytecode, forks=plugin_forks)
