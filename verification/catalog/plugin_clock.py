"""A time limit on each call into a plugin's code: a generator that never returns would
block a ``verify`` run's event loop for good (SIGTERM, handled on that loop, could not stop
it; only SIGKILL did) and hang ``check``.

A plugin runs in the harness's own process, so the limit is a signal: an interval timer
(``SIGALRM``) armed around the call whose handler raises :class:`_Overran` in the
plugin's code, the way Ctrl-C raises ``KeyboardInterrupt`` there. Python runs signal
handlers between bytecodes, and a blocking call such as ``time.sleep`` returns to run
them, so a loop in Python or a long sleep is stopped. Code that catches the exception and
goes on meets it again each second after; after :data:`GIVE_UP_AFTER` more seconds of
that, the process ends with the plugin's error (exit 2), as nothing in-process can stop
such code: every journal line is on disk already, and ``--resume`` continues. What never
returns to the interpreter (one call into C that runs for ever) and what ends the process
itself (``os._exit``) are beyond any limit taken in-process: a plugin is code its user
chose to install.

Signals reach the main thread only, so only calls made there are limited (the runner,
``check`` and ``show-prompt`` call plugins there); a call nested in a limited one keeps the
outer limit.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import NoReturn

from verification.cases import printable
from verification.errors import PluginError

__all__ = ["GIVE_UP_AFTER", "PLUGIN_CALL_SECONDS", "PluginClock", "time_limit", "timed_out_after"]

PLUGIN_CALL_SECONDS = 60.0
"""How long one call into a plugin may run (a case's drawing, a validation, ...): the
package's own scaffolds draw their largest case in well under a second."""

_HAS_TIMER = hasattr(signal, "SIGALRM") and hasattr(signal, "setitimer")
"""Windows has neither: there calls into plugins run without a limit."""
_AGAIN_SECONDS = 1.0
"""After the limit, how often the exception is raised again in code that swallowed it."""
GIVE_UP_AFTER = 10
"""Raises swallowed after the first before the process ends (see the module's docstring)."""


class _Overran(BaseException):
    """Raised in a plugin's code when its call passed :data:`PLUGIN_CALL_SECONDS` (a
    ``BaseException``, so that an ``except Exception`` in the plugin does not swallow it)."""


@dataclass
class _Limit:
    """The limit armed (calls nest: a generator may call its own validator)."""

    give_up: Callable[[], NoReturn] | None
    raised: int = 0


_armed: list[_Limit] = []


def _overran(signum: int, frame: FrameType | None) -> None:
    if not _armed:
        return
    limit = _armed[0]
    limit.raised += 1
    if limit.raised > GIVE_UP_AFTER and limit.give_up is not None:
        limit.give_up()
    raise _Overran


@contextmanager
def time_limit(
    seconds: float | None = None, *, give_up: Callable[[], NoReturn] | None = None
) -> Iterator[None]:
    """Raise :class:`_Overran` in the block once it has run ``seconds`` (default
    :data:`PLUGIN_CALL_SECONDS`), and every second after, calling ``give_up`` (which ends
    the process) when that went on :data:`GIVE_UP_AFTER` times. A no-op outside the main
    thread, inside another limit (whose deadline stands), where the platform has no
    ``SIGALRM`` (Windows), and where the process has an interval timer of its own armed (a
    watchdog such as pytest-timeout's, whose deadline a limit here would cancel)."""
    if (
        _armed
        or not _HAS_TIMER
        or threading.current_thread() is not threading.main_thread()
        or signal.getitimer(signal.ITIMER_REAL)[0] > 0
    ):
        yield
        return
    limit = PLUGIN_CALL_SECONDS if seconds is None else seconds
    previous = signal.signal(signal.SIGALRM, _overran)
    _armed.append(_Limit(give_up))
    signal.setitimer(signal.ITIMER_REAL, limit, _AGAIN_SECONDS)
    try:
        yield
    finally:
        _disarm(previous)


@contextmanager
def timed_out_after(seconds: float) -> Iterator[None]:
    """:func:`time_limit` for a block that is no plugin's call (a checkout's test module
    ``check`` imports): past ``seconds`` the block ends in :class:`TimeoutError`, which its
    caller words. The exception raised in the block's code is a ``BaseException``, so an
    ``except Exception`` there does not swallow it; one that catches everything meets it
    again each second after."""
    try:
        with time_limit(seconds):
            yield
    except _Overran:
        raise TimeoutError(f"did not return within {seconds:g} s") from None


def _disarm(previous: object) -> None:
    # The timer may fire as the plugin's call returns, before ``_armed`` is emptied: that
    # raise lands here, in the harness's code, so the step is taken again. Once cleared, a
    # late signal is ignored.
    while True:
        try:
            _armed.clear()
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)  # type: ignore[arg-type]
            return
        except _Overran:
            continue


class PluginClock:
    """The time limit of every call into one plugin spec: a call past it is the plugin's
    :class:`~verification.errors.PluginError`, and after it the spec is not called again
    (each later case would wait out the limit too): every later call fails at once, saying
    which call overran first."""

    def __init__(self, distribution: str, scaffold: str) -> None:
        self._distribution = distribution
        self._scaffold = scaffold
        self._overran: str | None = None

    def _stopped(self, what: str, *, earlier: bool) -> PluginError:
        first = self._overran
        # A call refused after the overrun says so: it did not hang itself (hunt ff read
        # "case 0 ...: its generator did not return" of cases never drawn).
        return PluginError(
            f"its {first} did not return within {PLUGIN_CALL_SECONDS:g} s"
            + (" in an earlier call" if earlier else "")
            + " and was stopped (VERIFY_PLUGIN_CALL_SECONDS sets the limit)"
            + (f": its {what} is not called again" if earlier else ""),
            distribution=self._distribution,
            scaffold=self._scaffold,
        )

    @contextmanager
    def limit(self, what: str) -> Iterator[None]:
        """Run the block (a call to the plugin's ``what``) within the limit."""
        if self._overran is not None:
            raise self._stopped(what, earlier=True)
        try:
            with time_limit(give_up=lambda: self._give_up(what)):
                yield
        except _Overran:
            self._overran = what
            raise self._stopped(what, earlier=False) from None

    def _give_up(self, what: str) -> NoReturn:
        error = PluginError(
            f"its {what} did not return within {PLUGIN_CALL_SECONDS:g} s and went on for "
            f"{GIVE_UP_AFTER:g} s more, stopped each second: nothing in this process can "
            "stop it, so the process ends here (every answer so far is journalled: fix or "
            "uninstall the plugin, then continue with --resume)",
            distribution=self._distribution,
            scaffold=self._scaffold,
        )
        sys.stderr.write(f"error: {printable(str(error), limit=1000)}\n")
        sys.stderr.flush()
        os._exit(error.exit_code)
