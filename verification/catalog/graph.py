"""Graph traversal scaffolds: breadth-first search and Dijkstra's shortest paths."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from verification.generators.graph import generate_bfs, generate_dijkstra
from verification.reference.graph import bfs, dijkstra
from verification.spec import AnswerSchema, ScaffoldSpec
from verification.validators.base import CompositeValidator
from verification.validators.exact_match import DictMatchValidator, PathMatchValidator

__all__ = ["SPECS", "BfsAnswer", "DijkstraAnswer"]

Distance = Annotated[int, Field(ge=0)]
"""A path length or hop count: a non-negative integer; ``null`` stands for unreachable."""


class DijkstraAnswer(AnswerSchema):
    """``{"distances": {"A": 0, "B": 4, "C": null}}``."""

    distances: dict[str, Distance | None]
    """Every vertex's shortest distance from the source; ``null`` when unreachable."""


class BfsAnswer(AnswerSchema):
    """``{"order": ["A", "B"], "distances": {"A": 0, "B": 1, "C": null}}``."""

    order: list[str]
    """The reachable vertices in visiting order, the source first."""
    distances: dict[str, Distance | None]
    """Every vertex's hop count from the source; ``null`` when unreachable."""


SPECS = (
    ScaffoldSpec(
        name="bfs",
        category="graph",
        title="Breadth-first search",
        description="visiting order and hop counts, neighbours in ascending label order",
        reference=bfs,
        generator=generate_bfs,
        answer_schema=BfsAnswer,
        validator=CompositeValidator(
            [PathMatchValidator(field="order"), DictMatchValidator(field="distances")]
        ),
        sizes={"simple": 5, "standard": 8, "edge": 5},
        max_output_tokens=4096,
    ),
    ScaffoldSpec(
        name="dijkstra",
        category="graph",
        title="Dijkstra's shortest paths",
        description="single-source shortest path distances, non-negative integer weights",
        reference=dijkstra,
        generator=generate_dijkstra,
        answer_schema=DijkstraAnswer,
        validator=DictMatchValidator(),
        sizes={"simple": 5, "standard": 8, "edge": 5},
        max_output_tokens=6144,
    ),
)
