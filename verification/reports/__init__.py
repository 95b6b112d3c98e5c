"""reports of the certification harness."""

from __future__ import annotations

__all__: list[str] = []
