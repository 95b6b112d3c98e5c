"""What a run shows on the terminal while it works, and SIGTERM taken as Ctrl-C."""

from __future__ import annotations

import contextlib
import logging
import signal
import sys
import threading
from collections.abc import Awaitable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from verification.errors import Terminated

if TYPE_CHECKING:
    from rich.console import Console

logger = logging.getLogger("verification")
T = TypeVar("T")

__all__ = ["ProgressBar", "Terminated", "sigterm_as_ctrl_c", "terminable"]


class ProgressBar:
    """A progress bar on a terminal (none when output is piped, so CI logs stay clean)."""

    def __init__(self, console: Console | None = None) -> None:
        """On ``console`` (default: rich's, on standard error)."""
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("elapsed"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        )
        self._progress.start()
        self._task = self._progress.add_task("answers", total=None)

    def start(self, total: int) -> None:
        """The number of cases to answer (repairs come on top, uncounted)."""
        self._progress.update(self._task, total=total)

    @classmethod
    def on_terminal(cls, shown: bool | None = None) -> Any:
        """A bar on standard error when it is a terminal (whatever standard output is:
        ``verify ... | tee log`` shows it) or ``shown``; else, with ``-v``, progress lines
        in the log; nothing when ``shown`` is False."""
        if shown is False:
            return None
        if shown or sys.stderr.isatty():
            from rich.console import Console

            return cls(Console(stderr=True, force_terminal=True if shown else None))
        if logger.isEnabledFor(logging.INFO):
            from verification.cli.progress_log import ProgressLog

            return ProgressLog()
        return None

    def advance(self, record: Any) -> None:
        # One step per case answered: a repair attempt refines an answer already counted.
        step = 1 if record.attempt == 1 else 0
        self._progress.update(
            self._task, advance=step, description=f"{record.scaffold} {record.outcome}"
        )

    def close(self) -> None:
        """Take the bar off the terminal (again: nothing)."""
        self._progress.stop()


async def terminable(work: Awaitable[T]) -> T:
    """``await work``, with SIGTERM cancelling it as Ctrl-C does (where signals can be
    caught: not on Windows)."""
    import asyncio

    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    terminated = False

    def on_sigterm() -> None:
        nonlocal terminated
        terminated = True
        task.cancel()

    try:
        loop.add_signal_handler(signal.SIGTERM, on_sigterm)
    except (NotImplementedError, RuntimeError):  # Windows, or not the main thread
        return await work
    try:
        return await work
    except asyncio.CancelledError:
        if terminated:
            raise Terminated from None
        raise
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


@contextlib.contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """SIGTERM raises :class:`Terminated` (a :class:`KeyboardInterrupt`) while in the
    block, outside an event loop: a finished run writing its reports is stopped as Ctrl-C
    stops it, saying so, rather than killed without a word (main thread only; elsewhere,
    and where signals cannot be caught, the block runs as it is)."""

    def on_sigterm(signum: int, frame: object) -> None:
        raise Terminated

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    try:
        before = signal.signal(signal.SIGTERM, on_sigterm)
    except (ValueError, OSError, AttributeError):  # no SIGTERM to catch here
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)
