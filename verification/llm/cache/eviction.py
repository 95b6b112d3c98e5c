"""Keeping the cache within bounds: least-recently-used eviction past the size cap, and
``cache prune``'s removal of entries unused for a number of days."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from verification.llm.cache.schema import LAST_USE

__all__ = ["TRIM_EVERY", "evict_beyond", "remove_unused_since"]


TRIM_EVERY = 32
"""Answers kept between two checks of the size cap (each check reads the whole table)."""


_ENTRY_BYTES = "LENGTH(key) + LENGTH(response) + 128"
"""What an entry is taken to weigh against the size cap: its text and a row's overhead."""


def evict_beyond(db: sqlite3.Connection, max_bytes: int) -> int:
    """Delete the least recently used entries beyond the newest that fit in ``max_bytes``."""
    return int(
        db.execute(
            "DELETE FROM responses WHERE key IN (SELECT key FROM (SELECT key, SUM("
            f"{_ENTRY_BYTES}) OVER (ORDER BY COALESCE({LAST_USE}, created_at) DESC, rowid"
            " DESC) AS running FROM responses) WHERE running > ?)",
            (max_bytes,),
        ).rowcount
    )


def remove_unused_since(db: sqlite3.Connection, cutoff: datetime) -> int:
    """Delete the entries neither written nor served since ``cutoff``; how many went."""
    return int(
        db.execute(
            f"DELETE FROM responses WHERE COALESCE({LAST_USE}, created_at) < ?",
            (cutoff.isoformat(),),
        ).rowcount
    )
