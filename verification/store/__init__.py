"""Runs on disk: the journal and its records, paths and locks, bounded reading of stored files, the
code version a run records, the JSON schemas, and the price and capability tables a run records.
"""

from __future__ import annotations

__all__: list[str] = []
