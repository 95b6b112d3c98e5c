"""The response cache: a provider that wraps another and remembers its complete answers.

A repeated run (same scaffold text, inputs, model and request parameters) is answered from
``<results>/cache.sqlite3`` and makes no network call at all: the wrapped provider's
preflight runs only before the first request that has to go out. The key is a SHA-256 over
a canonical JSON of the cache format, the provider's name, its base URL without
credentials, and every field of the request but ``case_id`` (system prompt, prompt, model,
output budget, temperature, the sample index, and any field added later), so a changed
scaffold or input is a miss, never a stale hit. Only complete answers are kept: no errors,
refusals, or replies cut off by the output budget or the context window. Dry runs are
never cached.

SQLite in WAL mode with a busy timeout and one short transaction per read or write: runs
sharing a cache neither corrupt it nor wait on each other for long. A cache that cannot be
opened or read is reported once and the run goes on without it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from verification.config import without_credentials
from verification.llm.base import LLMProvider, LLMRequest, LLMResponse, WrappingProvider

__all__ = [
    "CACHE_FILE",
    "CACHE_FORMAT",
    "UNCACHED_STOP_REASONS",
    "CacheStats",
    "CachingProvider",
    "ResponseCache",
    "cache_key",
]

CACHE_FILE = "cache.sqlite3"
"""The cache's file name in the results folder."""
CACHE_FORMAT = 1
"""Part of every key: raised when what a key covers or an entry holds changes."""
UNCACHED_STOP_REASONS = frozenset({"max_tokens", "refusal", "model_context_window_exceeded"})
"""Replies that are not complete answers, never served again."""
BUSY_TIMEOUT_S = 10.0
logger = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    response TEXT NOT NULL,
    created_at TEXT NOT NULL,
    hits INTEGER NOT NULL DEFAULT 0
)
"""


def cache_key(provider: str, base_url: str | None, request: LLMRequest) -> str:
    """The key of ``request`` sent to ``provider`` at ``base_url`` (credentials dropped)."""
    data = {
        "format": CACHE_FORMAT,
        "provider": provider,
        "base_url": without_credentials(base_url),
        "request": request.model_dump(mode="json", exclude={"case_id"}),
    }
    canonical = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


class CacheStats(dict[str, Any]):
    """What ``cache stats`` prints: entries, hits, bytes, and entries by provider/model."""


class ResponseCache:
    """Complete answers by key, in one SQLite file. Every method opens its own short
    connection, so a cache is safe to share between tasks, threads and processes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._broken: str | None = None

    @property
    def usable(self) -> bool:
        """False once the file proved unreadable (the run then goes on uncached)."""
        return self._broken is None

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with closing(sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S)) as connection:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute(_SCHEMA)
            with connection:  # one transaction, committed or rolled back here
                yield connection

    def _give_up(self, error: sqlite3.Error) -> None:
        if self._broken is None:
            self._broken = str(error)
            logger.warning(
                "response cache %s is unusable (%s); this run goes on without it "
                "(`python -m verification cache clear` starts a new one)",
                self.path,
                error,
            )

    def get(self, key: str) -> LLMResponse | None:
        """The answer stored under ``key``, marked ``source="cache"``; None on a miss."""
        if not self.usable:
            return None
        try:
            with self._connection() as db:
                row = db.execute("SELECT response FROM responses WHERE key = ?", (key,)).fetchone()
                if row is None:
                    return None
                db.execute("UPDATE responses SET hits = hits + 1 WHERE key = ?", (key,))
            return LLMResponse.model_validate_json(row[0]).model_copy(update={"source": "cache"})
        except sqlite3.Error as exc:
            self._give_up(exc)
        except ValidationError:
            logger.warning("response cache %s: an unreadable entry is ignored", self.path)
        return None

    def put(self, key: str, provider: str, response: LLMResponse) -> None:
        """Keep ``response`` under ``key`` (first writer wins: both hold the same answer)."""
        if not self.usable:
            return
        try:
            with self._connection() as db:
                db.execute(
                    "INSERT OR IGNORE INTO responses (key, provider, model, response, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (
                        key,
                        provider,
                        response.model,
                        response.model_dump_json(),
                        datetime.now(UTC).isoformat(timespec="seconds"),
                    ),
                )
        except sqlite3.Error as exc:
            self._give_up(exc)

    def stats(self) -> CacheStats:
        """Entries, hits and size on disk, with entries and hits per provider and model."""
        stats = CacheStats(path=str(self.path), entries=0, hits=0, bytes=0, by_model=[])
        if not self.path.exists():
            return stats
        with self._connection() as db:
            rows = db.execute(
                "SELECT provider, model, COUNT(*), SUM(hits) FROM responses "
                "GROUP BY provider, model ORDER BY provider, model"
            ).fetchall()
        stats["by_model"] = [
            {"provider": p, "model": m, "entries": n, "hits": h or 0} for p, m, n, h in rows
        ]
        stats["entries"] = sum(row["entries"] for row in stats["by_model"])
        stats["hits"] = sum(row["hits"] for row in stats["by_model"])
        stats["bytes"] = sum(
            f.stat().st_size for f in self.path.parent.glob(self.path.name + "*") if f.is_file()
        )
        return stats

    def clear(self) -> int:
        """Remove every entry; returns how many there were."""
        if not self.path.exists():
            return 0
        with self._connection() as db:
            removed = db.execute("DELETE FROM responses").rowcount
        with closing(sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S)) as connection:
            connection.execute("VACUUM")
        return int(removed)


class CachingProvider(WrappingProvider):
    """Answers from :class:`ResponseCache` when it can, from the wrapped provider when it
    must, and keeps each complete live answer. The wrapped provider's preflight is deferred
    to the first miss, unless it settles the model (then it must run first)."""

    def __init__(self, inner: LLMProvider, cache: ResponseCache) -> None:
        super().__init__(inner)
        self.cache = cache
        self._base_url = inner.describe().get("base_url")
        self._preflight_done = False
        self._preflight_lock = asyncio.Lock()

    async def preflight(self) -> None:
        if self.inner.settles_model:
            await self._preflight_once()

    async def _preflight_once(self) -> None:
        async with self._preflight_lock:
            if not self._preflight_done:
                await self.inner.preflight()
                self._preflight_done = True

    async def generate(self, request: LLMRequest) -> LLMResponse:
        key = cache_key(self.inner.name, self._base_url, request)
        cached = await asyncio.to_thread(self.cache.get, key)
        if cached is not None:
            return cached
        await self._preflight_once()
        response = await self.inner.generate(request)
        if response.stop_reason not in UNCACHED_STOP_REASONS:
            await asyncio.to_thread(self.cache.put, key, self.inner.name, response)
        return response
