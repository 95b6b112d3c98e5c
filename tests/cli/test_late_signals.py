"""A Ctrl-C or SIGTERM that comes once a command has returned leaves its exit code alone.

Pressing Ctrl-C twice, or a supervisor's SIGTERM as a run finishes, reached the process
while Python shut down, and it died of the signal: a parent read -2 or -15 where the command
had decided 130, 143 or the run's status (hunt k, 27 November). Each test starts
``python -m verification`` as a process and sends it the signal while its ``SystemExit``
unwinds (the moment it came in the hunt), or from an exit handler that runs after the
harness's own."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # processes

# `python -m verification ARGV` as the interpreter runs it, the signal sent where the test
# says: `unwinding` in a finally around the module (the exit code decided, SystemExit on
# its way out), `at_exit` from an exit handler registered first, so it runs last.
_COMMAND = """
import atexit, os, runpy, signal, sys, time
where, signum, argv = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def send():
    os.kill(os.getpid(), signum)
    time.sleep(0.5)  # the handler runs on the next instruction: time enough to end the process
    print("the signal changed nothing", file=sys.stderr)
if where == "at_exit":
    atexit.register(send)
sys.argv = ["python -m verification", *argv]
try:
    runpy.run_module("verification", run_name="__main__", alter_sys=True)
finally:
    if where == "unwinding":
        send()
"""


def _run(where: str, signum: int, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _COMMAND, where, str(int(signum)), *argv],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_after_the_command_returned_keeps_its_exit_code(signum: int) -> None:
    done = _run("unwinding", signum, "list", "--category", "graph", "--json")
    assert done.returncode == 0, done.stderr
    assert '"dijkstra"' in done.stdout  # what it printed is kept, flushed before the end
    usage = _run("unwinding", signum, "list", "--category", "nope")
    assert usage.returncode == 2, usage.stderr
    assert "nope" in usage.stderr


def test_a_late_sigterm_leaves_a_finished_dry_run_its_status(tmp_path: Path) -> None:
    argv = ("verify", "kmp", "--provider", "reference", "--cases", "3", "--output", str(tmp_path))
    done = _run("unwinding", signal.SIGTERM, *argv)
    assert done.returncode == 0, done.stderr
    (run,) = (tmp_path / "runs").iterdir()
    assert (run / "reports" / "summary.json").is_file()


def test_a_signal_from_an_exit_handler_is_ignored_and_the_code_kept() -> None:
    done = _run("at_exit", signal.SIGINT, "list", "--category", "nope")
    assert done.returncode == 2, done.stderr
    # Ignored: the exit handler went on after it, and no KeyboardInterrupt was printed.
    assert "the signal changed nothing" in done.stderr
    assert "KeyboardInterrupt" not in done.stderr
