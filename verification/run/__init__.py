"""The run itself, below the runner that composes it.

- ``plan``: the planner; a run's :class:`~verification.run.plan.RunPlan` (new, resumed or a
  shard's cut), made before its first request.
- ``manifest``: the manifest written from the plan, and how the run ended.
- ``resuming``: what a resumed run may not change, the scaffold files it reads, which of
  its case samples are answered, the command that resumes it.
- ``shards``: a plan's deterministic cut into N slices, and the whole plan's digest.
- ``strategies``: the registries of the three choices, chosen by name once per run:
  ``transport`` (``concurrent`` with ``scheduling``'s limiter, budget and cache warm-up, or
  ``batch_mode``'s Message Batches), ``answers`` (``trace_answers``: the worked trace) and
  ``stopping`` (the whole plan at once, or the certification plan's ``looks``).
- ``attempts``: what every transport shares: request, judgement, journal line, repairs.
- ``budget`` and ``estimate``: ``--max-cost`` during a run, ``--estimate`` before one.
"""

from __future__ import annotations

__all__: list[str] = []
