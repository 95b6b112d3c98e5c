"""A Ctrl-C that lands while the harness is still being imported, or its parser built, ends
the command as a later one does: exit 130 and one line, no traceback (hunt yy: a traceback,
and exit 1, the code of a scaffold that FAILED). The Ctrl-C is sent by the process to itself
as a chosen module is imported (an import hook in ``sitecustomize``), not after a delay."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tomllib
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


ROOT = Path(__file__).resolve().parents[2]


def _command(entry: str) -> list[str]:
    """``python -m verification``, or ``verify-scaffolds`` as the wrapper pip writes for it
    runs it: its entry point, as pyproject.toml declares it, imported and called (hunt ad:
    it imported the harness with no guard)."""
    if entry == "python -m verification":
        return [sys.executable, "-m", "verification"]
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["scripts"]
    module, function = scripts["verify-scaffolds"].split(":")
    return [
        sys.executable,
        "-c",
        f"import sys; from {module} import {function}; sys.exit({function}())",
    ]


def _list_interrupted_at(
    tmp_path: Path, module: str, *, ignored: bool = False, command: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``list`` in a fresh process that sends itself SIGINT as ``module`` is imported
    (started with SIGINT ignored, as a script's ``cmd &`` starts it, when ``ignored``), by
    ``command`` (``python -m verification`` unless given)."""
    (tmp_path / "sitecustomize.py").write_text(HOOK, encoding="utf-8")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]),
        "SIGINT_AT_IMPORT": module,
    }
    return subprocess.run(
        [*(command or _command("python -m verification")), "list"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if ignored else None,
    )


@pytest.mark.parametrize(
    "module",
    [
        "verification.cli.entry",  # python -m verification importing the harness
        "verification.cli.closed_pipe",  # main's own first import (hunt ac)
        "verification.llm.providers",  # the parser's own lazy import, before any command
        "verification.cli.listing",  # the command itself
    ],
)
@pytest.mark.parametrize("entry", ["python -m verification", "verify-scaffolds"])
def test_a_ctrl_c_while_the_harness_starts_exits_130_without_a_traceback(
    tmp_path: Path, module: str, entry: str
) -> None:
    done = _list_interrupted_at(tmp_path, module, command=_command(entry))
    assert done.returncode == 130, done.stderr
    assert done.stderr.strip() == "interrupted (Ctrl-C): stopped as asked"


def test_a_process_started_with_ctrl_c_ignored_keeps_ignoring_it(tmp_path: Path) -> None:
    # Hunt ab: the handler that catches an early Ctrl-C was put over an ignored SIGINT, so a
    # background job of a script (`cmd &`) could be stopped by one.
    done = _list_interrupted_at(tmp_path, "verification.cli.entry", ignored=True)
    assert done.returncode == 0, done.stderr
    assert "dijkstra" in done.stdout


def test_the_late_signal_handler_leaves_an_ignored_signal_ignored() -> None:
    # Hunt ac: exit_with put its handler over a SIGINT ignored from the start, so one that
    # came while Python shut down ended the process at once, its atexit work skipped.
    from verification.cli.entry import _handle_late_signals

    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        _handle_late_signals(lambda signum, frame: None)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)
