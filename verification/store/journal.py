"""The journal of attempts, ``<run>/results.jsonl``: written as a run goes, read back
whole.

The journal is the run's truth: results and reports are a pure function of it, so a run
killed at any moment loses no finished attempt, and ``--resume`` repays no call. Lines are
written with ``allow_nan=False``: no ``NaN`` or ``Infinity`` ever reaches disk.

Durability: each line is flushed to the operating system as it is written (a killed process
loses nothing written), and forced to the disk (``fsync``) at most
:data:`FSYNC_INTERVAL` seconds after it and when the run ends, so a power cut loses at most
the answers of that last interval, which ``--resume`` asks again.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from pydantic import ValidationError

from verification.cases import printable
from verification.errors import JournalError, StoredFileError
from verification.store.manifests import RunManifest
from verification.store.paths import write_error
from verification.store.records import (
    DRY_RUN_SOURCES,
    MAX_RAW_RESPONSE_CHARS,
    AttemptRecord,
    RecordMismatch,
)
from verification.store.stored_files import open_own_file, open_regular_file

__all__ = [
    "FSYNC_INTERVAL",
    "MAX_JOURNAL_LINE_BYTES",
    "JournalWriter",
    "check_planned",
    "read_journal",
]


MAX_JOURNAL_LINE_BYTES = 32 * MAX_RAW_RESPONSE_CHARS
"""The longest journal line read back: a capped response written with ASCII escapes (up
to 12 bytes a character for a surrogate pair), with the case's input around it."""


FSYNC_INTERVAL = 1.0
"""Seconds a journal line may wait before it is forced to the disk."""


logger = logging.getLogger(__name__)


class JournalWriter:
    """Appends attempt records: each line flushed at once, forced to the disk within
    :data:`FSYNC_INTERVAL` seconds and at :meth:`close`; keeps the records it wrote
    (:attr:`written`), so the run that wrote them need not read them back."""

    def __init__(self, path: Path, run_id: str = "") -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.run_id = run_id or path.parent.name
        fd = open_own_file(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)  # no link, no FIFO
        try:
            _drop_torn_tail(path)
        except BaseException:
            os.close(fd)
            raise
        self._file: IO[str] = os.fdopen(fd, "a", encoding="utf-8")
        self._synced = time.monotonic()
        self.written: list[AttemptRecord] = []
        """The records this writer appended, in order: what reading them back gives (a
        record read back equals the one written)."""

    def append(self, record: AttemptRecord) -> None:
        try:
            self._file.write(record.to_line())
            self._file.flush()
            if time.monotonic() - self._synced >= FSYNC_INTERVAL:
                self._sync()
        except OSError as exc:
            raise write_error(self.path, self.run_id, exc) from None
        self.written.append(record)

    def _sync(self) -> None:
        os.fsync(self._file.fileno())
        self._synced = time.monotonic()

    def close(self) -> None:
        """Flush and close the journal; a journal no longer at its path (removed, or its
        run's folder moved, while the run wrote it) is a :class:`JournalError`: the run's
        folder does not hold the answers written, and no report may say it does."""
        moved = False
        try:
            if not self._file.closed:
                self._file.flush()
                self._sync()
                moved = not self._at_its_path()
        except OSError as exc:
            raise write_error(self.path, self.run_id, exc) from None
        finally:
            with contextlib.suppress(OSError):  # the flush above failed already, and said so
                self._file.close()
        if moved:
            raise JournalError(
                f"{self.path} was removed or moved while run {self.run_id} wrote it: the "
                f"{len(self.written)} answer(s) written there are not in the run's folder, "
                "and no report of them is written"
            )

    def _at_its_path(self) -> bool:
        try:
            there = os.stat(self.path)
        except FileNotFoundError:
            return False
        mine = os.fstat(self._file.fileno())
        return (there.st_dev, there.st_ino) == (mine.st_dev, mine.st_ino)

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _drop_torn_tail(path: Path) -> None:
    """Cut a last line left unfinished by a killed run, so appends start on a fresh line.
    (Its attempt was never finished: resume asks that case again.) A last line that is
    whole but for its line break (the process killed between the two) is ended instead, as
    :func:`read_journal` counts it: cutting it lost an answer every reader had counted."""
    if not path.is_file():  # nothing yet, or no regular file to cut
        return
    with path.open("rb+") as journal:
        data = journal.read()
        if data and not data.endswith(b"\n"):
            cut = data.rfind(b"\n") + 1
            if _whole(data[cut:]):
                journal.write(b"\n")
                return
            logger.warning("%s: dropping a torn last line (%d bytes)", path, len(data) - cut)
            journal.truncate(cut)


def _whole(line: bytes) -> bool:
    """Whether a last line is whole as :func:`read_journal` reads one: it parses."""
    try:
        AttemptRecord.from_line(line.decode("utf-8"), "the last line")
    except (ValidationError, RecordMismatch):
        return True  # whole, though no record: read as that case's missing answer
    except (ValueError, StoredFileError):
        return False
    return True


def read_journal(path: Path) -> list[AttemptRecord]:
    """Every record of a journal, in order. A torn last line (a run killed mid-write: no
    line break ends it) is skipped with a warning; any other line that is no JSON object is a
    :class:`JournalError` (damage: which case it answered cannot be told). A JSON object
    that is no record of this version (a field missing or of another type, a tier that is
    none, a case id that names another scaffold) is skipped with a warning naming the file,
    the line and its case: that case's answer is missing, and ``--resume`` asks it again."""
    try:
        fd = open_regular_file(path)
    except FileNotFoundError:
        return []
    with os.fdopen(fd, "rb") as file:
        lines = _journal_lines(file, path)
    records: list[AttemptRecord] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            records.append(AttemptRecord.from_line(line, where))
        except (ValidationError, RecordMismatch) as exc:
            logger.warning(
                "%s: %s is no journal record (%s): read as that case's missing answer",
                where,
                _case_named(line),
                _first_problem(exc),
            )
        except (ValueError, StoredFileError) as exc:
            # Torn: a run killed mid-write leaves its last line without the line break the
            # journal writes with each line (and cuts it when a resume appends). A whole
            # line that is no record is damage wherever it stands.
            if number == len(lines) and not line.endswith("\n"):
                logger.warning("%s: skipping a torn last line", where)
                continue
            raise JournalError(f"{where}: not a journal record ({exc})") from None
    return records


def _case_named(line: str) -> str:
    """The case a line that is no record says it answers, made printable."""
    case = json.loads(line).get("case_id")  # the line parsed already: a JSON object
    return f"the line of case {printable(case, 120)}" if isinstance(case, str) else "a line"


def _first_problem(exc: ValidationError | RecordMismatch) -> str:
    if isinstance(exc, RecordMismatch):
        return str(exc)
    error = exc.errors()[0]
    where = ".".join(map(str, error["loc"])) or "the line"
    return f"{printable(where, 80)}: {error['msg']}" + (
        f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    )


def _journal_lines(file: IO[bytes], path: Path) -> list[str]:
    """The journal's lines, each read with a bound (:data:`MAX_JOURNAL_LINE_BYTES`)."""
    lines: list[str] = []
    while line := file.readline(MAX_JOURNAL_LINE_BYTES + 1):
        number = len(lines) + 1
        if len(line) > MAX_JOURNAL_LINE_BYTES:
            raise JournalError(
                f"{path}:{number}: a line longer than {MAX_JOURNAL_LINE_BYTES} bytes is no "
                "journal record"
            )
        try:
            lines.append(line.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise JournalError(f"{path}:{number}: not UTF-8 text (byte {exc.start})") from None
    return lines


def check_planned(manifest: RunManifest, records: Sequence[AttemptRecord], whose: str) -> None:
    """:class:`JournalError` when ``records`` answer a case ``manifest`` does not plan (for
    the scaffold the line names) or a sample it does not ask (a hand-edited manifest,
    files of two runs mixed, another shard's lines): the two files disagree, and no status
    is computed from them. ``whose`` names the journal's run in the message."""
    planned = {
        (name, case_id) for name, info in manifest.scaffolds.items() for case_id in info.case_ids
    }
    strays = sorted(
        {
            printable(r.case_id, 80)
            for r in records
            if (r.scaffold, r.case_id) not in planned or r.epoch >= manifest.samples
        }
    )
    if strays:
        raise JournalError(
            f"{whose}: its journal holds answers to {len(strays)} case(s) its manifest does "
            f"not plan ({', '.join(strays[:3])}{', ...' if len(strays) > 3 else ''}); the "
            "two files disagree (was one edited?), so no status is given"
        )
    _check_lines_agree(manifest, records, whose)


def _check_lines_agree(manifest: RunManifest, records: Sequence[AttemptRecord], whose: str) -> None:
    """:class:`JournalError` where a line says what its manifest or its own digest denies
    (hunt hh): a dry-run provider's answer in a run said to ask a model (a manifest
    relabelled live would certify the reference's answers as a model's), another arm's
    answer (a bare arm's run passed off as the scaffold's), or a reply edited since it was
    written. Only lines read back are checked: what this process made is what it wrote."""
    for record in records:
        if getattr(record, "_where", None) is None:
            continue
        problem = None
        if not manifest.dry_run and record.source in DRY_RUN_SOURCES:
            problem = (
                f"was answered by the {record.source} provider (no model), but the manifest "
                "says the run asked a model"
            )
        elif manifest.arm is not None and record.arm not in (None, manifest.arm):
            # (A manifest from before arms were kept names none: its lines say the arm.)
            problem = (
                f"answers the {record.arm} arm of a pair, but the manifest's run is the "
                f"{manifest.arm} arm"
            )
        elif record.reply_edited:
            problem = "holds a reply that no longer matches its sha256 (edited since written)"
        if problem is not None:
            raise JournalError(
                f"{whose}: {printable(record.line, 200)} ({printable(record.case_id, 80)}) "
                f"{problem}; the files disagree (was one edited?), so no status is given"
            )
