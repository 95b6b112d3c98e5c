"""The developer guide's "Adding a scaffold" (issue 27 item 15) lists every command a
contributor's change is held to: the lint, type and layer commands CI runs (read from
``.ci/run``), the reference module's doctests and the generic tests that find a new scaffold
by its registration, each path of which exists; and it asks for four files, the test module
being the last (no test file per reference)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUIDE = (ROOT / "docs" / "DEVELOPER_GUIDE.md").read_text(encoding="utf-8")
SECTION = GUIDE[GUIDE.index("## Adding a scaffold") : GUIDE.index("### One rule for an answer")]


def _commands() -> list[str]:
    """The guide's command block of the section, continued lines joined, comments dropped."""
    block = re.search(r"```bash\n(.*?)```", SECTION, re.S)
    assert block, "the section shows its commands in a bash block"
    joined = block.group(1).replace("\\\n", " ")
    return [line.split("  #")[0].strip() for line in joined.splitlines() if line.strip()]


def _ci_lint_commands() -> list[str]:
    """The commands of .ci/run's lint, types and layers step."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    step = ci[ci.index('echo "== lint, types and layers"') :].splitlines()[1:]
    return [line.strip() for line in step[: next(i for i, s in enumerate(step) if not s)]]


def test_the_guide_lists_every_command_ci_holds_a_change_to() -> None:
    lint = _ci_lint_commands()
    assert {"mypy", "lint-imports"} <= set(lint)
    assert set(lint) <= set(_commands())


def test_the_guides_pytest_line_runs_the_doctests_and_the_generic_tests() -> None:
    pytest_lines = [c for c in _commands() if c.startswith("pytest")]
    # The new scaffold's files, then the fast lane: every generic test, every scaffold.
    (pytest_line,) = [c for c in pytest_lines if "/" in c]
    assert 'pytest -m "not slow"' in pytest_lines
    paths = [a for a in shlex.split(pytest_line) if "/" in a]
    assert "verification/reference/dynamic_programming.py" in paths  # lcs's doctests
    for generic in ("test_scaffold_contract.py", "test_reference_properties.py"):
        assert f"tests/catalog/{generic}" in paths
    for path in paths:
        if "lcs" not in path:  # the example scaffold's own file is the one being written
            assert (ROOT / path).exists(), path
    assert "python -m verification check lcs" in _commands()
    assert "mypy" in _commands()


def test_four_files_are_written_and_no_test_file_per_reference() -> None:
    steps = re.findall(r"^(\d)\. \*\*([^*]+)\*\*", SECTION, re.M)
    assert [title for _, title in steps][:4] == [
        "Reference",
        "Catalog module",
        "Scaffold",
        "Test module",
    ]
    assert "**four files**" in SECTION
    assert "a new scaffold needs none there" in SECTION
