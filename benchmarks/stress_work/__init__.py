"""Per scaffold, a careful answer in its own format, rendered from its input and right
answer: the work ``benchmarks/stress_budgets.py`` measures, by family of scaffolds."""

from __future__ import annotations

from .common import Renderer
from .graph import RENDERERS as GRAPH
from .search import RENDERERS as SEARCH
from .sequence import RENDERERS as SEQUENCE

__all__ = ["RENDERERS", "Renderer"]

RENDERERS: dict[str, Renderer] = {**GRAPH, **SEARCH, **SEQUENCE}
"""Per scaffold, a careful answer in its format from its input and right answer."""
