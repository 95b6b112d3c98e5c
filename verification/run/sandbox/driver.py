"""The driver: the small program inside the sandbox that serves one program's cases.

It runs as ``python -c <this file's text>`` in the sandboxed interpreter and imports only
the standard library. Its protocol is one JSON object a line, on the interpreter's standard
input and output as the engine started it; before anything of the program runs, it moves
both to private descriptors and points the program's standard output at standard error, so
what the program prints (or closes) never touches the protocol::

    driver -> harness   {"status": "started"}                              once
    harness -> driver   {"source": ..., "value_bytes": N, "max_depth": D}   once
    driver -> harness   {"status": "ready"} or a failure (below), then it exits
    harness -> driver   {"nonce": N, "input": {...}}                        per case
    driver -> harness   {"status": "ok", "nonce": N, "seconds": S, "value": ...}  or a failure

A failure is ``{"status": OUTCOME, "nonce": N, "reason": TEXT}`` with an outcome of
:class:`~verification.run.sandbox.execution.Outcome`. The driver checks the answer before
encoding it (JSON types only, string keys, no NaN or infinity, nesting and size bounded), with
an encoder made before the program ran, so a program that monkeypatches ``json`` changes its
own answer at most. The program is in the same process and can damage the driver: the harness
trusts no reply (it re-reads each one under a size cap) and measures time from outside. Each
case's reply carries the case's nonce, a random one the harness sent with its input: a
program cannot know a later case's, so a reply written ahead of its case (lines queued on
the driver's descriptor) is told from that case's own.
"""

from __future__ import annotations

import json
import linecache
import math
import os
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any, BinaryIO

__all__ = ["check_answer", "main"]

PROGRAM_NAME = "<program>"


def _reason(error: BaseException) -> str:
    """The tail of a program's traceback, its own frames only where possible."""
    try:
        # The first frame is the driver's own call of the program: not the program's story.
        frames = error.__traceback__.tb_next if error.__traceback__ is not None else None
        text = "".join(traceback.format_exception(type(error), error, frames))
    except BaseException:  # a hostile __str__; the class name is still true
        text = type(error).__name__
    # A lone surrogate (an honest message may hold one) written as its escape: the harness
    # refuses a reply that carries one, and read the exception as damage (hunt jj 7).
    return text[-1500:].encode("utf-8", "backslashreplace").decode("utf-8")


def check_answer(value: object, max_depth: int, value_bytes: int) -> tuple[str, str] | None:
    """Why ``value`` is no JSON answer within the limits, as an outcome (``bad_value`` or
    ``output_limit``) and a reason, or ``None``. Iterative, so a deep value cannot recurse,
    and it counts the JSON text's size as it goes, so a huge answer is refused before it
    is encoded (the harness checks each reply with it again)."""
    stack: list[tuple[object, int]] = [(value, 0)]
    over = ("output_limit", f"the answer is over the limit of {value_bytes} bytes of JSON")
    size = 0  # at least the JSON text's bytes so far: a separator or a number's digit each
    while stack:
        item, depth = stack.pop()
        size += 1
        if isinstance(item, str):
            size += len(item) + 1  # with the node's own byte, its two quotes
        if size > value_bytes:
            return over
        if item is None or isinstance(item, bool | int):
            continue
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    return "bad_value", "the answer holds a string that is not valid Unicode"
            continue
        if isinstance(item, float):
            if not math.isfinite(item):
                return "bad_value", f"the answer holds {item!r}, which JSON cannot carry"
            continue
        if depth >= max_depth:
            return "bad_value", f"the answer nests deeper than {max_depth} levels"
        if isinstance(item, list | tuple | dict):
            # Its closing bracket and commas, and a byte at least for each element: a list
            # of a billion numbers is refused here, before its elements are stacked.
            size += len(item)
            if size + len(item) > value_bytes:
                return over
        if isinstance(item, list | tuple):
            stack.extend((element, depth + 1) for element in item)
        elif isinstance(item, dict):
            for key, element in item.items():
                if not isinstance(key, str):
                    kind = type(key).__name__
                    return (
                        "bad_value",
                        f"the answer has a key of type {kind}; JSON keys are strings",
                    )
                size += len(key) + 3
                stack.append((element, depth + 1))
        else:
            return "bad_value", f"the answer holds a {type(item).__name__}, which is no JSON value"
    return None


class _Channel:
    """The driver's protocol on private descriptors."""

    def __init__(self, reader: BinaryIO, out_fd: int) -> None:
        self.reader = reader
        self.out_fd = out_fd
        # Bound now, before the program runs: a program that monkeypatches json later
        # does not reach the driver's own reading and writing.
        self.loads = json.loads
        self.dumps = json.JSONEncoder().encode
        self.nonce: object = None
        """The nonce of the case being served, said in each of its replies."""

    def receive(self) -> Any:
        line = self.reader.readline()
        if not line:
            os._exit(0)  # the harness closed the pipe: nothing more to serve
        return self.loads(line)

    def send_bytes(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.out_fd, view) :]

    def send(self, status: str, **fields: object) -> None:
        reply = {"status": status, "nonce": self.nonce, **fields}
        self.send_bytes(self.dumps(reply).encode() + b"\n")


def _attempt(
    channel: _Channel, status: str, what: str, call: Callable[..., Any], *args: object
) -> tuple[bool, Any]:
    """``call(*args)`` (the program's code, or code it may have damaged): whether it
    returned, and what; a failure is reported on ``channel`` as ``status``."""
    try:
        return True, call(*args)
    except MemoryError:
        channel.send("memory", reason=f"{what} ran out of memory (MemoryError)")
    except BaseException as error:  # SystemExit and KeyboardInterrupt are the program's too
        channel.send(status, reason=f"{what} raised: {_reason(error)}")
    finally:
        _flush_program_output()
    return False, None


def _flush_program_output() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except BaseException:  # the program closed or replaced it: its output is its own
            pass


def main() -> None:
    """Serve one program's cases until the harness closes the pipe."""
    proto_in = os.dup(0)
    proto_out = os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    channel = _Channel(os.fdopen(proto_in, "rb"), proto_out)
    encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode
    clock = time.perf_counter

    # Running, nothing of the program read yet: the harness now sets the limits it can set
    # only on a running interpreter (its tasks), then sends the program.
    channel.send("started")
    header = channel.receive()
    source, value_bytes, max_depth = header["source"], header["value_bytes"], header["max_depth"]
    try:
        code = compile(source, PROGRAM_NAME, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as error:  # ValueError: a NUL byte in the source
        channel.send("syntax", reason=_reason(error))
        return
    except MemoryError:
        channel.send("memory", reason="compiling the program ran out of memory")
        return
    linecache.cache[PROGRAM_NAME] = (len(source), None, source.splitlines(True), PROGRAM_NAME)
    namespace: dict[str, Any] = {"__name__": "__program__", "__builtins__": __builtins__}
    loaded, _ = _attempt(channel, "exception", "the program's top level", exec, code, namespace)
    if not loaded:
        return
    solve = namespace.get("solve")
    if not callable(solve):
        channel.send("no_solve", reason="the program defines no function solve(input)")
        return
    channel.send("ready")

    while True:
        request = channel.receive()
        case_input = request["input"]  # parsed afresh from its line: the program may keep it
        channel.nonce = request.get("nonce")
        said = b'"nonce":' + channel.dumps(channel.nonce).encode()
        started = clock()
        solved, value = _attempt(channel, "exception", "solve", solve, case_input)
        seconds = clock() - started
        if not solved:
            continue
        checked, problem = _attempt(
            channel, "bad_value", "checking the answer", check_answer, value, max_depth, value_bytes
        )
        if not checked:
            continue
        if problem:
            channel.send(problem[0], reason=problem[1])
            continue
        encoded, text = _attempt(channel, "bad_value", "encoding the answer", encode, value)
        if not encoded:
            continue
        data = text.encode("utf-8")
        if len(data) > value_bytes:
            channel.send(
                "output_limit",
                reason=f"the answer is {len(data)} bytes of JSON, over the limit of {value_bytes}",
            )
            continue
        channel.send_bytes(
            b'{"status":"ok",'
            + said
            + b',"seconds":'
            + repr(seconds).encode()
            + b',"value":'
            + data
            + b"}\n"
        )


if __name__ == "__main__":
    main()
