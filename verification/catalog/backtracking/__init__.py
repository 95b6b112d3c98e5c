"""Backtracking scaffolds: a depth-first search that undoes a choice when it leads nowhere."""

from __future__ import annotations

__all__: list[str] = []
