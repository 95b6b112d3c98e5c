"""``python -m verification``, and ``verify-scaffolds`` (:func:`script`): each imports the
harness under a guard for a Ctrl-C that lands while it does."""

from __future__ import annotations

import signal
import sys
from types import FrameType
from typing import NoReturn

INTERRUPTED = 130
"""The exit code of a command stopped by Ctrl-C (as :mod:`verification.cli.exit_codes`
says; not imported from there, since a Ctrl-C may land while that import runs)."""


def _run(prog: str | None) -> int:
    """The command, with a Ctrl-C that lands while the harness is still being imported
    (the first few tenths of a second) ending it as a Ctrl-C does later, with 130 and no
    traceback: it printed one and exited 1, the code of a scaffold that FAILED, and a
    Ctrl-C inside an extension module's import could even come out as another exception
    (pydantic-core's pyo3 ``PanicException``; hunt yy)."""
    heard: list[int] = []

    def interrupted(signum: int, frame: FrameType | None) -> None:
        heard.append(signum)
        raise KeyboardInterrupt

    # Only over Python's own handler: a process started with Ctrl-C ignored (`cmd &` in a
    # script) keeps ignoring it (hunt ab).
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.default_int_handler:
        signal.signal(signal.SIGINT, interrupted)
    try:
        from verification.cli.entry import exit_with, main
    except BaseException:
        if not heard:
            raise
        print("interrupted (Ctrl-C): stopped as asked", file=sys.stderr)
        return INTERRUPTED
    finally:
        if previous is signal.default_int_handler:
            signal.signal(signal.SIGINT, previous)
    exit_with(main(prog=prog))


def script() -> NoReturn:
    """``verify-scaffolds`` (the console script pip writes imports this and calls it): as
    ``python -m verification``, with the same guard (hunt ad: the script imported the
    harness unguarded, and an early Ctrl-C printed a traceback)."""
    sys.exit(_run(None))


if __name__ == "__main__":
    sys.exit(_run("python -m verification"))
