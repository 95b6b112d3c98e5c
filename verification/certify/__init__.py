"""Certification statistics: case scores, intervals, statuses, the size envelope, paired tests,
calibration on the run's own cases, and a run's costs.
"""

from __future__ import annotations

__all__: list[str] = []
