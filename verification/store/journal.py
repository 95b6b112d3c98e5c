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
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from verification.cases import SCAFFOLD_NAME_FORMAT, TestCase, Tier, is_scaffold_name
from verification.errors import ConfigurationError, JournalError, RunInUseError, StoredFileError
from verification.store.pricing import TABLES_DATED, ModelPrice
from verification.store.stored_files import (
    MAX_MANIFEST_BYTES,
    open_regular_file,
    parse_stored_json,
    read_stored_json,
)

__all__ = [
    "FSYNC_INTERVAL",
    "JOURNAL_SCHEMA",
    "MAX_JOURNAL_LINE_BYTES",
    "MAX_RAW_RESPONSE_CHARS",
    "AttemptRecord",
    "CostBasis",
    "EarlyStop",
    "JournalWriter",
    "Outcome",
    "RunLock",
    "RunManifest",
    "RunPaths",
    "ScaffoldEntry",
    "ShardInfo",
    "cap_response",
    "check_run_id",
    "exclusive_lock",
    "is_run_id",
    "latest_run_id",
    "new_run_id",
    "read_journal",
    "read_manifest_file",
    "run_manifests",
]

JOURNAL_SCHEMA = 1
MAX_RAW_RESPONSE_CHARS = 1024 * 1024
MAX_JOURNAL_LINE_BYTES = 32 * MAX_RAW_RESPONSE_CHARS
"""The longest journal line read back: a capped response written with ASCII escapes (up
to 12 bytes a character for a surrogate pair), with the case's input around it."""
_RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
_SHA256 = re.compile(r"[0-9a-f]{64}|unknown")
_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9 .,_+:=()/-]{0,127}")
"""Text a report shows as it is (versions, labels, tolerances): nothing Markdown reads."""
Outcome = Literal["passed", "failed", "truncated", "refused", "infra_error"]
logger = logging.getLogger(__name__)


class AttemptRecord(BaseModel):
    """One line of ``results.jsonl``: one attempt at one case."""

    # ``model_asked`` is a field, not pydantic API: older pydantic warns without this.
    model_config = ConfigDict(frozen=True, protected_namespaces=())

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
    size: int | None = None
    """The size the case was drawn at (``None`` in journals from before sizes were kept:
    the case id's ``s<size>`` or the tier's default size says it)."""
    source: str | None = None
    """Where the answer came from (``live``, ``cache``, ``batch``, ``reference``,
    ``replay``); ``None`` when no answer came."""
    model_asked: str | None = None
    """The model the request named (``model`` is what the server says answered); ``None``
    in journals from before it was kept (the manifest's ``model_requested`` then)."""

    def test_case(self) -> TestCase:
        """The case this record answers, as the journal holds it."""
        return TestCase(
            id=self.case_id,
            scaffold=self.scaffold,
            tier=self.tier,  # type: ignore[arg-type]
            index=self.index,
            input=self.input,
            expected=self.expected,
            size=self.size,
        )

    def to_line(self) -> str:
        """The record as one JSON line (``schema`` is the field's name on disk)."""
        data = self.model_dump(mode="json")
        data = {"schema": data.pop("schema_version"), **data}
        # ASCII escapes: any model text, lone surrogates included, survives the round trip.
        return json.dumps(data, allow_nan=False, ensure_ascii=True) + "\n"

    @classmethod
    def from_line(cls, line: str) -> AttemptRecord:
        """Read a line written by :meth:`to_line` (bounded in depth, as any stored JSON)."""
        data = parse_stored_json(line, where="the line")
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
    prompt_tokens: int | None = Field(default=None, ge=0)
    """The scaffold's length in tokens, estimated (what decides whether it can be cached)."""

    @field_validator("sha256")
    @classmethod
    def _sha256_is_hex(cls, sha256: str) -> str:
        if not _SHA256.fullmatch(sha256):
            raise ValueError("not a sha256 (64 hex digits)")
        return sha256

    @field_validator("tolerances")
    @classmethod
    def _tolerances_are_plain(cls, tolerances: dict[str, str]) -> dict[str, str]:
        for what, bound in tolerances.items():
            if not (_PLAIN.fullmatch(what) and _PLAIN.fullmatch(bound)):
                raise ValueError(f"{what!r:.40}: {bound!r:.40} is not a tolerance")
        return tolerances


class CostBasis(BaseModel):
    """What a run's costs are computed with, fixed when it starts: re-rendering its reports
    after a price change does not reprice it."""

    model: str
    price: ModelPrice | None = None
    """USD per million tokens; ``None`` when no table knows the model."""
    prompt_caching: bool = False
    """The provider marks the scaffold for caching."""
    min_cacheable_tokens: int | None = Field(default=None, ge=0)
    tables_dated: str = Field(default=TABLES_DATED, max_length=40)
    max_cost: float | None = Field(default=None, ge=0.0, allow_inf_nan=False)
    """The run's budget in USD (``--max-cost``), if it had one."""


class EarlyStop(BaseModel):
    """Where ``--early-stop`` stopped asking a scaffold's cases."""

    cases: int = Field(ge=1)
    """The planned cases asked before the deciding look (the rest are not missing)."""
    look: int = Field(ge=1)
    looks: int = Field(ge=1, le=5)
    """How many looks were planned (the interval at each is widened for them all)."""


class ShardInfo(BaseModel):
    """Which slice of a plan a sharded run answered (``verify --shard I/N``)."""

    index: int = Field(ge=1)
    """I, from 1."""
    count: int = Field(ge=1)
    """N: how many shards the plan was cut into."""
    plan_sha256: str
    """The whole plan's digest (:func:`~verification.run.shards.plan_sha256`): shards of one
    plan, and only those, merge."""
    positions: dict[str, list[int]]
    """Per scaffold, where each of this shard's cases stands in the whole plan's list."""
    planned: dict[str, int]
    """Per scaffold, how many cases the whole plan holds."""

    @field_validator("plan_sha256")
    @classmethod
    def _plan_is_a_digest(cls, digest: str) -> str:
        if not re.fullmatch(r"[0-9a-f]{64}", digest):
            raise ValueError("not a sha256 (64 hex digits)")
        return digest


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
    model_requested: str | None
    """The model asked; ``None`` in a dry run, which asks none."""
    models_returned: list[str] = []
    settings: dict[str, Any]
    seed: int
    cases: int
    samples: int
    tiers: list[Tier]
    case_filter: list[str] | None = None
    scaffolds: dict[str, ScaffoldEntry]
    """Per scaffold: file path, sha256, planned case ids."""
    template_version: str
    code_version: str
    finished_at: str | None = None
    interrupted: bool = False
    cost_basis: CostBasis | None = None
    """Prices and caching facts of the run (absent in manifests older than cost figures)."""
    stopped_by_budget: bool = False
    """The run stopped starting cases at its ``--max-cost`` budget; cases are left to ask."""
    level: str | None = None
    """``quick``, ``standard`` or ``thorough`` (``None``: a run from before levels)."""
    sizes: dict[str, list[int]] | None = None
    """Per scaffold, the sizes swept (thorough level or ``--sizes``); ``None``: no sweep."""
    seed_private: bool = False
    """The cases came from the private cert seed; ``seed`` is then 0, not the seed."""
    seed_sha256: str | None = None
    """The private seed's sha256, so that runs on the same secret can be told apart."""
    variant: Literal["bare", "draft"] | None = None
    """What the model was shown in place of the catalog's scaffold: ``bare`` the task and
    Output Format only (``verify --baseline none``), ``draft`` a ``--scaffold-file`` compared
    with ``--baseline``; ``None`` the scaffold files as they are. Part of comparability."""
    linked_run: str | None = None
    """The other run of a ``--baseline`` pair (same cases)."""
    shard: ShardInfo | None = None
    """The slice of a plan this run answered (``--shard I/N``): never published, never a
    baseline; ``merge`` makes one run of a plan's shards."""
    merged_shards: list[str] | None = None
    """The shard runs ``merge`` made this run of, in shard order."""
    early_stops: dict[str, EarlyStop] | None = None
    """With ``--early-stop``: the scaffolds a look decided, and where (``None``: the run
    did not stop early; ``{}``: it could have, but no look decided)."""
    model_runs: dict[str, str] | None = None
    """With several models (``--model A --model B``): every model the invocation asked, in
    order, and the run that asked it, this one included (``None``: one model)."""
    thinking_budget: int | None = Field(default=None, ge=1)
    """Extended thinking's budget per request (``--thinking-budget``); ``None``: none.
    Part of comparability and of every request's cache key."""

    # A manifest is read back from disk, where anyone may have edited it: the names in it
    # become file names and report lines, so they are held to what the harness writes.
    @field_validator("run_id", "linked_run")
    @classmethod
    def _run_id_is_a_name(cls, run_id: str | None) -> str | None:
        if run_id is not None and not is_run_id(run_id):
            raise ValueError("not a run id (letters, digits, '.', '_', '-')")
        return run_id

    @field_validator("model_runs")
    @classmethod
    def _model_runs_are_run_ids(cls, runs: dict[str, str] | None) -> dict[str, str] | None:
        for run_id in (runs or {}).values():
            cls._run_id_is_a_name(run_id)
        return runs

    @field_validator("merged_shards")
    @classmethod
    def _shards_are_run_ids(cls, run_ids: list[str] | None) -> list[str] | None:
        for run_id in run_ids or ():
            cls._run_id_is_a_name(run_id)
        return run_ids

    @field_validator("provider")
    @classmethod
    def _provider_is_named(cls, provider: dict[str, Any]) -> dict[str, Any]:
        if not (
            isinstance(provider.get("provider"), str) and _PLAIN.fullmatch(provider["provider"])
        ):
            raise ValueError("names no provider (a 'provider' name)")
        return provider

    @field_validator("run_label", "template_version", "code_version")
    @classmethod
    def _plain_text(cls, text: str | None) -> str | None:
        if text and not _PLAIN.fullmatch(text):
            raise ValueError(f"{text!r:.80} holds more than letters, digits and punctuation")
        return text

    @field_validator("scaffolds")
    @classmethod
    def _scaffolds_are_names(cls, scaffolds: dict[str, ScaffoldEntry]) -> dict[str, ScaffoldEntry]:
        for name in scaffolds:
            if not is_scaffold_name(name):
                raise ValueError(f"{name!r:.80} is not a scaffold name ({SCAFFOLD_NAME_FORMAT})")
        return scaffolds


def read_manifest_file(path: Path) -> RunManifest:
    """A manifest from disk: a regular file, bounded in size and depth, validated; a
    :class:`StoredFileError` naming the file otherwise (a missing one is
    :class:`FileNotFoundError`)."""
    data = read_stored_json(path, max_bytes=MAX_MANIFEST_BYTES)
    try:
        return RunManifest.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(map(str, error['loc'])) or 'the document'}: {error['msg']}"
            for error in exc.errors()[:3]
        )
        raise StoredFileError(f"{path}: not a run manifest ({problems})") from None


LOCK_POLL_S = 0.05
"""How often a bounded wait for a lock tries again (seconds)."""
FSYNC_INTERVAL = 1.0
"""Seconds a journal line may wait before it is forced to the disk."""


def is_run_id(text: object) -> bool:
    """Whether ``text`` may name a run: a folder name under ``runs/``, never a path."""
    return isinstance(text, str) and bool(_RUN_ID.fullmatch(text)) and ".." not in text


def check_run_id(run_id: str) -> str:
    """``run_id`` when it names a run (a folder name under ``runs/``); a
    :class:`ConfigurationError` for a path, ``..`` or anything else."""
    if not is_run_id(run_id):
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
        except OSError as exc:
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
            # The lock file holds its owner's pid, or whatever else someone wrote there.
            text = os.read(self._fd, 32).decode("ascii", "replace").strip()
            owner = text if text.isdigit() else "unknown"
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
def exclusive_lock(
    path: Path, *, timeout: float | None = None, stop: threading.Event | None = None
) -> Iterator[None]:
    """Hold an exclusive OS lock on ``path`` (created when missing) for the ``with`` block,
    waiting for another holder to finish; the kernel drops it if the holder dies.

    With ``timeout`` (seconds) or ``stop``, the wait is bounded: :class:`TimeoutError` when
    the lock is still held after ``timeout``, or as soon as ``stop`` is set (a process told
    to end must not wait on a lock another process keeps)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if timeout is None and stop is None:
            _lock_file(fd, wait=True)
        else:
            _wait_for_lock(fd, path, timeout, stop or threading.Event())
        yield
    finally:
        os.close(fd)  # closing the descriptor drops the lock


def _wait_for_lock(fd: int, path: Path, timeout: float | None, stop: threading.Event) -> None:
    deadline = time.monotonic() + (timeout if timeout is not None else float("inf"))
    while True:
        try:
            _lock_file(fd)
            return
        except OSError:  # taken: try again shortly, unless told to stop or out of time
            pass
        if stop.wait(LOCK_POLL_S):
            raise TimeoutError(errno.ETIMEDOUT, "stopped waiting for the lock", str(path))
        if time.monotonic() >= deadline:
            why = f"another process has held the lock for {timeout:g} s"
            raise TimeoutError(errno.ETIMEDOUT, why, str(path))


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


def run_manifests(results_dir: Path) -> Iterator[RunManifest]:
    """The manifest of every run under ``<results_dir>/runs`` that can be read. A damaged
    one (or a folder that is not a run) is skipped with a warning naming it: an earlier
    run never stops a new one. Each manifest's ``run_id`` is its folder's name."""
    runs = results_dir / "runs"
    try:
        folders = sorted(runs.iterdir()) if runs.is_dir() else []
    except OSError as exc:
        logger.warning("%s cannot be listed (%s): earlier runs are not read", runs, exc)
        return
    for run_dir in folders:
        if not is_run_id(run_dir.name) or not run_dir.is_dir():
            continue
        try:
            manifest = read_manifest_file(run_dir / "manifest.json")
        except FileNotFoundError:
            continue  # a run whose provider could not start leaves no manifest
        except (OSError, StoredFileError) as exc:
            logger.warning("run %s skipped: %s", run_dir.name, exc)
            continue
        yield manifest.model_copy(update={"run_id": run_dir.name})


def latest_run_id(results_dir: Path) -> str:
    """The id of the most recently created run in ``results_dir``."""
    created = [(m.created_at, m.run_id) for m in run_manifests(results_dir)]
    if not created:
        raise JournalError(f"no runs in {results_dir / 'runs'}")
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
        try:
            records.append(AttemptRecord.from_line(line))
        except (ValueError, ValidationError, StoredFileError) as exc:
            if number == len(lines):
                logger.warning("%s:%d: skipping a torn last line", path, number)
                continue
            raise JournalError(f"{path}:{number}: not a journal record ({exc})") from None
    return records


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
