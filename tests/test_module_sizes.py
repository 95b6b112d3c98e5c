"""No module of the package outside ``reference/`` passes 500 lines (issue 22 item 9: a
module that grows past it is split by responsibility). Two grew past it unnoticed:
``cases.py`` (504) and ``cli/run_commands.py`` (507)."""

from __future__ import annotations

from pathlib import Path

import verification

LIMIT = 500
PACKAGE = Path(verification.__file__).parent


def test_no_module_outside_reference_passes_500_lines() -> None:
    modules = [path for path in PACKAGE.rglob("*.py") if "reference" not in path.parts]
    assert len(modules) > 100  # the package was found
    long = {
        str(path.relative_to(PACKAGE)): lines
        for path in modules
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LIMIT
    }
    assert long == {}
