"""One program's sandboxed interpreter serving its cases: ``ProgramSession``, ``run_program``.

The interpreter starts once per program (the driver compiles the program and runs its top
level) and serves case after case over a pipe; a case that kills it (a time-out, a crash, too
much output) ends as that case's failure and the next case starts a fresh one. A program that
fails to start (no compile, no ``solve``, a top level that raises) fails every case the same
way without another start. Every limit is enforced from here, outside the program: the rlimits
the engine's ``preexec`` sets before exec, a CPU limit per case lowered onto the running
interpreter (``prlimit``) and read back from ``/proc`` after the case, a wall-clock kill, and
caps on the bytes read from its pipes; its tasks are limited once it runs, before the
program does (``prlimit`` again: the count is the user's, shared by sandboxes side by side).
Nothing a program does raises here: every end is an
:class:`~verification.run.sandbox.execution.Execution`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import resource
import secrets
import signal
import time
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from verification.run.sandbox.cpu_clock import (
    ClockStop,
    CpuClock,
    interpreter_pid,
    read_line_within,
    timeout_reason,
)
from verification.run.sandbox.engines import Engine, Launch
from verification.run.sandbox.execution import Execution, Outcome, cut
from verification.run.sandbox.limits import Limits
from verification.run.sandbox.wire import encode_input, read_reply

__all__ = ["DRIVER_SOURCE", "ProgramSession", "encode_input"]

DRIVER_SOURCE = Path(__file__).with_name("driver.py").read_text(encoding="utf-8")
TAIL_BYTES = 4096


REPLY_ENVELOPE_BYTES = 1024
"""What a reply line holds besides its answer (its status, the driver's time)."""


class ProgramSession:
    """One program in one sandboxed interpreter, started on the first case and restarted
    after a case that killed it. Use as ``async with ProgramSession(...) as session``."""

    def __init__(self, source: str, *, limits: Limits, engine: Engine) -> None:
        self.source = source
        self.limits = limits
        self.engine = engine
        self.failure: Execution | None = None
        """A failure of the program as a whole (it failed to start): every case's answer."""
        self.starts = 0
        """How many interpreters this session started."""
        self._process: asyncio.subprocess.Process | None = None
        self._launch: Launch | None = None
        self._clock: CpuClock | None = None
        self._drain: asyncio.Task[None] | None = None
        self._printed = 0
        self._printed_cap = limits.output_bytes
        self._over_output = False
        self._tail = b""
        self._final_cpu: float | None = None
        self._load_cpu: float | None = None
        """The CPU the program's top level used when last loaded, until a case is charged it."""
        self._turn = asyncio.Lock()  # one case at a time: the protocol is a line each way

    async def __aenter__(self) -> ProgramSession:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Stop the interpreter, if one runs."""
        await self._kill()

    async def run(
        self,
        case_input: Mapping[str, object],
        *,
        cpu_seconds: float | None = None,
        answer_bytes: int | None = None,
    ) -> Execution:
        """``solve(case_input)`` in the sandbox, within this case's CPU limit (the session's
        unless given, the wall clock scaled alike) and its answer's size (``answer_bytes``
        of JSON; the session's ``value_bytes`` unless given)."""
        return await self.run_encoded(
            encode_input(case_input), cpu_seconds=cpu_seconds, answer_bytes=answer_bytes
        )

    async def run_encoded(
        self, payload: bytes, *, cpu_seconds: float | None = None, answer_bytes: int | None = None
    ) -> Execution:
        """``run`` of an input already made a line by :func:`encode_input` (several
        programs on the same cases encode each case once)."""
        async with self._turn:
            return await self._run_encoded(payload, cpu_seconds, answer_bytes)

    async def _run_encoded(
        self, payload: bytes, cpu_seconds: float | None, answer_bytes: int | None = None
    ) -> Execution:
        if self.failure is not None:
            return self.failure
        if self._clock is not None and self._clock.seconds() is None:
            # The interpreter ended between cases while its sandbox lived on: a fresh one,
            # never a case with no CPU clock.
            await self._kill()
        if self._process is None or self._process.returncode is not None:
            failure = await self._start()
            if failure is not None:
                self.failure = failure
                return failure
        limits = self.limits.for_case(cpu_seconds)
        self._reset_output()
        before = self._clock.seconds() if self._clock is not None else None
        # The program's top level (its load, after each start) is the next case's CPU: work
        # done there would otherwise be free (tables precomputed at import: hunt jj).
        loading, self._load_cpu = self._load_cpu, None
        if before is not None and loading is not None:
            before -= loading
        self._lower_cpu_limit(before, limits.cpu_seconds)
        self._final_cpu = None
        started = time.perf_counter()
        cpu_end = None if before is None else before + limits.cpu_seconds
        nonce = secrets.token_hex(8)
        sent = b'{"nonce":"' + nonce.encode() + b'",' + payload.removeprefix(b"{")
        reply = await self._exchange(sent, limits.wall_seconds, cpu_end, answer_bytes, nonce)
        seconds = time.perf_counter() - started
        # A killed interpreter's CPU time was read just before the kill.
        clock = self._clock
        after = self._final_cpu if self._process is None or clock is None else clock.seconds()
        cpu = None if before is None or after is None else max(0.0, after - before)
        stderr = self._tail_text()
        if isinstance(reply, Execution):
            if reply.outcome is Outcome.TIMEOUT and reply.reason.startswith("killed at"):
                reply = replace(reply, reason=timeout_reason(limits, cpu) + _loaded(loading))
            return replace(reply, seconds=seconds, cpu_seconds=cpu, stderr=stderr)
        status = reply.get("status")
        if status == Outcome.OK:
            # The driver's clock runs in the program's interpreter, whose builtins the program
            # may replace: its figure is kept only where the round trip measured out here
            # can hold it (a NaN, a negative, 1e400 or a 400-digit number is no time).
            solve_seconds = reply.get("seconds")
            if (
                not isinstance(solve_seconds, float | int)
                or isinstance(solve_seconds, bool)
                or not 0 <= solve_seconds <= seconds
            ):
                solve_seconds = seconds
            if cpu is not None and cpu > limits.cpu_seconds:
                return Execution(
                    Outcome.TIMEOUT,
                    seconds=seconds,
                    solve_seconds=solve_seconds,
                    cpu_seconds=cpu,
                    reason=f"used {cpu:.2f} s of CPU, over the limit of {limits.cpu_seconds:g} s"
                    + _loaded(loading),
                    stderr=stderr,
                )
            value = reply.get("value")
            return Execution(
                Outcome.OK,
                value=value,
                seconds=seconds,
                solve_seconds=solve_seconds,
                cpu_seconds=cpu,
                stderr=stderr,
            )
        return replace(self._failure_reply(reply), seconds=seconds, cpu_seconds=cpu, stderr=stderr)

    # -- the interpreter's life --------------------------------------------------------

    async def _start(self) -> Execution | None:
        """Start an interpreter and load the program; its failure, or ``None`` once ready."""
        launch = self.engine.launch(self.limits, DRIVER_SOURCE)
        self._launch = launch
        self.starts += 1
        try:
            process = await asyncio.create_subprocess_exec(
                *launch.argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=launch.env,
                pass_fds=launch.pass_fds,
                preexec_fn=launch.preexec,
                start_new_session=True,
                limit=self.limits.value_bytes + 64 * 1024,
            )
        except OSError as error:
            return Execution(
                Outcome.SANDBOX, reason=f"the {self.engine.name} sandbox did not start: {error}"
            )
        finally:
            for fd in launch.pass_fds:
                os.close(fd)
        self._process = process
        assert process.stderr is not None
        self._reset_output()
        self._drain = asyncio.create_task(self._read_output(process.stderr))
        started = time.perf_counter()
        reply = await self._exchange(b"", self.limits.startup_seconds)  # the driver runs
        driver_ran = not isinstance(reply, Execution)  # it said "started": bwrap did its part
        booted = None
        if not isinstance(reply, Execution):
            started = time.perf_counter()
            booted = self._start_clock(process.pid)
            reply = await self._send_program(process.pid, reply)
        seconds = time.perf_counter() - started
        if isinstance(reply, Execution):
            tail = self._tail_text()
            # Only before the driver ran is "bwrap:" the sandbox's word: after, the program
            # may write it to pass its own crash off as the sandbox's (an infra error).
            if not driver_ran and tail.startswith("bwrap:") and reply.outcome is Outcome.CRASH:
                reply = replace(
                    reply, outcome=Outcome.SANDBOX, reason=f"the sandbox failed: {cut(tail, 500)}"
                )
            return replace(
                reply, reason="starting the program: " + reply.reason, seconds=seconds, stderr=tail
            )
        if reply.get("status") != "ready":
            await self._kill()
            return replace(self._failure_reply(reply), seconds=seconds, stderr=self._tail_text())
        loaded = None if self._clock is None else self._clock.seconds()
        self._load_cpu = None if loaded is None or booted is None else max(0.0, loaded - booted)
        return None

    def _start_clock(self, engine_pid: int) -> float | None:
        """The interpreter's CPU clock, read once the driver runs and before the program is
        loaded (``None``: an engine that measures none, or no clock to read)."""
        self._clock = None
        if self.engine.measures_cpu:
            pid = interpreter_pid(engine_pid)
            with contextlib.suppress(OSError):
                self._clock = CpuClock(pid) if pid is not None else None
        return None if self._clock is None else self._clock.seconds()

    async def _send_program(
        self, engine_pid: int, started: dict[str, Any]
    ) -> dict[str, Any] | Execution:
        """Once the driver said it ``started``: limit its tasks, then send the program; the
        driver's reply, or why the program was not sent (the sandbox killed). Without its
        task limit the program never runs."""
        if started.get("status") != "started":
            await self._kill()
            return Execution(Outcome.SANDBOX, reason="the interpreter did not start the driver")
        try:
            self.engine.limit_tasks(engine_pid, self.limits)
        except OSError as error:
            await self._kill()
            return Execution(Outcome.SANDBOX, reason=f"its task limit could not be set ({error})")
        header = {
            "source": self.source,
            "value_bytes": self.limits.value_bytes,
            "max_depth": self.limits.max_depth,
        }
        return await self._exchange(
            json.dumps(header).encode() + b"\n", self.limits.startup_seconds
        )

    def _failure_reply(self, reply: dict[str, Any]) -> Execution:
        """A failure the driver reported, as an execution (an unknown status is damage)."""
        status, reason = reply.get("status"), reply.get("reason")
        outcomes = {o.value: o for o in Outcome}
        if status in (Outcome.OK, Outcome.NOT_RUN, Outcome.SANDBOX) or status not in outcomes:
            return Execution(
                Outcome.BAD_VALUE, reason="the driver's reply was damaged by the program"
            )
        return Execution(outcomes[status], reason=cut(reason if isinstance(reason, str) else ""))

    async def _exchange(
        self,
        payload: bytes,
        wall: float,
        cpu_end: float | None = None,
        answer_bytes: int | None = None,
        nonce: str | None = None,
    ) -> dict[str, Any] | Execution:
        """Send one line and read one back within ``wall`` seconds (and, where the
        interpreter's CPU clock is read, before its CPU time passes ``cpu_end``); a failure
        ends the interpreter and comes back as an execution. A reply longer than
        ``answer_bytes`` and its envelope is refused before it is parsed (a program that
        answered megabytes cheaply cost the harness seconds and gigabytes; hunt jj 3), and
        a case's reply without its ``nonce`` is no reply to it."""
        process = self._process
        assert process is not None and process.stdin is not None and process.stdout is not None
        try:
            async with asyncio.timeout(wall):
                process.stdin.write(payload)
                await process.stdin.drain()
                line = await read_line_within(process.stdout, self._clock, cpu_end)
        except TimeoutError:
            await self._kill()
            if self._over_output:
                return self._output_failure()
            return Execution(
                Outcome.TIMEOUT, reason=f"killed at the wall-clock limit of {wall:g} s"
            )
        except ValueError:  # the line is over the stream's limit
            await self._kill()
            return Execution(
                Outcome.OUTPUT_LIMIT,
                reason=f"the answer is over the limit of {self.limits.value_bytes} bytes",
            )
        except (BrokenPipeError, ConnectionResetError):
            line = b""
        if line is ClockStop.GONE:
            await self._kill()
            return Execution(
                Outcome.CRASH,
                reason="the interpreter ended during the case, and its sandbox went on without "
                "answering: ended",
            )
        if line is ClockStop.OVER:
            await self._kill()
            if self._over_output:
                return self._output_failure()
            # The reason is the CPU time read at the kill (``timeout_reason``).
            return Execution(Outcome.TIMEOUT, reason="killed at the CPU limit")
        if self._over_output:
            await self._kill()
            return self._output_failure()
        if not line.endswith(b"\n"):
            return await self._ended()
        if answer_bytes is not None and len(line) > answer_bytes + REPLY_ENVELOPE_BYTES:
            return Execution(
                Outcome.OUTPUT_LIMIT,
                reason=f"the answer is {len(line) - REPLY_ENVELOPE_BYTES:,} bytes of JSON or more, "
                f"over this case's limit of {answer_bytes:,}",
            )
        reply, problem = read_reply(line, self.limits.max_depth)
        if reply is None:
            await self._kill()
            return Execution(Outcome.BAD_VALUE, reason=problem)
        if nonce is not None and reply.get("nonce") != nonce:
            # Written before this case's input was sent: lines queued ahead on the driver's
            # descriptor were read as later cases' answers, each shifted (hunt jj 4).
            await self._kill()
            return Execution(
                Outcome.BAD_VALUE,
                reason="the reply was not to this case (written before its input was sent)",
            )
        return reply

    def _output_failure(self) -> Execution:
        return Execution(
            Outcome.OUTPUT_LIMIT,
            reason=f"printed more than the limit of {self.limits.output_bytes} bytes",
        )

    async def _ended(self) -> Execution:
        """The interpreter ended on its own during a case: why, as far as can be told."""
        process = self._process
        assert process is not None
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(5):
                await process.wait()
                if self._drain is not None:
                    await self._drain
        code = process.returncode
        await self._kill()
        tail = self._tail_text()
        signalled = code - 128 if code is not None and code > 128 else None
        if code is not None and code < 0:
            signalled = -code
        if signalled == signal.SIGXCPU:
            return Execution(Outcome.TIMEOUT, reason="over its CPU limit (SIGXCPU)")
        if "MemoryError" in tail[-300:]:
            return Execution(Outcome.MEMORY, reason="the interpreter ran out of memory")
        how = (
            f"signal {signal.Signals(signalled).name}"
            if signalled in set(signal.Signals)
            else f"exit status {code}"
        )
        reason = f"the interpreter ended during the case ({how})"
        return Execution(Outcome.CRASH, reason=reason + (f": {cut(tail, 500)}" if tail else ""))

    async def _kill(self) -> None:
        """End the interpreter and everything in its sandbox (``--die-with-parent`` takes
        the rest when the engine's own process goes)."""
        process, clock = self._process, self._clock
        self._final_cpu = clock.seconds() if clock is not None else None
        self._process, self._clock = None, None
        if clock is not None:
            clock.close()
        if process is None:
            return
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            command = self.engine.kill(self._launch) if self._launch is not None else None
            if command is not None:
                with contextlib.suppress(OSError):
                    killer = await asyncio.create_subprocess_exec(
                        *command,
                        stdout=asyncio.subprocess.DEVNULL,
                        stderr=asyncio.subprocess.DEVNULL,
                    )
                    await killer.wait()
        if process.stdin is not None:
            process.stdin.close()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(10):
                await process.wait()
        if self._drain is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(2):
                    await self._drain
            self._drain.cancel()

    def _lower_cpu_limit(self, used: float | None, cpu_seconds: float) -> None:
        """Set the interpreter's soft CPU limit past this case's end (a SIGXCPU there): a
        limit set inside would accumulate across cases and could be lifted by the program.
        The harness ends the case at its limit itself (``read_line_within``); the rlimit, in
        whole seconds, is the backstop should the harness not get to read the clock in time."""
        if self._clock is None or used is None:
            return
        soft = math.ceil(used + cpu_seconds) + 1
        with contextlib.suppress(OSError):
            resource.prlimit(self._clock.pid, resource.RLIMIT_CPU, (soft, resource.RLIM_INFINITY))

    # -- what the program prints -------------------------------------------------------

    def _reset_output(self) -> None:
        self._printed = 0
        self._tail = b""
        self._over_output = False

    def _tail_text(self) -> str:
        return self._tail.decode("utf-8", "replace")[-TAIL_BYTES:]

    async def _read_output(self, stream: asyncio.StreamReader) -> None:
        """Drain standard error (the program's prints go there too), keeping the tail and
        killing the interpreter once a case printed more than its limit."""
        while chunk := await stream.read(65536):
            self._printed += len(chunk)
            self._tail = (self._tail + chunk)[-TAIL_BYTES:]
            if self._printed > self._printed_cap and not self._over_output:
                self._over_output = True
                process = self._process
                if process is not None and process.returncode is None:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.killpg(process.pid, signal.SIGKILL)


def _loaded(loading: float | None) -> str:
    """What a case's CPU time holds of the program's top level, where that is worth saying."""
    if loading is None or loading < 0.01:
        return ""
    return f", {loading:.2f} s of it the program's top level, run when it was loaded"
