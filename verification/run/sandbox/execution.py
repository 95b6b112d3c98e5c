"""What one case of a sandboxed program came to: an ``Execution``, its ``Outcome`` a value.

A program's failure is an execution's outcome, never an exception of the harness: a
time-out, a crash or a value that is no JSON all come back as ``Execution`` values with a
short reason a report can print. ``SANDBOX`` is the one outcome that is not the program's
doing (the engine itself failed to start); a run counts it as an infrastructure failure.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["PROGRAM_FAILURES", "Execution", "Outcome", "cut"]

REASON_CHARS = 2000
"""How much of a reason or of the program's output an execution keeps (its tail)."""


class Outcome(StrEnum):
    """How one case of a program ended."""

    OK = "ok"
    """``solve`` returned a JSON value within the limits (right or wrong: the judge says)."""
    SYNTAX = "syntax"
    """The program does not compile."""
    NO_SOLVE = "no_solve"
    """The program defines no callable ``solve``."""
    EXCEPTION = "exception"
    """The program's top level or ``solve`` raised (``sys.exit`` included)."""
    TIMEOUT = "timeout"
    """Over the case's CPU limit, or killed at its wall clock."""
    MEMORY = "memory"
    """Over the address-space limit (``MemoryError``)."""
    CRASH = "crash"
    """The interpreter ended during the case (killed itself, closed the driver's pipe)."""
    OUTPUT_LIMIT = "output_limit"
    """It printed more than its output limit, or returned an answer over its size limit."""
    BAD_VALUE = "bad_value"
    """``solve`` returned something that is no JSON value (a set, NaN, a non-string key,
    nesting deeper than the limit), or damaged the reply on its way out."""
    NOT_RUN = "not_run"
    """The caller skipped the case (it says why in the reason)."""
    SANDBOX = "sandbox"
    """The sandbox itself failed to start: no fault of the program."""


PROGRAM_FAILURES = frozenset(Outcome) - {Outcome.OK, Outcome.NOT_RUN, Outcome.SANDBOX}
"""The outcomes that are the program's own failure."""


@dataclass(frozen=True)
class Execution:
    """One case of one program: how it ended, what it returned and how long it took.

    ``value`` is the JSON data ``solve`` returned (``None`` unless the outcome is ``OK``;
    the property ``output`` is its JSON text). ``seconds`` is the wall-clock time of the case as the
    harness saw it (sending the input to reading the answer), ``solve_seconds`` the time of
    the ``solve`` call alone as the driver timed it (``None`` when it never returned), and
    ``cpu_seconds`` the interpreter's CPU time during the case, read from outside
    (``None`` where the engine cannot see it). ``reason`` says why a case failed; ``stderr``
    is the tail of what the program printed during it (standard output and error).
    """

    outcome: Outcome
    value: object = None
    seconds: float = 0.0
    solve_seconds: float | None = None
    cpu_seconds: float | None = None
    reason: str = ""
    stderr: str = ""

    @property
    def output(self) -> str:
        """The JSON text of ``value`` (compact; empty unless the outcome is ``OK``)."""
        if self.outcome is not Outcome.OK:
            return ""
        return json.dumps(self.value, ensure_ascii=False, separators=(",", ":"))

    @property
    def ok(self) -> bool:
        """Whether ``solve`` returned a JSON value within the limits."""
        return self.outcome is Outcome.OK


def cut(text: str, chars: int = REASON_CHARS) -> str:
    """The tail of ``text``, at most ``chars`` characters, marked when cut."""
    return text if len(text) <= chars else "..." + text[-(chars - 3) :]
