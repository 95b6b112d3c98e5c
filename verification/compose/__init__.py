"""Runs made of runs: several models on the same cases, a scaffold and its no-scaffold baseline,
shards merged into one run.
"""

from __future__ import annotations

__all__: list[str] = []
