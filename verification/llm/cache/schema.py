"""The cache file's format: the ``responses`` table, the format number kept in the file's
``user_version``, creating or upgrading a file and refusing one that is not a response
cache, and how text and times are written into it."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from verification.errors import UnusableCacheError

__all__ = [
    "CACHE_FORMAT",
    "LAST_USE",
    "check_format",
    "check_table",
    "create_or_upgrade",
    "storable",
    "timestamp",
]


CACHE_FORMAT = 2
"""Part of every key, and the file's ``user_version``: raised when what a key covers or an
entry holds changes. A file of an older format is emptied when opened; one of a newer
format is left alone and not used."""


_COLUMNS = ("key", "provider", "server", "model", "response", "created_at", "hits")
LAST_USE = "used_at"
"""When an entry was last written or served (added to files of format 2 when opened);
the cap and ``cache prune`` evict by it."""


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


def check_format(db: sqlite3.Connection, clear_command: str) -> int:
    """The file's cache format; raises :class:`UnusableCacheError` when a newer harness wrote it."""
    (version,) = db.execute("PRAGMA user_version").fetchone()
    if version > CACHE_FORMAT:
        raise UnusableCacheError(
            f"written in cache format {version} by a newer version of the harness; "
            f"this one reads format {CACHE_FORMAT}",
            f"run that newer version, or {clear_command} starts a new one for this one",
        )
    return int(version)


def check_table(db: sqlite3.Connection) -> None:
    """Raise when the ``responses`` table is not the one this format makes (a file of
    another program, or edited by hand): its rows would mean nothing."""
    columns = tuple(row[1] for row in db.execute("PRAGMA table_info(responses)"))
    if columns[: len(_COLUMNS)] != _COLUMNS or columns[len(_COLUMNS) :] not in (
        (),
        (LAST_USE,),
    ):
        raise sqlite3.DatabaseError(
            f"not a response cache: its responses table has columns {columns or 'none'}"
        )


def storable(text: str) -> str:
    """``text`` with lone surrogates (which SQLite cannot store) as backslash escapes."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def timestamp() -> str:
    # Microseconds: eviction orders entries by it, and many are kept within a second.
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _refuse_foreign(db: sqlite3.Connection, version: int) -> None:
    """Raise when a file with no cache format is not the first format's cache (which set
    none: one ``responses`` table keyed by ``key``, holding a ``response``): another
    program's, whose tables starting afresh would drop."""
    if version != 0:
        return
    names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    columns = {row[1] for row in db.execute("PRAGMA table_info(responses)")}
    ours = names <= {"responses", "sqlite_autoindex_responses_1"} and (
        not names or {"key", "response"} <= columns
    )
    if not ours:
        shown = ", ".join(sorted(names)[:5])
        raise sqlite3.DatabaseError(f"not a response cache: it holds {shown} and no cache format")


def create_or_upgrade(db: sqlite3.Connection, clear_command: str) -> None:
    """Make the file a cache of this format: a new file or one of an older format starts
    afresh, one written before entries were evicted gains its last-use column; raises
    :class:`UnusableCacheError` (a newer format) or :class:`sqlite3.DatabaseError` (another table).
    One process at a time, in one transaction."""
    # Before any write: a newer file, or another program's, is kept as it is.
    _refuse_foreign(db, check_format(db, clear_command))
    db.execute("PRAGMA journal_mode=WAL")  # kept in the file, for every connection
    db.execute("BEGIN IMMEDIATE")  # one process at a time creates or upgrades
    try:
        version = check_format(db, clear_command)
        _refuse_foreign(db, version)
        if version != CACHE_FORMAT:  # new, or an older format: start afresh
            db.execute("DROP TABLE IF EXISTS responses")
            db.execute(_TABLE)
            db.execute(f"PRAGMA user_version = {CACHE_FORMAT:d}")
        check_table(db)
        columns = {row[1] for row in db.execute("PRAGMA table_info(responses)")}
        if LAST_USE not in columns:  # written before entries were evicted
            db.execute(f"ALTER TABLE responses ADD COLUMN {LAST_USE} TEXT")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
