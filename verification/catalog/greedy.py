"""Greedy scaffolds."""

from __future__ import annotations

from typing import Annotated

from pydantic import Strict, StrictInt, StrictStr

from verification.generators.greedy import generate_kruskal
from verification.reference.greedy import kruskal_mst
from verification.spec import AnswerSchema, ScaffoldSpec
from verification.validators.set_equivalence import MSTValidator

__all__ = ["SPECS", "KruskalAnswer", "WeightedEdge"]

WeightedEdge = Annotated[tuple[StrictStr, StrictStr, StrictInt], Strict(False)]
"""``[u, v, weight]``: lax only so a Python list fills the tuple too (strict JSON mode
accepts an array already); each item stays strict."""


class KruskalAnswer(AnswerSchema):
    """The edges of a minimum spanning tree (forest) and their total weight."""

    edges: list[WeightedEdge]
    total_weight: int


SPECS = (
    ScaffoldSpec(
        name="kruskal",
        category="greedy",
        title="Kruskal's minimum spanning tree",
        description="minimum spanning tree (forest) of an undirected graph, union-find",
        reference=kruskal_mst,
        generator=generate_kruskal,
        answer_schema=KruskalAnswer,
        validator=MSTValidator(),
        sizes={"simple": 4, "standard": 7, "edge": 5},
        max_output_tokens=4096,
    ),
)
