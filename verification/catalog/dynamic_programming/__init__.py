"""Dynamic-programming scaffolds: optimal answers from tables of subproblems."""

from __future__ import annotations

__all__: list[str] = []
