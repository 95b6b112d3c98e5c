"""The fork server's side (:mod:`tests.support.preloaded` starts it and asks it): import
what every child would, then fork a monitor per request, which forks the child and reports
its pid and wait status; the child becomes ``python -m verification`` as a fresh
interpreter would run it."""

from __future__ import annotations

import atexit
import contextlib
import importlib
import json
import os
import pkgutil
import runpy
import signal
import socket
import sys
import threading
import time
import traceback
from collections.abc import Sequence
from typing import Any

__all__ = ["PRELOAD_PACKAGES", "PRELOAD_PAGES", "PRELOAD_TEMPLATES", "serve"]

PRELOAD_PACKAGES = (
    "verification.catalog",
    "verification.reference",
    "verification.generators",
    "verification.validators",
)

PRELOAD_TEMPLATES = {
    "verification.reports.generator": ("scaffold.md.j2", "summary.md.j2"),
    "verification.reports.charts": ("chart.svg.j2",),
}
"""The report templates every child that writes reports compiles on its first run, by the
module whose jinja environment holds them: compiled once in the server, as the imports are
(compiling them was three fifths of a forked dry run's CPU)."""
PRELOAD_PAGES = ("index.html.j2", "runs.html.j2")
"""The HTML pages' templates (:func:`verification.reports.html.page_template`)."""


def serve(address: str, preload: Sequence[str], watched: int | None = None) -> None:
    """Import ``preload`` and :data:`PRELOAD_PACKAGES`, then fork a monitor per request
    until the parent ends (or, given ``watched``, the process ``watched``: see
    :func:`tests.support.preloaded._started`)."""
    for name in preload:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            # What the SDK's client imports differs by version (httpcore2 and truststore are
            # not there at the lowest declared versions): a module missing itself is not
            # preloaded; one that fails to import anything else is a fault.
            if exc.name != name:
                raise
    for name in PRELOAD_PACKAGES:
        package = importlib.import_module(name)
        for found in pkgutil.walk_packages(package.__path__, f"{name}."):
            if name == "verification.catalog" and found.name.count(".") == 2 and not found.ispkg:
                continue  # the catalog's own machinery (compat, docs): not every run's
            importlib.import_module(found.name)
    _compile_templates()
    parent = os.getppid()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(address)
    listener.listen(16)
    listener.settimeout(1.0)
    if watched is not None and os.fork() != 0:
        # The starter's child says the server is ready and ends; the server, its child,
        # serves on (its starter waits for nothing more) until ``watched`` has ended.
        sys.stdout.write("ready\n")
        sys.stdout.flush()
        os._exit(0)
    if watched is not None:
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # no one reads the starter's pipe
    else:
        sys.stdout.write("ready\n")
        sys.stdout.flush()
    sys.stderr.flush()
    while _alive(watched) if watched is not None else os.getppid() == parent:
        _reap(block=False)
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            continue
        conn.settimeout(None)
        kind, fds, _, _ = socket.recv_fds(conn, 1, 4)
        if kind == b"Q":
            break
        body = b""
        while chunk := conn.recv(65536):
            body += chunk
        request = json.loads(body)
        if os.fork() == 0:
            listener.close()
            conn.close()
            _monitor(request, fds)
        for fd in fds:
            os.close(fd)
        conn.sendall(b"K")
        conn.close()
    listener.close()
    if watched is None:
        _reap(block=True)
        return
    # No one closes a shared server: what ForkServer.close gives an own server's children
    # (a minute, then SIGKILL to its process group), it gives its own.
    with contextlib.suppress(OSError):
        os.unlink(address)
    deadline = time.monotonic() + 60
    while _monitors_left() and time.monotonic() < deadline:
        time.sleep(0.1)
    os.killpg(0, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process has its number: ours has ended
        return False
    return True


def _monitors_left() -> bool:
    """Reap the monitors that ended; whether any is still running."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        return False
    return True


def _compile_templates() -> None:
    """Compile :data:`PRELOAD_TEMPLATES` and :data:`PRELOAD_PAGES` into the jinja
    environments the children inherit (each caches what it compiled)."""
    from verification.reports.html import page_template

    for module, names in PRELOAD_TEMPLATES.items():
        environment = importlib.import_module(module)._environment()
        for name in names:
            environment.get_template(name)
    for name in PRELOAD_PAGES:
        page_template(name)


def _reap(*, block: bool) -> None:
    """Wait for the monitors that ended (all of them when ``block``): waited for, their
    children's CPU time counts in this server's, and so (a server of its own, which the
    test process waits for) in the test run's."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, 0 if block else os.WNOHANG)[0]:
            pass


def _monitor(request: dict[str, Any], fds: list[int]) -> None:
    """Fork the child, report its pid and then its wait status; never returns."""
    try:
        *streams, status = fds
        pid = os.fork()
        if pid == 0:
            os.close(status)
            _child(request, streams)
        for fd in streams:
            os.close(fd)
        os.write(status, f"{pid}\n".encode())
        _, ended = os.waitpid(pid, 0)
        os.write(status, f"{ended}\n".encode())
    finally:
        os._exit(0)


def _child(request: dict[str, Any], streams: list[int]) -> None:
    """Become ``python -m verification *argv``; never returns."""
    code = 1
    try:
        for target, fd in enumerate(streams):
            if fd != target:
                os.dup2(fd, target)
        for fd in set(streams):
            if fd > 2:
                os.close(fd)
        # What a fresh interpreter starts with (the tests' runs must hear Ctrl-C).
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        # A fresh interpreter puts PYTHONPATH's folders at the front of sys.path: one the
        # server did not start with (a test's installed plugin) is found there too.
        given = os.environ.get("PYTHONPATH", "").split(os.pathsep)
        sys.path[1:1] = [folder for folder in given if folder and folder not in sys.path]
        sys.argv = ["python -m verification", *request["argv"]]
        code = _run_main()
    finally:
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def _run_main() -> int:
    """Run ``verification.__main__`` and end as the interpreter would: its exit code."""
    try:
        runpy.run_module("verification", run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as exit_:
        if exit_.code is None or isinstance(exit_.code, int):
            code = exit_.code or 0
        else:
            print(exit_.code, file=sys.stderr)
            code = 1
    except KeyboardInterrupt:
        traceback.print_exc()
        _at_exit()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)  # as an interpreter ended by Ctrl-C does
        code = 130
    except BaseException:
        traceback.print_exc()
        code = 1
    _at_exit()
    return code


def _at_exit() -> None:
    for thread in threading.enumerate():
        if thread is not threading.main_thread() and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()
