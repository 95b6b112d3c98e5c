"""Runs on disk: the manifest and the journal of attempts.

::

    <results_dir>/runs/<run-id>/manifest.json   what was asked, of whom, with which files
    <results_dir>/runs/<run-id>/results.jsonl   one line per attempt, appended and flushed
    <results_dir>/runs/<run-id>/reports/        rendered from the two files above
    <results_dir>/reports/                      a copy of the latest run's reports

The journal is the run's truth: results and reports are a pure function of it, so a run
killed at any moment loses no finished attempt, and ``--resume`` repays no call. Lines are
written with ``allow_nan=False``: no ``NaN`` or ``Infinity`` ever reaches disk.

Durability: each line is flushed to the operating system as it is written (a killed process
loses nothing written), and forced to the disk (``fsync``) at most
:data:`FSYNC_INTERVAL` seconds after it and when the run ends, so a power cut loses at most
the answers of that last interval, which ``--resume`` asks again.

One process owns a run directory at a time: :class:`RunLock` holds an OS lock on
``<run>/lock`` (released by the kernel when its process dies, even by ``kill -9``).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import logging
import os
import re
import secrets
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from verification.errors import ConfigurationError, JournalError, RunInUseError

__all__ = [
    "FSYNC_INTERVAL",
    "JOURNAL_SCHEMA",
    "MAX_RAW_RESPONSE_CHARS",
    "AttemptRecord",
    "JournalWriter",
    "Outcome",
    "RunLock",
    "RunManifest",
    "RunPaths",
    "ScaffoldEntry",
    "cap_response",
    "check_run_id",
    "exclusive_lock",
    "latest_run_id",
    "new_run_id",
    "read_journal",
    "read_manifest_file",
]

JOURNAL_SCHEMA = 1
MAX_RAW_RESPONSE_CHARS = 1024 * 1024
Outcome = Literal["passed", "failed", "truncated", "refused", "infra_error"]
logger = logging.getLogger(__name__)


class AttemptRecord(BaseModel):
    """One line of ``results.jsonl``: one attempt at one case."""

    model_config = ConfigDict(frozen=True)

    schema_version: int = JOURNAL_SCHEMA
    scaffold: str
    case_id: str
    index: int
    epoch: int
    """Which sample of the case (0-based)."""
    attempt: int
    """1 for the first answer; 2 and 3 are repair attempts."""
    tier: str
    input: dict[str, Any]
    expected: dict[str, Any]
    outcome: Outcome
    level: int | None
    """The level an unsuccessful attempt failed at: 1, 2 or 3."""
    reason: str
    leniency: list[str]
    answer: Any
    raw_response: str | None
    raw_response_chars: int
    raw_response_sha256: str | None
    stop_reason: str | None
    usage: dict[str, int]
    latency_s: float
    model: str | None
    finished_at: str
    source: str | None = None
    """Where the answer came from (``live``, ``cache``, ``batch``, ``reference``,
    ``replay``); ``None`` when no answer came."""

    def to_line(self) -> str:
        """The record as one JSON line (``schema`` is the field's name on disk)."""
        data = self.model_dump(mode="json")
        data = {"schema": data.pop("schema_version"), **data}
        # ASCII escapes: any model text, lone surrogates included, survives the round trip.
        return json.dumps(data, allow_nan=False, ensure_ascii=True) + "\n"

    @classmethod
    def from_line(cls, line: str) -> AttemptRecord:
        """Read a line written by :meth:`to_line`."""
        data = json.loads(line)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        data["schema_version"] = data.pop("schema", JOURNAL_SCHEMA)
        return cls.model_validate(data)


def cap_response(text: str | None) -> tuple[str | None, int, str | None]:
    """The response as journalled (first MiB), its full length, and its sha256."""
    if text is None:
        return None, 0, None
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return text[:MAX_RAW_RESPONSE_CHARS], len(text), digest


def new_run_id(now: datetime | None = None) -> str:
    """A sortable, unique run id: ``20261122T031500Z-3f9a1c``."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    return f"{stamp}-{secrets.token_hex(3)}"


class ScaffoldEntry(BaseModel):
    """What a run read for one scaffold, and which cases it planned."""

    file: str
    sha256: str
    case_ids: list[str]
    tolerances: dict[str, str] = {}
    """The validator's numeric tolerances, as the report shows them."""


class RunManifest(BaseModel):
    """What a run asked, of whom, with which files: enough to reproduce and compare."""

    # ``model_requested`` is a field, not pydantic API: older pydantic warns without this.
    model_config = ConfigDict(protected_namespaces=())

    run_id: str
    created_at: str
    provider: dict[str, Any]
    dry_run: bool
    run_label: str | None
    """``DRY RUN`` or ``REPLAY`` for providers that certify no model."""
    model_requested: str
    models_returned: list[str] = []
    settings: dict[str, Any]
    seed: int
    cases: int
    samples: int
    tiers: list[str]
    case_filter: list[str] | None = None
    scaffolds: dict[str, ScaffoldEntry]
    """Per scaffold: file path, sha256, planned case ids."""
    template_version: str
    code_version: str
    finished_at: str | None = None
    interrupted: bool = False


def read_manifest_file(path: Path) -> RunManifest:
    """A manifest from disk (``json`` first: text may hold lone surrogate escapes, which
    pydantic's own JSON parser refuses)."""
    return RunManifest.model_validate(json.loads(path.read_text(encoding="utf-8")))


FSYNC_INTERVAL = 1.0
"""Seconds a journal line may wait before it is forced to the disk."""

_RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")


def check_run_id(run_id: str) -> str:
    """``run_id`` when it names a run (a folder name under ``runs/``); a
    :class:`ConfigurationError` for a path, ``..`` or anything else."""
    if not _RUN_ID.fullmatch(run_id) or ".." in run_id:
        raise ConfigurationError(
            f"{run_id!r:.80} is not a run id: a run id is the name of a folder under "
            "<results>/runs/ (letters, digits, '.', '_', '-'), never a path; choose the "
            "results folder with --output"
        )
    return run_id


def _no_space(error: OSError) -> bool:
    return error.errno in (errno.ENOSPC, errno.EDQUOT)


def _write_error(path: Path, run_id: str, error: OSError) -> JournalError:
    what = "no space is left on the device" if _no_space(error) else error.strerror or error
    return JournalError(
        f"cannot write {path}: {what}. Run {run_id} keeps every answer written before it; "
        f"fix that, then continue with --resume {run_id}"
    )


@dataclass(frozen=True)
class RunPaths:
    """Where one run's files live."""

    results_dir: Path
    run_id: str

    def __post_init__(self) -> None:
        check_run_id(self.run_id)

    @property
    def run_dir(self) -> Path:
        return self.results_dir / "runs" / self.run_id

    @property
    def manifest(self) -> Path:
        return self.run_dir / "manifest.json"

    @property
    def journal(self) -> Path:
        return self.run_dir / "results.jsonl"

    @property
    def reports(self) -> Path:
        return self.run_dir / "reports"

    @property
    def latest_reports(self) -> Path:
        return self.results_dir / "reports"

    def write_manifest(self, manifest: RunManifest) -> None:
        """Write the manifest atomically (a reader never sees half of it)."""
        self.run_dir.mkdir(parents=True, exist_ok=True)
        temporary = self.manifest.with_suffix(".json.tmp")
        text = json.dumps(manifest.model_dump(mode="json"), indent=2, allow_nan=False) + "\n"
        try:
            with temporary.open("w", encoding="utf-8") as file:
                file.write(text)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, self.manifest)
        except OSError as exc:
            temporary.unlink(missing_ok=True)
            raise _write_error(self.manifest, self.run_id, exc) from None

    def lock(self) -> RunLock:
        """This run's lock, taken (see :class:`RunLock`)."""
        return RunLock(self.run_dir, self.run_id)

    def read_manifest(self) -> RunManifest:
        """The run's manifest, or :class:`JournalError` naming the run."""
        try:
            return read_manifest_file(self.manifest)
        except FileNotFoundError:
            raise JournalError(f"no run {self.run_id!r} in {self.results_dir / 'runs'}") from None
        except (ValueError, OSError) as exc:
            raise JournalError(f"{self.manifest}: unreadable manifest ({exc})") from None


class RunLock:
    """Ownership of a run directory: an exclusive, non-blocking OS lock on ``<run>/lock``
    (``flock``; ``msvcrt.locking`` on Windows), which holds the owner's pid. Taken at
    construction; a second taker gets :class:`RunInUseError` naming the run and that pid.
    The kernel drops the lock when its process dies, so a killed run never stays locked."""

    def __init__(self, run_dir: Path, run_id: str) -> None:
        run_dir.mkdir(parents=True, exist_ok=True)
        self.path = run_dir / "lock"
        self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            _lock_file(self._fd)
        except OSError:
            owner = os.read(self._fd, 32).decode("ascii", "replace").strip() or "unknown"
            os.close(self._fd)
            self._fd = None
            raise RunInUseError(
                f"run {run_id} is in use by process {owner} (it holds {self.path}); wait for "
                "it to finish or stop it, then resume"
            ) from None
        os.ftruncate(self._fd, 0)
        os.write(self._fd, f"{os.getpid()}\n".encode("ascii"))

    def release(self) -> None:
        """Give the run up (the file stays: removing it would race with a new taker)."""
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the lock
            self._fd = None

    def __enter__(self) -> RunLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _lock_file(fd: int, *, wait: bool = False) -> None:
    """Lock ``fd`` exclusively; without ``wait``, raise :class:`OSError` when it is taken."""
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        msvcrt.locking(fd, msvcrt.LK_LOCK if wait else msvcrt.LK_NBLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)


@contextmanager
def exclusive_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive OS lock on ``path`` (created when missing) for the ``with`` block,
    waiting for another holder to finish; the kernel drops it if the holder dies."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        _lock_file(fd, wait=True)
        yield
    finally:
        os.close(fd)  # closing the descriptor drops the lock


class JournalWriter:
    """Appends attempt records: each line flushed at once, forced to the disk within
    :data:`FSYNC_INTERVAL` seconds and at :meth:`close`."""

    def __init__(self, path: Path, run_id: str = "") -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.run_id = run_id or path.parent.name
        _drop_torn_tail(path)
        self._file: IO[str] = path.open("a", encoding="utf-8")
        self._synced = time.monotonic()

    def append(self, record: AttemptRecord) -> None:
        try:
            self._file.write(record.to_line())
            self._file.flush()
            if time.monotonic() - self._synced >= FSYNC_INTERVAL:
                self._sync()
        except OSError as exc:
            raise _write_error(self.path, self.run_id, exc) from None

    def _sync(self) -> None:
        os.fsync(self._file.fileno())
        self._synced = time.monotonic()

    def close(self) -> None:
        try:
            if not self._file.closed:
                self._file.flush()
                self._sync()
        except OSError as exc:
            raise _write_error(self.path, self.run_id, exc) from None
        finally:
            with contextlib.suppress(OSError):  # the flush above failed already, and said so
                self._file.close()

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def latest_run_id(results_dir: Path) -> str:
    """The id of the most recently created run in ``results_dir``."""
    created: list[tuple[str, str]] = []
    runs = results_dir / "runs"
    for run_dir in runs.iterdir() if runs.is_dir() else []:
        try:
            manifest = read_manifest_file(run_dir / "manifest.json")
        except (OSError, ValueError):
            continue
        created.append((manifest.created_at, manifest.run_id))
    if not created:
        raise JournalError(f"no runs in {runs}")
    return max(created)[1]


def _drop_torn_tail(path: Path) -> None:
    """Cut a last line left unfinished by a killed run, so appends start on a fresh line.
    (Its attempt was never finished: resume asks that case again.)"""
    if not path.is_file():  # nothing yet, or no regular file to cut
        return
    with path.open("rb+") as journal:
        data = journal.read()
        if data and not data.endswith(b"\n"):
            cut = data.rfind(b"\n") + 1
            logger.warning("%s: dropping a torn last line (%d bytes)", path, len(data) - cut)
            journal.truncate(cut)


def read_journal(path: Path) -> list[AttemptRecord]:
    """Every record of a journal, in order. A torn last line (a run killed mid-write) is
    skipped with a warning; a bad line elsewhere is a :class:`JournalError`."""
    if not path.exists():
        return []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise JournalError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    records: list[AttemptRecord] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(AttemptRecord.from_line(line))
        except (ValueError, ValidationError) as exc:
            if number == len(lines):
                logger.warning("%s:%d: skipping a torn last line", path, number)
                continue
            raise JournalError(f"{path}:{number}: not a journal record ({exc})") from None
    return records
