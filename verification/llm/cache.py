"""The response cache: a provider that wraps another and remembers its complete answers.

A repeated run (same scaffold text, inputs, model and request parameters) is answered from
``cache.sqlite3`` in the user's cache folder (``VERIFY_CACHE_DIR``, by default
the platform's user cache folder), shared by every run whatever its results
folder, and makes no network call at all. ``VERIFY_CACHE_MAX_MB`` caps it: past the cap the
least recently used answers are evicted. The key is a SHA-256 over a
canonical JSON of the cache format, the provider's name, its base URL without credentials,
query or fragment, and every field of the request but ``case_id`` (system prompt, prompt,
model, output budget, temperature, the sample index, and any field added later), so a
changed scaffold or input is a miss, never a stale hit. Only complete answers are kept: the
model ended its turn (``end_turn`` or ``stop_sequence``) with some text; errors, refusals,
replies cut off by the output budget or the context window, and empty replies are asked
again next time. Dry runs are never wrapped. No secret is written: the key is a hash, and
an entry holds the answer, the provider's name, the model and the credential-free URL.

The wrapped provider's preflight is put off until the first request that has to go out,
unless nothing from its server is cached yet (then every request will go out, and the
preflight runs at once, before the run starts, as it would uncached) or it settles the
model. A preflight that fails fails every later request with the same error.

SQLite in WAL mode with a busy timeout and one short transaction per read or write: runs
sharing a cache neither corrupt it nor wait on each other for long. A cache that cannot be
opened or read (damaged, a folder, a dangling link, a table of another program, a lock
another process keeps past :data:`LOCK_TIMEOUT_S`) is reported once, with the command that
mends it, and the run goes on without it.

A live answer is kept only when the runner says it is journalled (:meth:`CachingProvider.keep`),
so a cache write that fails can cost a warning, never a paid answer. Model text is stored as
ASCII JSON (lone surrogates and other odd code points escaped, never dropped); the columns
``cache stats`` groups by hold the same text with such code points as backslash escapes.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import os
import sqlite3
import stat
import threading
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar

from verification.cases import printable
from verification.errors import CacheError
from verification.llm.base import LLMProvider, LLMRequest, LLMResponse, WrappingProvider
from verification.llm.credentials import without_credentials
from verification.store.locks import exclusive_lock

__all__ = [
    "CACHE_FILE",
    "CACHE_FORMAT",
    "COMPLETE_STOP_REASONS",
    "CacheStats",
    "CachingProvider",
    "ModelStats",
    "ResponseCache",
    "cache_key",
    "is_complete",
    "shared_cache",
]

CACHE_FILE = "cache.sqlite3"
"""The cache's file name in the results folder."""
CACHE_FORMAT = 2
"""Part of every key, and the file's ``user_version``: raised when what a key covers or an
entry holds changes. A file of an older format is emptied when opened; one of a newer
format is left alone and not used."""
COMPLETE_STOP_REASONS = frozenset({"end_turn", "stop_sequence"})
"""The stop reasons of a complete answer, the only ones kept. Not ``max_tokens``, ``refusal``
or ``model_context_window_exceeded``, nor an unknown or missing one."""
BUSY_TIMEOUT_S = 10.0
"""How long one read or write waits for another process's write before giving up."""
LOCK_TIMEOUT_S = 10.0
"""How long opening the cache waits for another process's hold on ``cache.sqlite3.lock``
(opening takes milliseconds: a longer hold is a stuck process, and the run goes on
without the cache)."""
_COLUMNS = ("key", "provider", "server", "model", "response", "created_at", "hits")
_LAST_USE = "used_at"
"""When an entry was last written or served (added to files of format 2 when opened);
the cap and ``cache prune`` evict by it."""
TRIM_EVERY = 32
"""Answers kept between two checks of the size cap (each check reads the whole table)."""
logger = logging.getLogger(__name__)
T = TypeVar("T")

_TABLE = """
CREATE TABLE responses (
    key TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    server TEXT NOT NULL,
    model TEXT NOT NULL,
    response TEXT NOT NULL,
    created_at TEXT NOT NULL,
    hits INTEGER NOT NULL DEFAULT 0,
    used_at TEXT
)
"""
_ENTRY_BYTES = "LENGTH(key) + LENGTH(response) + 128"
"""What an entry is taken to weigh against the size cap: its text and a row's overhead."""


def cache_key(provider: str, base_url: str | None, request: LLMRequest) -> str:
    """The key of ``request`` sent to ``provider`` at ``base_url``: a SHA-256 over every
    request field but ``case_id``, so a field added to :class:`LLMRequest` is keyed too.
    Credentials, query and fragment of the URL are no part of it.

    Examples
    --------
    >>> request = LLMRequest(prompt="2+2?", model="m", case_id="a")
    >>> key = cache_key("openai", "http://user:secret@host:8000/v1?key=k", request)
    >>> key == cache_key("openai", "http://host:8000/v1", request.model_copy(
    ...     update={"case_id": "b"}))
    True
    >>> key == cache_key("openai", "http://host:8000/v1", request.model_copy(
    ...     update={"sample": 1}))
    False
    >>> key == cache_key("openai", "http://host:8000/v1", request.model_copy(
    ...     update={"thinking_budget": 2048}))
    False
    """
    data = {
        "format": CACHE_FORMAT,
        "provider": provider,
        "base_url": without_credentials(base_url),
        # No budget leaves the key as it was before thinking existed: old entries still hit.
        "request": request.model_dump(
            mode="json",
            exclude={"case_id"} if request.thinking_budget else {"case_id", "thinking_budget"},
        ),
    }
    canonical = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def is_complete(response: LLMResponse) -> bool:
    """Whether ``response`` is an answer worth serving again: the model ended its turn
    (:data:`COMPLETE_STOP_REASONS`) and said something."""
    return response.stop_reason in COMPLETE_STOP_REASONS and bool(response.content.strip())


@dataclass(frozen=True)
class ModelStats:
    """The entries of one provider, server and model."""

    provider: str
    server: str
    model: str
    entries: int
    hits: int
    """How often these entries were served again."""


@dataclass(frozen=True)
class CacheStats:
    """What ``cache stats`` shows."""

    path: Path
    entries: int
    hits: int
    size_bytes: int
    """The file with its WAL and shared-memory files."""
    by_model: tuple[ModelStats, ...]
    max_bytes: int | None = None
    """The size cap, if any."""

    def render(self) -> str:
        """The stats as ``cache stats`` prints them."""
        cap = "" if self.max_bytes is None else f", capped at {_size(self.max_bytes)}"
        if not self.by_model:
            return f"{self.path}: empty ({_size(self.size_bytes)}{cap})"
        lines = [
            f"{self.path}: {self.entries} answers, {self.hits} served again, "
            f"{_size(self.size_bytes)}{cap}"
        ]
        width = max(len(row.model) for row in self.by_model)
        for row in self.by_model:
            lines.append(
                f"  {row.provider:<10} {row.model:<{width}} {row.entries:>7} answers "
                f"{row.hits:>7} served again  {row.server or '(SDK default URL)'}"
            )
        return "\n".join(lines)


def _size(size_bytes: int) -> str:
    return (
        f"{size_bytes / 1024:.0f} KiB"
        if size_bytes < 1024**2
        else f"{size_bytes / 1024**2:.1f} MiB"
    )


class _Unusable(Exception):
    """The cache path cannot be used as a cache; ``remedy`` says what mends it."""

    def __init__(self, problem: str, remedy: str) -> None:
        super().__init__(problem)
        self.remedy = remedy


def _check_format(db: sqlite3.Connection, clear_command: str) -> int:
    """The file's cache format; raises :class:`_Unusable` when a newer harness wrote it."""
    (version,) = db.execute("PRAGMA user_version").fetchone()
    if version > CACHE_FORMAT:
        raise _Unusable(
            f"written in cache format {version} by a newer version of the harness; "
            f"this one reads format {CACHE_FORMAT}",
            f"run that newer version, or {clear_command} starts a new one for this one",
        )
    return int(version)


def _check_table(db: sqlite3.Connection) -> None:
    """Raise when the ``responses`` table is not the one this format makes (a file of
    another program, or edited by hand): its rows would mean nothing."""
    columns = tuple(row[1] for row in db.execute("PRAGMA table_info(responses)"))
    if columns[: len(_COLUMNS)] != _COLUMNS or columns[len(_COLUMNS) :] not in (
        (),
        (_LAST_USE,),
    ):
        raise sqlite3.DatabaseError(
            f"not a response cache: its responses table has columns {columns or 'none'}"
        )


def _storable(text: str) -> str:
    """``text`` with lone surrogates (which SQLite cannot store) as backslash escapes."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _now() -> str:
    # Microseconds: eviction orders entries by it, and many are kept within a second.
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _evict_beyond(db: sqlite3.Connection, max_bytes: int) -> int:
    """Delete the least recently used entries beyond the newest that fit in ``max_bytes``."""
    return int(
        db.execute(
            "DELETE FROM responses WHERE key IN (SELECT key FROM (SELECT key, SUM("
            f"{_ENTRY_BYTES}) OVER (ORDER BY COALESCE({_LAST_USE}, created_at) DESC, rowid"
            " DESC) AS running FROM responses) WHERE running > ?)",
            (max_bytes,),
        ).rowcount
    )


class ResponseCache:
    """Complete answers by key, in one SQLite file. Every method opens its own short-lived
    connection, so one cache is safe to share between tasks, threads and processes.

    :meth:`get` and :meth:`put` never raise: a file that cannot be used is reported once
    (a warning naming ``cache clear``) and the cache then answers nothing and keeps nothing.
    :meth:`stats` raises :class:`~verification.errors.CacheError` on such a file;
    :meth:`clear` removes it.
    """

    def __init__(self, path: Path, *, max_bytes: int | None = None) -> None:
        self.path = path
        self.max_bytes = max_bytes
        """The size cap: past it, the least recently used entries are evicted."""
        self._puts = 0
        self.lock_path = path.with_name(path.name + ".lock")
        """Held while the file is created, checked or upgraded (kept: it holds nothing)."""
        self._opened = False
        self._broken: str | None = None
        self._stop = threading.Event()

    def stop_waiting(self) -> None:
        """End any wait for another process's lock now, in whatever thread it is (the
        process is ending); the cache is then unusable."""
        self._stop.set()

    @property
    def _clear_command(self) -> str:
        return f"`python -m verification cache clear --output {self.path.parent}`"

    @property
    def usable(self) -> bool:
        """False once the file proved unusable (the run then goes on uncached)."""
        return self._broken is None

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        # Autocommit: each statement is its own short transaction, unless BEGIN says more.
        with closing(
            sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        ) as connection:
            # WAL keeps its promises with NORMAL: a power cut may lose the last answers
            # kept, never the file. Each answer is one commit, so this is what costs.
            connection.execute("PRAGMA synchronous=NORMAL")
            yield connection

    def _give_up(self, problem: BaseException) -> None:
        if self._broken is None:
            self._broken = str(problem)
            logger.warning(
                "response cache %s is unusable (%s); this run goes on without it (%s)",
                self.path,
                problem,
                self._remedy(problem),
            )

    def _remedy(self, problem: BaseException) -> str:
        """The command or step that mends ``problem``."""
        if isinstance(problem, _Unusable):
            return problem.remedy
        if isinstance(problem, TimeoutError):
            return (
                f"another process holds {self.lock_path.name}: let it finish, "
                "or run with --no-cache"
            )
        if isinstance(problem, sqlite3.DatabaseError) and not isinstance(
            problem, sqlite3.OperationalError
        ):
            return f"{self._clear_command} starts a new one"
        return f"check that {self.path.parent} is a writable folder, or run with --no-cache"

    def _check_path(self) -> bool:
        """Whether a file is there to open; raises :class:`_Unusable` when what is there
        is no regular file (a folder, a device, a pipe, a link to nothing)."""
        try:
            mode = os.stat(self.path).st_mode
        except FileNotFoundError:
            if self.path.is_symlink():
                raise _Unusable(
                    f"a symbolic link to {os.readlink(self.path)}, which does not exist",
                    f"{self._clear_command} removes the link",
                ) from None
            return False
        if stat.S_ISDIR(mode):
            raise _Unusable(
                "a folder, not a cache file",
                f"move the folder away (`mv {self.path} {self.path}.old`), or run with --no-cache",
            )
        if not stat.S_ISREG(mode):
            raise _Unusable("not a regular file", f"{self._clear_command} removes it")
        return True

    def _open(self) -> None:
        """Create the file or check its format; raises :class:`_Unusable`,
        :class:`TimeoutError` (a lock held too long) or what SQLite or the OS raise."""
        self._check_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Openers take turns: turning a new file to WAL needs an exclusive lock, and two
        # openers holding shared ones deadlock; SQLite then fails one at once ("database is
        # locked", 3 of 300 trials of eight openers), whatever its busy timeout.
        lock = exclusive_lock(self.lock_path, timeout=LOCK_TIMEOUT_S, stop=self._stop)
        with lock, self._connect() as db:
            _check_format(db, self._clear_command)  # before any write: a newer file is kept
            db.execute("PRAGMA journal_mode=WAL")  # kept in the file, for every connection
            db.execute("BEGIN IMMEDIATE")  # one process at a time creates or upgrades
            try:
                version = _check_format(db, self._clear_command)
                if version != CACHE_FORMAT:  # new, or an older format: start afresh
                    db.execute("DROP TABLE IF EXISTS responses")
                    db.execute(_TABLE)
                    db.execute(f"PRAGMA user_version = {CACHE_FORMAT:d}")
                _check_table(db)
                columns = {row[1] for row in db.execute("PRAGMA table_info(responses)")}
                if _LAST_USE not in columns:  # written before entries were evicted
                    db.execute(f"ALTER TABLE responses ADD COLUMN {_LAST_USE} TEXT")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        self._opened = True

    def open(self) -> bool:
        """Create the file, or check an existing one; False (after one warning) when it
        cannot be used. :meth:`get` and :meth:`put` open the cache when needed."""
        if self._opened or not self.usable:
            return self.usable
        try:
            self._open()
        except (sqlite3.Error, OSError, _Unusable) as exc:
            self._give_up(exc)
        return self.usable

    def get(self, key: str) -> LLMResponse | None:
        """The answer stored under ``key``, marked ``source="cache"`` (its usage is the
        original call's); None on a miss or when the cache cannot be used."""
        if not self.open():
            return None
        try:
            with self._connect() as db:
                row = db.execute("SELECT response FROM responses WHERE key = ?", (key,)).fetchone()
                if row is None:
                    return None
                try:
                    db.execute(
                        f"UPDATE responses SET hits = hits + 1, {_LAST_USE} = ? WHERE key = ?",
                        (_now(), key),
                    )
                except sqlite3.OperationalError as exc:  # a read-only file still answers
                    logger.debug("response cache %s: hit not counted (%s)", self.path, exc)
        except (sqlite3.Error, OSError) as exc:
            self._give_up(exc)
            return None
        try:
            # json, not pydantic's parser: stored text may hold lone surrogate escapes.
            response = LLMResponse.model_validate(json.loads(row[0]))
        except (ValueError, TypeError, RecursionError):
            # Removed, so that the answer asked again takes its place (the first writer of
            # a key wins: left there, it would be asked for again on every run).
            logger.warning(
                "response cache %s: an unreadable entry is removed and its answer asked again",
                self.path,
            )
            self._forget(key)
            return None
        return response.model_copy(update={"source": "cache"})

    def _forget(self, key: str) -> None:
        try:
            with self._connect() as db:
                db.execute("DELETE FROM responses WHERE key = ?", (key,))
        except (sqlite3.Error, OSError) as exc:
            self._give_up(exc)

    def put(
        self, key: str, response: LLMResponse, *, provider: str, server: str | None, model: str
    ) -> None:
        """Keep ``response`` under ``key``, with the ``provider``, credential-free
        ``server`` and requested ``model`` that ``cache stats`` groups by. The first
        writer wins (two writers of one key hold answers to one request)."""
        if not self.open():
            return
        try:
            with self._connect() as db:
                now = _now()
                db.execute(
                    "INSERT OR IGNORE INTO responses"
                    f" (key, provider, server, model, response, created_at, {_LAST_USE})"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        key,
                        _storable(provider),
                        _storable(without_credentials(server) or ""),
                        _storable(model),
                        json.dumps(response.model_dump(), ensure_ascii=True, allow_nan=False),
                        now,
                        now,
                    ),
                )
                if self.max_bytes is not None and self._puts % TRIM_EVERY == 0:
                    _evict_beyond(db, self.max_bytes)
                self._puts += 1
        except (sqlite3.Error, OSError, ValueError) as exc:
            self._give_up(exc)

    def trim(self) -> int:
        """Evict the least recently used entries until the rest weigh at most
        :attr:`max_bytes`; how many went. Nothing without a cap; raises
        :class:`~verification.errors.CacheError` when the file cannot be used."""
        if self.max_bytes is None:
            return 0
        max_bytes = self.max_bytes
        return self._removing(lambda db: _evict_beyond(db, max_bytes), "trimmed")

    def prune(self, older_than_days: float) -> int:
        """Remove the entries not written nor served for ``older_than_days`` days; how many
        went. Raises :class:`~verification.errors.CacheError` when the file cannot be used."""
        cutoff = (datetime.now(UTC) - timedelta(days=older_than_days)).isoformat()

        def remove(db: sqlite3.Connection) -> int:
            return int(
                db.execute(
                    f"DELETE FROM responses WHERE COALESCE({_LAST_USE}, created_at) < ?",
                    (cutoff,),
                ).rowcount
            )

        return self._removing(remove, "pruned")

    def _removing(self, remove: Callable[[sqlite3.Connection], int], verb: str) -> int:
        try:
            if not self._check_path():
                return 0
            self._open()
            with self._connect() as db:
                removed = remove(db)
        except (sqlite3.Error, OSError, _Unusable) as exc:
            raise CacheError(
                f"the response cache {self.path} cannot be {verb} ({exc}); {self._remedy(exc)}"
            ) from None
        if removed:
            self._vacuum()
        return removed

    def _vacuum(self) -> None:
        try:
            with self._connect() as db:
                db.execute("VACUUM")  # give the space back; a busy file keeps it, harmlessly
        except sqlite3.OperationalError as exc:
            logger.debug("response cache %s not vacuumed (%s)", self.path, exc)

    def holds_answers_from(self, provider: str, server: str | None) -> bool:
        """Whether any answer of ``provider`` at ``server`` is kept (False when the cache
        cannot be used)."""
        if not self.open():
            return False
        try:
            with self._connect() as db:
                row = db.execute(
                    "SELECT 1 FROM responses WHERE provider = ? AND server = ? LIMIT 1",
                    (_storable(provider), _storable(without_credentials(server) or "")),
                ).fetchone()
        except (sqlite3.Error, OSError) as exc:
            self._give_up(exc)
            return False
        return row is not None

    def _remove(self, problem: BaseException) -> None:
        logger.warning("response cache %s could not be read (%s): removed", self.path, problem)
        self.path.unlink(missing_ok=True)  # the link, pipe or file itself, never a target
        for file in self._files():
            file.unlink(missing_ok=True)
        self._opened, self._broken = False, None

    def _files(self) -> list[Path]:
        """The database with its WAL and shared-memory files, those that exist."""
        names = (self.path.name, self.path.name + "-wal", self.path.name + "-shm")
        return [self.path.with_name(name) for name in names if self.path.with_name(name).exists()]

    def stats(self) -> CacheStats:
        """Entries, hits and size on disk, with entries and hits per provider, server and
        model; raises :class:`~verification.errors.CacheError` when the file cannot be read."""
        try:
            if not self._check_path():
                return CacheStats(self.path, 0, 0, 0, (), self.max_bytes)
            self._open()
            with self._connect() as db:
                # Rows are read back as text and numbers whatever a hand or another
                # program put there (NULL included).
                rows = db.execute(
                    "SELECT COALESCE(CAST(provider AS TEXT), ''), COALESCE(CAST(server AS TEXT),"
                    " ''), COALESCE(CAST(model AS TEXT), ''), COUNT(*),"
                    " COALESCE(SUM(CAST(hits AS INTEGER)), 0) FROM responses"
                    " GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"
                ).fetchall()
        except (sqlite3.Error, OSError, _Unusable) as exc:
            raise CacheError(
                f"the response cache {self.path} cannot be read ({exc}); {self._remedy(exc)}"
            ) from None
        by_model = tuple(
            ModelStats(printable(p), printable(s), printable(m), int(n), int(h))
            for p, s, m, n, h in rows
        )
        return CacheStats(
            path=self.path,
            entries=sum(row.entries for row in by_model),
            hits=sum(row.hits for row in by_model),
            size_bytes=sum(file.stat().st_size for file in self._files()),
            by_model=by_model,
            max_bytes=self.max_bytes,
        )

    def clear(self) -> int:
        """Remove every entry and return how many there were. A file that is no readable
        cache (damaged, of a newer format, another program's, a link to nothing, a pipe) is
        removed altogether, with a warning; a folder, or a cache another process keeps
        locked, is left alone: :class:`~verification.errors.CacheError`."""
        try:
            if not self._check_path():
                return 0
            self._open()
            with self._connect() as db:
                removed = db.execute("DELETE FROM responses").rowcount
        except _Unusable as exc:
            if self.path.is_dir():
                raise CacheError(f"{self.path} is {exc}: nothing removed; {exc.remedy}") from None
            self._remove(exc)
            return 0
        except sqlite3.OperationalError as exc:  # busy or not openable: not ours to delete
            raise CacheError(
                f"the response cache {self.path} cannot be cleared now ({exc}); nothing "
                "removed: let the run using it finish, then clear it"
            ) from None
        except TimeoutError as exc:
            raise CacheError(
                f"the response cache {self.path} cannot be cleared now ({exc}); nothing "
                f"removed; {self._remedy(exc)}"
            ) from None
        except sqlite3.DatabaseError as exc:
            self._remove(exc)
            return 0
        except OSError as exc:
            raise CacheError(
                f"the response cache {self.path} cannot be cleared ({exc}); {self._remedy(exc)}"
            ) from None
        self._vacuum()
        return int(removed)


def shared_cache(cache_dir: Path, cache_max_mb: float | None) -> ResponseCache:
    """The response cache every run of the user shares, in ``cache_dir``
    (``VERIFY_CACHE_DIR``), capped at ``cache_max_mb`` MiB (``VERIFY_CACHE_MAX_MB``)."""
    return ResponseCache(
        cache_dir / CACHE_FILE,
        max_bytes=None if cache_max_mb is None else int(cache_max_mb * 1024 * 1024),
    )


class CachingProvider(WrappingProvider):
    """Answers from a :class:`ResponseCache` when it can, from the wrapped provider when
    it must, and keeps each complete live answer (:func:`is_complete`).

    The wrapped provider's preflight waits for the first miss, unless the model depends on
    it (``settles_model``) or nothing from this provider's server is cached yet.
    """

    def __init__(self, inner: LLMProvider, cache: ResponseCache) -> None:
        if inner.dry_run:
            raise ValueError(f"a dry run ({inner.name}) is never cached")
        super().__init__(inner)
        self.cache = cache
        self._server = without_credentials(inner.describe().get("base_url"))
        self._preflight_done = False
        self._preflight_error: BaseException | None = None
        self._preflight_lock = asyncio.Lock()

    async def _in_thread(self, call: Callable[[], T]) -> T:
        """``call()`` in a worker thread; when the caller is cancelled (Ctrl-C, SIGTERM), a
        wait of that thread for another process's lock ends too, so the process can."""
        try:
            return await asyncio.to_thread(call)
        except asyncio.CancelledError:
            self.cache.stop_waiting()
            raise

    async def preflight(self) -> None:
        holds = functools.partial(self.cache.holds_answers_from, self.name, self._server)
        if self.inner.settles_model or not await self._in_thread(holds):
            await self._preflight_once()

    async def _preflight_once(self) -> None:
        async with self._preflight_lock:
            if self._preflight_error is not None:  # a failed check fails every request alike
                raise self._preflight_error
            if not self._preflight_done:
                try:
                    await self.inner.preflight()
                except Exception as exc:
                    self._preflight_error = exc
                    raise
                self._preflight_done = True

    async def cached(self, request: LLMRequest) -> LLMResponse | None:
        key = cache_key(self.name, self._server, request)
        return await self._in_thread(functools.partial(self.cache.get, key))

    async def generate(self, request: LLMRequest) -> LLMResponse:
        cached = await self.cached(request)
        if cached is not None:
            return cached
        await self._preflight_once()
        return await self.inner.generate(request)

    async def keep(self, request: LLMRequest, response: LLMResponse) -> None:
        """Keep a complete live answer, now that it is journalled; a write that fails is a
        warning (the answer is safe in the journal), never an error of the run."""
        await self.inner.keep(request, response)
        if response.source not in ("live", "batch") or not is_complete(response):
            return
        put = functools.partial(
            self.cache.put,
            cache_key(self.name, self._server, request),
            response,
            provider=self.name,
            server=self._server,
            model=request.model,
        )
        try:
            await self._in_thread(put)
        except Exception as exc:  # put reports what it knows; anything else costs only the entry
            logger.warning(
                "response cache %s: an answer was not kept (%s: %s); it is in the run's "
                "journal, and a repeated run asks for it again",
                self.cache.path,
                type(exc).__name__,
                exc,
            )
