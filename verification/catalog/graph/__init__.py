"""Graph scaffolds: traversals, shortest paths, orderings."""

from __future__ import annotations

__all__: list[str] = []
