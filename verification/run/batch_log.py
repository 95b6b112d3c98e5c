"""``batches.jsonl``: what a ``--batch`` run sent, written before and after each create call.

Each line is an event of one batch, appended and forced to the disk:

- ``intent``: written *before* the create call: the time, the request count, the worst
  the batch could cost, and each request's ``custom_id`` -> case sample and attempt. The
  custom ids begin with the intent's ``token``, a hash of the run id and the intent's
  number, so a batch found in the API's list says by its results whose it is.
- ``submitted``: the create call answered: the batch's id (with the same mapping).
- ``collected``: its results are journalled (or it is given up, ``note`` says why).
- ``abandoned``: an intent whose batch was not found (or that the user chose to send
  again): its requests are asked anew.

An ``intent`` with neither a ``submitted`` nor an ``abandoned`` line is a create call that
a killed process may or may not have completed: :mod:`verification.run.batch_intents`
looks for its batch before anything is sent again. Read back as an untrusted file
(regular file, bounded lines, each validated).
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError

from verification.errors import JournalError, StoredFileError
from verification.llm.batches import BATCH_ID, CUSTOM_ID
from verification.store.stored_files import open_own_file, open_regular_file, parse_stored_json

__all__ = [
    "BATCH_FILE",
    "BatchLine",
    "BatchLog",
    "RequestKey",
    "age",
    "custom_id",
    "intent_token",
    "now",
    "stamp_time",
]

BATCH_FILE = "batches.jsonl"
MAX_BATCH_LINE_BYTES = 64 * 1024 * 1024
"""The longest ``batches.jsonl`` line read back (a batch's custom id map)."""
TOKEN = r"[0-9a-f]{10}"


class RequestKey(BaseModel):
    """What one ``custom_id`` stands for."""

    case_id: str = Field(max_length=200)
    epoch: int = Field(ge=0)
    attempt: int = Field(ge=1, le=3)

    @property
    def key(self) -> tuple[str, int, int]:
        """(case id, sample, attempt)."""
        return (self.case_id, self.epoch, self.attempt)


class BatchLine(BaseModel):
    """One line of ``batches.jsonl``."""

    event: Literal["intent", "submitted", "collected", "abandoned"]
    batch_id: str | None = Field(default=None, pattern=rf"^{BATCH_ID.pattern}$")
    """The batch's id (none in an ``intent`` line, nor in an ``abandoned`` one)."""
    intent: str | None = Field(default=None, pattern=rf"^{TOKEN}$")
    """The intent's token (``intent``, ``submitted`` and ``abandoned`` lines; none in
    lines written before intents were)."""
    at: str = Field(max_length=64)
    requests: dict[str, RequestKey] = {}
    """``custom_id`` -> case sample and attempt (``intent`` and ``submitted``)."""
    worst_usd: float | None = Field(default=None, ge=0.0)
    """The most the batch could cost (``intent``; ``None`` without a known price)."""
    note: str | None = Field(default=None, max_length=600)


def custom_id(token: str, case_id: str, epoch: int, attempt: int) -> str:
    """The ``custom_id`` of one attempt at one case sample in the intent ``token``:
    readable when it fits the API's ``^[a-zA-Z0-9_-]{1,64}$``, else a hash of it (still
    led by the token; ``batches.jsonl`` keeps the mapping)."""
    plain = f"{token}_{case_id}_{epoch}_{attempt}"
    if CUSTOM_ID.fullmatch(plain):
        return plain
    digest = hashlib.sha256(plain.encode("utf-8", "surrogatepass")).hexdigest()
    return f"{token}_h{digest[:48]}"


def intent_token(run_id: str, number: int) -> str:
    """The token of the run's ``number``-th intent: ten hex digits of a hash of both."""
    return hashlib.sha256(f"{run_id}/{number}".encode()).hexdigest()[:10]


def now() -> str:
    """The time a line is written, as ``at`` keeps it."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def age(stamp: str) -> float:
    """Seconds since ``stamp`` (an ISO time this module wrote); 0 when it is none."""
    then = stamp_time(stamp)
    return 0.0 if then is None else max((datetime.now(UTC) - then).total_seconds(), 0.0)


def stamp_time(stamp: str) -> datetime | None:
    """The time ``stamp`` (an ISO time this module wrote) says; ``None`` when it is none."""
    try:
        then = datetime.fromisoformat(stamp)
    except ValueError:
        return None
    return then if then.tzinfo is not None else None


class BatchLog:
    """``batches.jsonl``: appended and forced to the disk line by line; read back as an
    untrusted file (regular file, bounded lines, each validated)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def append(self, line: BatchLine) -> None:
        text = json.dumps(
            line.model_dump(mode="json", exclude_none=True), allow_nan=False, ensure_ascii=True
        )
        # Never through a link planted there, nor onto a file with other names (hunt y: a
        # resume appended to a backup's log, or created a file outside the results folder).
        fd = open_own_file(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        with os.fdopen(fd, "a", encoding="utf-8") as file:
            file.write(text + "\n")
            file.flush()
            os.fsync(file.fileno())  # a batch paid for must be found again after a crash

    def read(self) -> list[BatchLine]:
        try:
            fd = open_regular_file(self.path)
        except FileNotFoundError:
            return []
        lines: list[BatchLine] = []
        with os.fdopen(fd, "rb") as file:
            while raw := file.readline(MAX_BATCH_LINE_BYTES + 1):
                where = f"{self.path}:{len(lines) + 1}"
                if len(raw) > MAX_BATCH_LINE_BYTES or not raw.endswith(b"\n"):
                    # Not skipped: a batch it names could be paid for twice. The user decides.
                    raise JournalError(
                        f"{where}: not a whole batch line (torn by a crash, or too long). "
                        "If it names a batch, that batch may be under way; remove the line "
                        "to send its requests again, then --resume"
                    )
                try:
                    data = parse_stored_json(raw.decode("utf-8"), where=where)
                    line = BatchLine.model_validate(data)
                except (UnicodeDecodeError, ValueError, ValidationError, StoredFileError) as exc:
                    raise JournalError(f"{where}: not a batch line ({exc})"[:400]) from None
                if (line.batch_id is None) != (line.event in ("intent", "abandoned")):
                    raise JournalError(f"{where}: a {line.event} line needs a batch id or has one")
                lines.append(line)
        return lines

    def pending(self) -> list[BatchLine]:
        """Batches submitted and not yet collected, oldest first."""
        lines = self.read()
        collected = {line.batch_id for line in lines if line.event == "collected"}
        return [x for x in lines if x.event == "submitted" and x.batch_id not in collected]

    def unresolved(self) -> list[BatchLine]:
        """Intents with no ``submitted`` or ``abandoned`` line: create calls a killed
        process may or may not have completed."""
        lines = self.read()
        resolved = {x.intent for x in lines if x.event in ("submitted", "abandoned")}
        return [x for x in lines if x.event == "intent" and x.intent not in resolved]

    def intents(self) -> int:
        """How many intents the log holds (the next one's number is this plus one)."""
        return sum(line.event == "intent" for line in self.read())

    def known(self) -> set[str]:
        """Every batch id the log names."""
        return {line.batch_id for line in self.read() if line.batch_id is not None}
