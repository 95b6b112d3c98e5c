"""String scaffolds: pattern search and string structures."""

from __future__ import annotations

__all__: list[str] = []
