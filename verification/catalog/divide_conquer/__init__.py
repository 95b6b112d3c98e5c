"""Divide-and-conquer scaffolds: problems solved by halving or partitioning an array."""

from __future__ import annotations

__all__: list[str] = []
