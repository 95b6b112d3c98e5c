"""What a sandboxed program may use: the limits of one program's interpreter and each case.

The ceilings are the issue's (at most 2 GB of address space, 64 processes, 1 GB of /tmp and
of any one written file); a ``Limits`` over one is refused when it is made, so no setting can
lift them. The CPU limit of a case is scaled from the reference's time on that case with a
floor (:func:`cpu_seconds_for`): a program may be slower than the reference by a constant
factor, not by a different complexity class, and the floor keeps start-up noise and a loaded
machine from failing a fast program. The wall clock is generous on top of that
(:data:`WALL_FACTOR` times the CPU limit, never under :data:`WALL_FLOOR_SECONDS`): it is there
to end a program that sleeps or waits, and a machine shared by many processes gives a
correct program a small share of a core, so a tight wall clock would kill it for the
machine's load, not for its own time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from verification.errors import ConfigurationError

__all__ = [
    "MAX_ADDRESS_SPACE",
    "MAX_FILE_BYTES",
    "MAX_PROCESSES",
    "MAX_TMP_BYTES",
    "WALL_FACTOR",
    "WALL_FLOOR_SECONDS",
    "Limits",
    "cpu_seconds_for",
]

MIB = 1024 * 1024
MAX_ADDRESS_SPACE = 2 * 1024 * MIB
MAX_PROCESSES = 64
MAX_TMP_BYTES = 1024 * MIB
MAX_FILE_BYTES = 1024 * MIB

CPU_FLOOR_SECONDS = 1.0
"""No case gets less CPU than this, however fast the reference was on it."""
CPU_FACTOR = 10.0
"""How many times the reference's time a case may take before it is over its limit."""
WALL_FACTOR = 10.0
"""A case's wall clock is this many times its CPU limit (at least the floor): a program
given a tenth of a core by a loaded machine still ends within it."""
WALL_FLOOR_SECONDS = 30.0
"""No case's wall clock is shorter (the default :attr:`Limits.wall_seconds`)."""


@dataclass(frozen=True)
class Limits:
    """The limits of one program's sandboxed interpreter; per case where the name says so.

    ``cpu_seconds`` and ``wall_seconds`` bound each case (``ProgramSession.run`` may give a
    case its own CPU limit; its wall clock is then ``wall_factor`` times that, never under
    ``wall_seconds``, the floor); ``startup_seconds`` bounds
    starting the interpreter and running the program's top level (again after each crash);
    ``suite_wall_seconds`` bounds a whole suite (code mode's), whose cases left once it is
    spent are not run. The rest bound the
    interpreter: ``address_space`` (RLIMIT_AS, bytes), ``processes`` (tasks of the sandbox:
    the bubblewrap engine allows no thread and no child process at all, Docker's pids limit
    is this), ``file_bytes`` (RLIMIT_FSIZE: the largest file it may write), ``tmp_bytes`` (the
    size of its private /tmp), ``output_bytes`` (what it may print, standard output and
    error together, per case) and ``value_bytes`` (the JSON text of one returned answer).
    """

    cpu_seconds: float = 2.0
    wall_seconds: float = WALL_FLOOR_SECONDS
    wall_factor: float = WALL_FACTOR
    startup_seconds: float = 20.0
    suite_wall_seconds: float = 300.0
    address_space: int = 1024 * MIB
    processes: int = 16
    file_bytes: int = 64 * MIB
    tmp_bytes: int = 64 * MIB
    output_bytes: int = 1 * MIB
    value_bytes: int = 16 * MIB
    max_depth: int = 64
    """How deeply the returned answer may nest (lists and objects)."""
    cpu_floor_seconds: float = CPU_FLOOR_SECONDS
    """The least CPU limit of a case whose limit is scaled from the reference's time (code
    mode's suite); the Code Format states the default. Tests of time-outs pass less."""

    def __post_init__(self) -> None:
        problems = [
            f"{name} must be positive"
            for name in (
                "cpu_seconds",
                "wall_seconds",
                "wall_factor",
                "startup_seconds",
                "suite_wall_seconds",
                "address_space",
                "processes",
                "file_bytes",
                "tmp_bytes",
                "output_bytes",
                "value_bytes",
                "max_depth",
                "cpu_floor_seconds",
            )
            if not getattr(self, name) > 0 or not math.isfinite(getattr(self, name))
        ]
        for name, ceiling in (
            ("address_space", MAX_ADDRESS_SPACE),
            ("processes", MAX_PROCESSES),
            ("tmp_bytes", MAX_TMP_BYTES),
            ("file_bytes", MAX_FILE_BYTES),
        ):
            if getattr(self, name) > ceiling:
                problems.append(f"{name} is at most {ceiling}, not {getattr(self, name)}")
        if self.wall_seconds < self.cpu_seconds:
            problems.append("wall_seconds must be at least cpu_seconds")
        if self.wall_factor < 1:
            problems.append("wall_factor must be at least 1 (a wall clock under the CPU limit)")
        if problems:
            raise ConfigurationError("sandbox limits: " + "; ".join(problems))

    def for_case(self, cpu_seconds: float | None) -> Limits:
        """These limits with a case's own CPU limit; its wall clock is ``wall_factor`` times
        that, never shorter than this one's ``wall_seconds`` (the floor)."""
        if cpu_seconds is None or cpu_seconds == self.cpu_seconds:
            return self
        wall = max(self.wall_seconds, self.wall_factor * cpu_seconds)
        return replace(self, cpu_seconds=cpu_seconds, wall_seconds=wall)


def cpu_seconds_for(reference_seconds: float, *, floor: float = CPU_FLOOR_SECONDS) -> float:
    """A case's CPU limit from the reference's seconds on it: ``CPU_FACTOR`` times, at
    least ``floor``."""
    if not math.isfinite(reference_seconds) or reference_seconds < 0:
        raise ConfigurationError(
            f"a reference time must be a finite number >= 0, not {reference_seconds}"
        )
    return max(floor, CPU_FACTOR * reference_seconds)
