"""Greedy scaffolds: a locally best choice at every step."""

from __future__ import annotations

__all__: list[str] = []
