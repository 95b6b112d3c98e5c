"""Progress as log lines, for a run whose standard error is no terminal but which was asked
to say more (``-v``): a CI log gets a line every twentieth of the run, not a redrawn bar."""

from __future__ import annotations

import logging
from typing import Any

__all__ = ["ProgressLog"]

logger = logging.getLogger("verification.progress")
STEPS = 20
"""Lines per run at most (and one at the end)."""


class ProgressLog:
    """Logs ``progress: N/TOTAL answers`` at INFO as answers come in."""

    def __init__(self) -> None:
        self.total: int | None = None
        self.done = 0
        self._logged = 0

    def start(self, total: int) -> None:
        """The number of cases to answer (repairs come on top, uncounted)."""
        self.total = total
        logger.info("progress: 0/%d answers", total)

    def advance(self, record: Any) -> None:
        if record.attempt != 1:  # a repair refines an answer already counted
            return
        self.done += 1
        every = max(1, (self.total or 0) // STEPS)
        if self.done % every == 0 or self.done == self.total:
            self._logged = self.done
            logger.info(
                "progress: %d/%s answers (last: %s %s)",
                self.done,
                self.total if self.total is not None else "?",
                record.scaffold,
                record.outcome,
            )

    def close(self) -> None:
        if self.done != self._logged:
            logger.info("progress: %d answers", self.done)
