"""``python -m verification`` as a real process without paying for a fresh interpreter's
imports each time: a fork server (one per test session, shared by its xdist workers) imports
the harness and the ``anthropic`` SDK once, then forks a child per command line.

Why: importing the SDK costs seconds of CPU (thousands of pydantic models built at import),
and the tests that must run the command line as a process (kill -9, SIGINT and SIGTERM, two
owners of one run, eight runs publishing at once) start a dozen of them. What such a test is
about stays real: each child is its own process with its own pid, its own file descriptors
(the test's pipes), its own environment and working directory, signals sent to it are real
signals (SIGINT goes to Python's default handler, as in a fresh interpreter), and its exit
status is what ``waitpid`` saw. It runs ``verification.__main__`` as ``python -m`` does
(``runpy``), then what a fresh interpreter does at exit: waits for its non-daemon threads,
runs the ``atexit`` handlers, flushes its streams. What a child does not get is a fresh
interpreter's start (a test about that, such as one about an import's side effect or the
interpreter's environment, keeps :mod:`subprocess`).

The server (:mod:`tests.support.fork_serving`) forks a monitor per request, which forks
the child, writes the child's pid and later its wait status to a pipe the test reads (the
child is not the test process's own, so the test cannot ``waitpid`` it): :class:`Child` is
the part of :class:`subprocess.Popen` the tests use.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import io
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any, TypeAlias

import pytest

__all__ = [
    "PRELOAD",
    "Child",
    "ForkServer",
    "Process",
    "fork_server",
    "session_fork_server",
    "shared_fork_server",
]

PRELOAD = (
    "anthropic",
    "anyio._backends._asyncio",
    "httpcore2",
    "truststore",
    "platformdirs",
    "xml.etree.ElementTree",
    "numpy",
    "verification.cli",
    "verification.cli.entry",
    "verification.cli.run_commands",
    "verification.cli.closed_pipe",
    "verification.runner",
    "verification.llm.claude",
    "verification.llm.batches",
    "verification.reports.generator",
    "verification.reports.ci",
    "verification.reports.exports",
    "verification.certify.sequential",
)
"""What every child imports anyway: the command line, the runner, the SDK and what its
client imports on its first request; the server imports the scaffolds' modules too
(:data:`tests.support.fork_serving.PRELOAD_PACKAGES`), which loading the catalog imports."""

ROOT = Path(__file__).resolve().parents[2]
_SERVING = "tests.support.fork_serving"
"""The server's side, the module a server process runs."""


class Child:
    """A command line forked by the server: the part of :class:`subprocess.Popen` the tests
    use (``pid``, ``poll``, ``wait``, ``communicate``, ``send_signal``, ``kill``,
    ``returncode``, ``stdout``/``stderr`` when piped)."""

    def __init__(self, status: int, stdout: IO[Any] | None, stderr: IO[Any] | None) -> None:
        self._status = status
        self._pending = b""
        self.stdout = stdout
        self.stderr = stderr
        self.returncode: int | None = None
        self.pid = int(self._line(block=True) or b"0")
        assert self.pid > 0, "the fork server started no child"

    def _line(self, *, block: bool) -> bytes | None:
        """The next line the monitor wrote, or None if none is complete (``block`` False)."""
        os.set_blocking(self._status, block)
        while b"\n" not in self._pending:
            try:
                chunk = os.read(self._status, 64)
            except BlockingIOError:
                return None
            if not chunk:
                raise AssertionError("the fork server's monitor ended without a status")
            self._pending += chunk
        line, self._pending = self._pending.split(b"\n", 1)
        return line

    def _ended(self, status: bytes) -> int:
        self.returncode = os.waitstatus_to_exitcode(int(status))
        os.close(self._status)
        return self.returncode

    def poll(self) -> int | None:
        """The exit code if the child has ended, else None."""
        if self.returncode is None:
            status = self._line(block=False)
            if status is not None:
                self._ended(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """The exit code once the child ends (:class:`subprocess.TimeoutExpired` after
        ``timeout`` seconds)."""
        if self.returncode is not None:
            return self.returncode
        if timeout is not None:
            ready = selectors.DefaultSelector()
            ready.register(self._status, selectors.EVENT_READ)
            deadline = time.monotonic() + timeout
            while self.poll() is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise subprocess.TimeoutExpired("python -m verification", timeout)
                ready.select(left)
            ready.close()
            assert self.returncode is not None
            return self.returncode
        status = self._line(block=True)
        assert status is not None
        return self._ended(status)

    def communicate(self, timeout: float | None = None) -> tuple[Any, Any]:
        """Everything the child wrote to its piped streams, once it ends."""
        deadline = None if timeout is None else time.monotonic() + timeout
        streams = [s for s in (self.stdout, self.stderr) if s is not None]
        read: dict[int, list[bytes]] = {s.fileno(): [] for s in streams}
        with selectors.DefaultSelector() as ready:
            for stream in streams:
                ready.register(stream.fileno(), selectors.EVENT_READ)
            while ready.get_map():
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise subprocess.TimeoutExpired("python -m verification", timeout or 0)
                for key, _ in ready.select(left):
                    chunk = os.read(key.fd, 65536)
                    if chunk:
                        read[key.fd].append(chunk)
                    else:
                        ready.unregister(key.fd)
        left = None if deadline is None else max(deadline - time.monotonic(), 0.001)
        self.wait(left)
        out = []
        for stream in (self.stdout, self.stderr):
            if stream is None:
                out.append(None)
                continue
            data = b"".join(read[stream.fileno()])
            out.append(data.decode() if isinstance(stream, io.TextIOBase) else data)
            stream.close()
        return out[0], out[1]

    def send_signal(self, sig: int) -> None:
        """Send ``sig`` to the child (nothing once it has ended, as Popen does)."""
        if self.poll() is None:
            os.kill(self.pid, sig)

    def kill(self) -> None:
        """SIGKILL the child."""
        self.send_signal(signal.SIGKILL)


Process: TypeAlias = "Child | subprocess.Popen[Any]"
"""What :meth:`ForkServer.start` returns: a forked :class:`Child`, or where there is no fork a
:class:`subprocess.Popen`."""


class ForkServer:
    """A process that has imported :data:`PRELOAD` and forks a child per :meth:`start`."""

    def __init__(self, preload: Sequence[str] = PRELOAD, *, address: str | None = None) -> None:
        """``preload``: the modules the server imports before it forks (by default
        :data:`PRELOAD`, the SDK's among them; the scaffolds' always). ``address``: the
        socket of a server already serving (:func:`shared_fork_server`), which this one
        only asks, and never closes."""
        self._server: subprocess.Popen[bytes] | None = None
        self._address = address
        if address is not None or not hasattr(os, "fork"):
            return  # no fork (Windows): each command line is a fresh interpreter
        self._folder = tempfile.mkdtemp(prefix="forks-")
        self._address = os.path.join(self._folder, "server")
        self._server = _started(self._address, preload, watched=None)

    def start(
        self,
        argv: Sequence[str],
        *,
        env: Mapping[str, str],
        cwd: Path | str | None = None,
        stdout: int | None = None,
        stderr: int | None = None,
        text: bool = False,
    ) -> Process:
        """``python -m verification *argv`` as a child with ``env`` (its whole environment)
        in ``cwd``; ``stdout``/``stderr`` are :data:`subprocess.PIPE`,
        :data:`subprocess.DEVNULL` or None (this process's own)."""
        address = self._address
        if address is None:
            return subprocess.Popen(
                [sys.executable, "-m", "verification", *argv],
                env=env,
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=stdout,
                stderr=stderr,
                text=text,
            )
        ends: list[int] = []  # the child's ends, closed here once sent
        mine: list[IO[Any] | None] = []
        fds = [os.open(os.devnull, os.O_RDONLY)]
        ends.append(fds[0])
        for given, own in ((stdout, 1), (stderr, 2)):
            if given == subprocess.PIPE:
                read_end, write_end = os.pipe()
                fds.append(write_end)
                ends.append(write_end)
                mine.append(open(read_end, "r" if text else "rb"))  # noqa: SIM115
            elif given == subprocess.DEVNULL:
                fds.append(os.open(os.devnull, os.O_WRONLY))
                ends.append(fds[-1])
                mine.append(None)
            else:
                fds.append(own)
                mine.append(None)
        status_read, status_write = os.pipe()
        fds.append(status_write)
        ends.append(status_write)
        request = {"argv": list(argv), "env": dict(env), "cwd": str(cwd or os.getcwd())}
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
                conn.connect(address)
                socket.send_fds(conn, [b"R"], fds)
                conn.sendall(json.dumps(request).encode())
                conn.shutdown(socket.SHUT_WR)
                assert conn.recv(1) == b"K", "the fork server refused the request"
        finally:
            for fd in ends:
                os.close(fd)
        return Child(status_read, mine[0], mine[1])

    def close(self) -> None:
        """Stop the server once the children it started have ended; a child a failed test
        left running is killed after a minute, with the server. A shared server (made
        with ``address``) is left serving: it ends with the session."""
        if self._server is None or self._address is None:
            return
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.connect(self._address)
            socket.send_fds(conn, [b"Q"], [])
        try:
            self._server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self._server.pid, signal.SIGKILL)
            self._server.wait()
        if self._server.stdout is not None:
            self._server.stdout.close()
        with contextlib.suppress(OSError):
            os.unlink(self._address)
            os.rmdir(self._folder)


def _started(
    address: str, preload: Sequence[str], *, watched: int | None
) -> subprocess.Popen[bytes]:
    """A server of ``preload`` listening at ``address`` once this returns. It ends when the
    process that started it ends or, when ``watched`` is given, once the process ``watched``
    has ended (the server then runs on its own, its starter's child no more)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path[1:]])}
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import {_SERVING} as m; m.serve({address!r}, {list(preload)!r}, {watched!r})",
        ],
        env=env,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        start_new_session=True,  # its own process group: close() can end it whole
    )
    assert server.stdout is not None
    ready = server.stdout.readline()
    assert ready == b"ready\n", f"the fork server did not start: {ready!r}"
    return server


def shared_fork_server(folder: Path, session: int, preload: Sequence[str] = PRELOAD) -> ForkServer:
    """The fork server of ``preload`` of the test session whose controller is the process
    ``session``, shared by its workers through ``folder`` (one they all see): the first
    worker to ask starts it, the others ask the same one. A full server costs seconds of CPU
    to start (the SDK's import), a light one about a second; one per worker was that many
    times over. It outlives the worker that started it, serves until the session's
    controller has ended, then gives the children still running a minute before it ends
    them and itself."""
    name = "forks-" + hashlib.sha256(repr(list(preload)).encode()).hexdigest()[:12]
    address = folder / name
    with open(folder / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the others wait while the first one starts it
        if not address.exists():
            starter = _started(str(address), preload, watched=session)
            starter.wait()  # it returns once the server runs on its own
            assert starter.stdout is not None
            starter.stdout.close()
    return ForkServer(address=str(address))


@contextlib.contextmanager
def session_fork_server(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    preload: Sequence[str] = PRELOAD,
) -> Iterator[ForkServer]:
    """A fork server of ``preload`` for a fixture of ``request``'s session: under xdist the
    one its workers share (:func:`shared_fork_server`), else one of this process's own,
    closed after the block."""
    if hasattr(request.config, "workerinput") and hasattr(os, "fork"):
        # The workers' temporary folders are in one of the session's; the controller is
        # each worker's parent.
        yield shared_fork_server(tmp_path_factory.getbasetemp().parent, os.getppid(), preload)
        return
    server = ForkServer(preload)
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="session")
def fork_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ForkServer]:
    """A :class:`ForkServer` of :data:`PRELOAD` for the session's command lines (registered
    by ``tests/conftest.py``; :func:`session_fork_server`)."""
    with session_fork_server(request, tmp_path_factory) as server:
        yield server
