"""What ``cache stats`` shows: entries and hits per provider, server and model, and the
file's size."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from verification.cases import printable
from verification.store.urls import without_credentials

__all__ = ["CacheStats", "ModelStats", "model_stats"]


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


def model_stats(db: sqlite3.Connection) -> tuple[ModelStats, ...]:
    """Entries and hits per provider, server and model, in that order."""
    # Rows are read back as text and numbers whatever a hand or another program put there
    # (NULL included).
    # As bytes, decoded here, and hits added up as TOTAL's floats: a row whose text is no
    # UTF-8, or whose hits overflow SUM, made every `cache stats` fail (hunt yy).
    rows = db.execute(
        "SELECT COALESCE(CAST(provider AS BLOB), X''), COALESCE(CAST(server AS BLOB),"
        " X''), COALESCE(CAST(model AS BLOB), X''), COUNT(*),"
        " TOTAL(CAST(hits AS INTEGER)) FROM responses"
        " GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"
    ).fetchall()
    # The harness stores servers without credentials; a row edited by hand may hold some,
    # and a count below zero; a server may have named its model at any length.
    return tuple(
        ModelStats(
            printable(_text(p), 40),
            printable(without_credentials(_text(s)) or "", 200),
            printable(_text(m), 100),
            int(n),
            max(int(min(h, 2.0**62)), 0),
        )
        for p, s, m, n, h in rows
    )


def _text(value: bytes) -> str:
    return bytes(value).decode("utf-8", "replace")
