"""A throwaway plugin distribution, installed the way importlib.metadata finds any package:
a ``*.dist-info`` with an ``entry_points.txt`` on ``PYTHONPATH``; and the real command line
run in a child process that sees it."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

InstallPlugin = Callable[..., dict[str, str]]
RunCli = Callable[..., subprocess.CompletedProcess[str]]
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


def _cli(
    env: dict[str, str], cwd: Path, *argv: str, bytecode: Path
) -> subprocess.CompletedProcess[str]:
    return _child(env, cwd, ["-m", "verification", *argv], bytecode)


def _child(
    env: dict[str, str], cwd: Path, argv: list[str], bytecode: Path
) -> subprocess.CompletedProcess[str]:
    # The children keep the bytecode they compile in ``bytecode``, outside the checkout:
    # with PYTHONDONTWRITEBYTECODE set (as in some shells and CI), each fresh interpreter
    # compiled the whole package from source, about a third of a short command's CPU time.
    env = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return subprocess.run(
        [sys.executable, *argv],
        env={**env, "PYTHONPYCACHEPREFIX": str(bytecode)},
        cwd=cwd,
        capture_output=True,
        text=True,
        # Only there to fail loudly if a command never ends: check of nine hostile plugins
        # took 20 s on a quiet two-core machine and over 120 s on a loaded one.
        timeout=600,
        check=False,
    )


_MARK = "commands done: "

_SEVERAL = f"""
import contextlib, io, json, logging, sys, traceback

from verification.cli import main

done = []
for argv in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    logging.root.handlers.clear()  # basicConfig then writes to this command's stderr
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv, prog="python -m verification")
        except SystemExit as exc:  # as the interpreter maps sys.exit's argument
            code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
        except BaseException:  # as the interpreter reports what ends it
            traceback.print_exc()
            code = 1
    done.append([code, out.getvalue(), err.getvalue()])
print({_MARK!r} + json.dumps(done))
"""


def _cli_several(
    env: dict[str, str], cwd: Path, *argvs: list[str], bytecode: Path
) -> list[subprocess.CompletedProcess[str]]:
    child = _child(env, cwd, ["-c", _SEVERAL, json.dumps(argvs)], bytecode)
    marked = [line for line in child.stdout.splitlines() if line.startswith(_MARK)]
    assert child.returncode == 0 and marked, child.stdout[-2000:] + child.stderr[-2000:]
    return [
        subprocess.CompletedProcess(argv, code, out, err)
        for argv, (code, out, err) in zip(argvs, json.loads(marked[-1][len(_MARK) :]), strict=True)
    ]


@pytest.fixture(scope="session")
def install_plugin() -> InstallPlugin:
    """``install_plugin(root, entry_points, modules=None) -> env``: see :func:`_plugin`."""
    return _plugin


@pytest.fixture(scope="session")
def bytecode(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the children keep the bytecode they compile (``PYTHONPYCACHEPREFIX``)."""
    return tmp_path_factory.mktemp("bytecode")


@pytest.fixture(scope="session")
def cli(bytecode: Path) -> RunCli:
    """``cli(env, cwd, *argv)``: ``python -m verification *argv`` in a child process."""
    return functools.partial(_cli, bytecode=bytecode)


@pytest.fixture(scope="session")
def cli_several(bytecode: Path) -> RunSeveral:
    """``cli_several(env, cwd, *argvs)``: each ``argv`` run by the command line's ``main``,
    one after another, in one child process (a fresh interpreter that sees the plugin), each
    with its own exit code, standard output and standard error. For tests that read several
    commands' output and are not about the process itself: one interpreter's start and
    import, not one per command. The plugins load once, so their load warnings are the
    first command's."""
    return functools.partial(_cli_several, bytecode=bytecode)
