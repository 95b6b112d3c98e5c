"""A closed pipe on standard output (``list | head -1``, ``verify ... | head``) ends the
command quietly with its own exit code: what it would still print is dropped, as a Unix
tool's output is when its reader has gone."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO

__all__ = ["quiet_when_stdout_closes"]


class _DroppingWhenClosed:
    """``stream``, until a write or flush meets a closed pipe; then it drops everything
    (and the file descriptor is pointed at the null device, so the interpreter's own flush
    at exit finds nothing to complain about)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.closed_pipe = False

    def _reader_gone(self) -> None:
        self.closed_pipe = True
        with contextlib.suppress(OSError, ValueError, AttributeError):
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self._stream.fileno())
            os.close(null)

    def write(self, text: str) -> int:
        if not self.closed_pipe:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._reader_gone()
        return len(text)

    def flush(self) -> None:
        if not self.closed_pipe:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._reader_gone()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def quiet_when_stdout_closes() -> Iterator[None]:
    """Within the block, printing to a closed pipe is no error; standard output is flushed
    (and restored) when it ends."""
    original = sys.stdout
    if original is None:  # no standard output at all (pythonw): nothing to guard
        yield
        return
    guarded = _DroppingWhenClosed(original)
    sys.stdout = guarded
    try:
        yield
    finally:
        guarded.flush()
        if sys.stdout is guarded:
            sys.stdout = original
