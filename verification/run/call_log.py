"""``calls.jsonl``: the live calls a ``--max-cost`` run has sent and not yet journalled.

A run with a budget appends a ``sent`` line when a request is about to go out (in the
model's limiter slot, before its first try), holding that attempt's worst case, and an
``ended`` line once what the attempt cost is in the journal (or the server refused it). A
process killed in between (SIGKILL, a crash, Ctrl-C while a reply was on its way) leaves
``sent`` lines with no ``ended`` line: the server may have answered and billed those
calls, and the journal never saw them. A resumed run counts each at its worst case as
paid, so ``--max-cost`` holds across kills (a few of them, each with calls in flight,
overspent the budget by those calls' cost), and says so.

Lines are flushed, not forced to the disk: a budget's count, which a killed process keeps
(the kernel has the lines); a machine that loses power loses the last ones. The file is
read back as untrusted input: a regular file, bounded lines, each validated; a torn last
line is what a kill leaves mid-write (its request was not sent yet: the line comes first).
"""

from __future__ import annotations

import json
import logging
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal

from pydantic import BaseModel, Field, ValidationError

from verification.errors import JournalError, StoredFileError
from verification.store.paths import write_error
from verification.store.stored_files import open_own_file, parse_stored_json

__all__ = ["CALL_FILE", "CallLine", "CallLog", "InFlight", "in_flight"]

CALL_FILE = "calls.jsonl"
MAX_CALL_LINE_BYTES = 1024
"""The longest line read back (ours are about 80 bytes)."""
logger = logging.getLogger(__name__)


class CallLine(BaseModel):
    """One line of ``calls.jsonl``."""

    event: Literal["sent", "ended"]
    call: str = Field(pattern=r"^[0-9a-f]{12}-[0-9]{1,12}$")
    """The process's token and the call's number in it."""
    worst_usd: float | None = Field(default=None, ge=0.0, allow_inf_nan=False)
    """The most the call could cost (``sent`` lines)."""


@dataclass(frozen=True)
class InFlight:
    """Calls a stopped process had sent and never journalled."""

    calls: int
    worst_usd: float
    """Their worst cases, summed: what the budget counts as paid for them."""


class CallLog:
    """``calls.jsonl`` as one process appends to it (opened on the first line)."""

    def __init__(self, path: Path, run_id: str = "") -> None:
        self.path = path
        self.run_id = run_id or path.parent.name
        self._token = secrets.token_hex(6)
        self._count = 0
        self._sent: set[str] = set()
        self._file: IO[str] | None = None

    def new_call(self) -> str:
        """The id of the next call (nothing is written until it is :meth:`sent`)."""
        self._count += 1
        return f"{self._token}-{self._count}"

    def sent(self, call: str, worst_usd: float) -> None:
        """``call`` is about to go out: written once, however many tries it takes."""
        if call not in self._sent:
            self._sent.add(call)
            self._write(CallLine(event="sent", call=call, worst_usd=worst_usd))

    def ended(self, call: str) -> None:
        """What ``call`` cost is journalled (nothing when it was never sent)."""
        if call in self._sent:
            self._sent.discard(call)
            self._write(CallLine(event="ended", call=call))

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def _write(self, line: CallLine) -> None:
        try:
            if self._file is None:  # no link followed, no FIFO waited on: its own file
                fd = open_own_file(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
                self._file = os.fdopen(fd, "a", encoding="utf-8")
            self._file.write(json.dumps(line.model_dump(exclude_none=True)) + "\n")
            self._file.flush()
        except OSError as exc:  # a full disk: the file, the run and how to go on
            raise write_error(self.path, self.run_id, exc) from None


def in_flight(path: Path) -> InFlight:
    """The calls ``calls.jsonl`` says were sent and never ended (none when there is no
    such file). A damaged line (not a line of this file, or too long) is a
    :class:`~verification.errors.JournalError` naming it: a call it may name would go
    uncounted, and the user decides (remove the line to go on without it)."""
    try:
        fd = open_own_file(path, os.O_RDONLY)
    except FileNotFoundError:
        return InFlight(0, 0.0)
    sent: dict[str, float] = {}
    ended: set[str] = set()
    with os.fdopen(fd, "rb") as file:
        number = 0
        while raw := file.readline(MAX_CALL_LINE_BYTES + 1):
            number += 1
            where = f"{path}:{number}"
            if len(raw) <= MAX_CALL_LINE_BYTES and not raw.endswith(b"\n"):
                # Short of the bound with no line break: the end of the file, a last line
                # torn by a kill while it was written (before its call was sent).
                logger.warning("%s: skipping a torn last line", where)
                break
            try:
                if len(raw) > MAX_CALL_LINE_BYTES:
                    raise ValueError(f"longer than {MAX_CALL_LINE_BYTES} bytes")
                line = CallLine.model_validate(parse_stored_json(raw.decode(), where=where))
            except (UnicodeDecodeError, ValueError, ValidationError, StoredFileError) as exc:
                raise JournalError(
                    (
                        f"{where}: not a line of the run's call log ({exc}); it counts calls "
                        "in flight against --max-cost: remove the line to go on without it"
                    )[:400]
                ) from None
            if line.event == "sent":
                if line.worst_usd is None:
                    raise JournalError(f"{where}: a sent call without its worst case")
                sent[line.call] = line.worst_usd
            else:
                ended.add(line.call)
    open_calls = [worst for call, worst in sent.items() if call not in ended]
    return InFlight(len(open_calls), sum(open_calls))
