"""Locks on disk. One process owns a run directory at a time: :class:`RunLock` holds an
OS lock on ``<run>/lock`` (released by the kernel when its process dies, even by
``kill -9``); :func:`exclusive_lock` serialises writers of a shared file (the response
cache, the latest reports)."""

from __future__ import annotations

import errno
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from verification.errors import JournalError, RunInUseError
from verification.store.stored_files import open_own_file

__all__ = ["LOCK_POLL_S", "RunLock", "check_not_in_use", "exclusive_lock"]


LOCK_POLL_S = 0.05
"""How often a bounded wait for a lock tries again (seconds)."""


class RunLock:
    """Ownership of a run directory: an exclusive, non-blocking OS lock on ``<run>/lock``
    (``flock``; ``msvcrt.locking`` on Windows), which holds the owner's pid. Taken at
    construction; a second taker gets :class:`RunInUseError` naming the run and that pid.
    The kernel drops the lock when its process dies, so a killed run never stays locked."""

    def __init__(self, run_dir: Path, run_id: str, *, then: str = "resume") -> None:
        """``then``: what the refusal says to do once the owner has finished."""
        run_dir.mkdir(parents=True, exist_ok=True)
        self.path = run_dir / "lock"
        self._fd: int | None = open_own_file(self.path, os.O_RDWR | os.O_CREAT)
        try:
            _lock_file(self._fd)
        except OSError:
            owner = _owner(self._fd)
            os.close(self._fd)
            self._fd = None
            raise _in_use(run_id, owner, self.path, then) from None
        try:
            os.ftruncate(self._fd, 0)
            os.write(self._fd, f"{os.getpid()}\n".encode("ascii"))
        except OSError as exc:  # a full disk: say which file, as every write of a run does
            self.release()
            raise JournalError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def release(self) -> None:
        """Give the run up (the file stays: removing it would race with a new taker)."""
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the lock
            self._fd = None

    def __enter__(self) -> RunLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _in_use(run_id: str, owner: str, path: Path, then: str) -> RunInUseError:
    return RunInUseError(
        f"run {run_id} is in use by process {owner} (it holds {path}); wait for it to finish "
        f"or stop it, then {then}"
    )


def _owner(fd: int) -> str:
    """The pid the lock file ``fd`` holds, or "unknown". Its owner writes it just after
    taking the lock: an empty file is read again once, a moment later."""
    for _ in range(2):
        # The lock file holds its owner's pid, or whatever else someone wrote there.
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        if text:
            return text if text.isdigit() else "unknown"
        time.sleep(LOCK_POLL_S)
    return "unknown"


def check_not_in_use(run_dir: Path, run_id: str, *, then: str) -> None:
    """Raise :class:`RunInUseError` when another process owns run ``run_id`` (a run being
    asked: its journal is not whole yet). Only looked at, never written: a run with no lock
    file was never owned, and a lock file that cannot be opened or locked (a read-only copy,
    a downloaded artifact, a planted file) is no run being asked here: nothing is said."""
    path = run_dir / "lock"
    try:
        # Only locked, never written: a lock with other names (a backup taken with cp -al
        # while the run went) is still the running run's (hunt y).
        fd = open_own_file(path, os.O_RDONLY, writes=False)
    except (OSError, JournalError):
        return
    try:
        _lock_file(fd)
    except OSError as exc:
        if exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK, errno.EDEADLK):
            raise _in_use(run_id, _owner(fd), path, then) from None
    finally:
        os.close(fd)  # closing the descriptor drops a lock it took


def _lock_file(fd: int, *, wait: bool = False) -> None:
    """Lock ``fd`` exclusively; without ``wait``, raise :class:`OSError` when it is taken."""
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        msvcrt.locking(fd, msvcrt.LK_LOCK if wait else msvcrt.LK_NBLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)


@contextmanager
def exclusive_lock(
    path: Path, *, timeout: float | None = None, stop: threading.Event | None = None
) -> Iterator[None]:
    """Hold an exclusive OS lock on ``path`` (created when missing) for the ``with`` block,
    waiting for another holder to finish; the kernel drops it if the holder dies.

    With ``timeout`` (seconds) or ``stop``, the wait is bounded: :class:`TimeoutError` when
    the lock is still held after ``timeout``, or as soon as ``stop`` is set (a process told
    to end must not wait on a lock another process keeps)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if timeout is None and stop is None:
            _lock_file(fd, wait=True)
        else:
            _wait_for_lock(fd, path, timeout, stop or threading.Event())
        yield
    finally:
        os.close(fd)  # closing the descriptor drops the lock


def _wait_for_lock(fd: int, path: Path, timeout: float | None, stop: threading.Event) -> None:
    deadline = time.monotonic() + (timeout if timeout is not None else float("inf"))
    while True:
        try:
            _lock_file(fd)
            return
        except OSError:  # taken: try again shortly, unless told to stop or out of time
            pass
        if stop.wait(LOCK_POLL_S):
            raise TimeoutError(errno.ETIMEDOUT, "stopped waiting for the lock", str(path))
        if time.monotonic() >= deadline:
            why = f"another process has held the lock for {timeout:g} s"
            raise TimeoutError(errno.ETIMEDOUT, why, str(path))
