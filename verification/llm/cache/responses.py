"""The response cache's file: :class:`ResponseCache` keeps complete answers by key in one
SQLite file, opens it under a lock, reports a file it cannot use once (with the command
that mends it) and goes on without it, and serves the ``cache`` command (stats, trim,
prune, clear)."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import stat
import threading
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from verification.errors import CacheError, UnusableCacheError
from verification.llm.base import LLMResponse
from verification.llm.cache.eviction import TRIM_EVERY, evict_beyond, remove_unused_since
from verification.llm.cache.schema import (
    LAST_USE,
    create_or_upgrade,
    storable,
    timestamp,
)
from verification.llm.cache.stats import CacheStats, model_stats
from verification.llm.credentials import without_credentials
from verification.store.locks import exclusive_lock

__all__ = [
    "BUSY_TIMEOUT_S",
    "CACHE_FILE",
    "LOCK_TIMEOUT_S",
    "ResponseCache",
    "cache_files",
    "shared_cache",
]


CACHE_FILE = "cache.sqlite3"
"""The cache's file name in the results folder."""


def cache_files(folder: Path) -> list[Path]:
    """The files of the cache in ``folder``: its database, SQLite's files beside it and
    its lock (what no report may be written over)."""
    return [folder / f"{CACHE_FILE}{end}" for end in ("", "-wal", "-shm", "-journal", ".lock")]


BUSY_TIMEOUT_S = 10.0
"""How long one read or write waits for another process's write before giving up."""
LOCK_TIMEOUT_S = 10.0
"""How long opening the cache waits for another process's hold on ``cache.sqlite3.lock``
(opening takes milliseconds: a longer hold is a stuck process, and the run goes on
without the cache)."""


logger = logging.getLogger(__name__)


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
        return f"`python -m verification cache clear --cache-dir {self.path.parent}`"

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
        if isinstance(problem, UnusableCacheError):
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
        """Whether a file is there to open; raises :class:`UnusableCacheError` when what is there
        is no regular file (a folder, a device, a pipe, a link to nothing)."""
        try:
            mode = os.stat(self.path).st_mode
        except FileNotFoundError:
            if self.path.is_symlink():
                raise UnusableCacheError(
                    f"a symbolic link to {os.readlink(self.path)}, which does not exist",
                    f"{self._clear_command} removes the link",
                ) from None
            return False
        if stat.S_ISDIR(mode):
            raise UnusableCacheError(
                "a folder, not a cache file",
                f"move the folder away (`mv {self.path} {self.path}.old`), or run with --no-cache",
            )
        if not stat.S_ISREG(mode):
            raise UnusableCacheError("not a regular file", f"{self._clear_command} removes it")
        return True

    def _open(self) -> None:
        """Create the file or check its format; raises :class:`UnusableCacheError`,
        :class:`TimeoutError` (a lock held too long) or what SQLite or the OS raise."""
        self._check_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Openers take turns: turning a new file to WAL needs an exclusive lock, and two
        # openers holding shared ones deadlock; SQLite then fails one at once ("database is
        # locked", 3 of 300 trials of eight openers), whatever its busy timeout.
        lock = exclusive_lock(self.lock_path, timeout=LOCK_TIMEOUT_S, stop=self._stop)
        with lock, self._connect() as db:
            create_or_upgrade(db, self._clear_command)
        self._opened = True

    def open(self) -> bool:
        """Create the file, or check an existing one; False (after one warning) when it
        cannot be used. :meth:`get` and :meth:`put` open the cache when needed."""
        if self._opened or not self.usable:
            return self.usable
        try:
            self._open()
        except (sqlite3.Error, OSError, UnusableCacheError) as exc:
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
                        f"UPDATE responses SET hits = hits + 1, {LAST_USE} = ? WHERE key = ?",
                        (timestamp(), key),
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
                now = timestamp()
                db.execute(
                    "INSERT OR IGNORE INTO responses"
                    f" (key, provider, server, model, response, created_at, {LAST_USE})"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        key,
                        storable(provider),
                        storable(without_credentials(server) or ""),
                        storable(model),
                        json.dumps(response.model_dump(), ensure_ascii=True, allow_nan=False),
                        now,
                        now,
                    ),
                )
                if self.max_bytes is not None and self._puts % TRIM_EVERY == 0:
                    evict_beyond(db, self.max_bytes)
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
        return self._removing(lambda db: evict_beyond(db, max_bytes), "trimmed")

    def prune(self, older_than_days: float) -> int:
        """Remove the entries not written nor served for ``older_than_days`` days; how many
        went. Raises :class:`~verification.errors.CacheError` when the file cannot be used."""
        try:
            cutoff = datetime.now(UTC) - timedelta(days=older_than_days)
        except OverflowError:  # before the first day a date can name: nothing is that old
            cutoff = datetime.min.replace(tzinfo=UTC)
        return self._removing(lambda db: remove_unused_since(db, cutoff), "pruned")

    def _removing(self, remove: Callable[[sqlite3.Connection], int], verb: str) -> int:
        try:
            if not self._check_path():
                return 0
            self._open()
            with self._connect() as db:
                removed = remove(db)
        except (sqlite3.Error, OSError, UnusableCacheError) as exc:
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
                    (storable(provider), storable(without_credentials(server) or "")),
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
                by_model = model_stats(db)
        except (sqlite3.Error, OSError, UnusableCacheError) as exc:
            raise CacheError(
                f"the response cache {self.path} cannot be read ({exc}); {self._remedy(exc)}"
            ) from None
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
        except UnusableCacheError as exc:
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
