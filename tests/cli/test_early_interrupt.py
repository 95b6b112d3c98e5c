"""A Ctrl-C that lands while the harness is still being imported, or its parser built, ends
the command as a later one does: exit 130 and one line, no traceback (hunt yy: a traceback,
and exit 1, the code of a scaffold that FAILED). The Ctrl-C is sent by the process to itself
as a chosen module is imported (an import hook in ``sitecustomize``), not after a delay."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a process per case

HOOK = """
import os, signal, sys

class _CtrlC:
    def find_spec(self, name, path=None, target=None):
        if name == os.environ["SIGINT_AT_IMPORT"]:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, _CtrlC())
"""


@pytest.mark.parametrize(
    "module",
    [
        "verification.cli.entry",  # python -m verification importing the harness
        "verification.llm.providers",  # the parser's own lazy import, before any command
        "verification.cli.listing",  # the command itself
    ],
)
def test_a_ctrl_c_while_the_harness_starts_exits_130_without_a_traceback(
    tmp_path: Path, module: str
) -> None:
    (tmp_path / "sitecustomize.py").write_text(HOOK, encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tmp_path), str(root)]),
        "SIGINT_AT_IMPORT": module,
    }
    done = subprocess.run(
        [sys.executable, "-m", "verification", "list"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 130, done.stderr
    assert done.stderr.strip() == "interrupted (Ctrl-C): stopped as asked"
