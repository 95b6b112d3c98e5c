"""Per scaffold, a careful answer in its own format, rendered from its input and right
answer: the work ``benchmarks/stress_budgets.py`` measures, by family of scaffolds."""

from __future__ import annotations

from .common import Renderer
from .graph import RENDERERS as GRAPH
from .search import RENDERERS as SEARCH
from .sequence import RENDERERS as SEQUENCE

__all__ = ["FAMILIES", "RENDERERS", "Renderer"]

FAMILIES: dict[str, dict[str, Renderer]] = {"graph": GRAPH, "search": SEARCH, "sequence": SEQUENCE}
"""Each family module's renderers: the tests of each family's budgets take their scaffolds
from here, so a scaffold is held to its budget by having a renderer, not by a list."""
RENDERERS: dict[str, Renderer] = {**GRAPH, **SEARCH, **SEQUENCE}
"""Per scaffold, a careful answer in its format from its input and right answer."""
