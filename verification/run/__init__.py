"""The run itself: its plan (new, resumed, sharded; the stopping rule), the manifest of a new run,
how requests are sent (concurrently or through Message Batches), the budget and the estimate.
"""

from __future__ import annotations

__all__: list[str] = []
