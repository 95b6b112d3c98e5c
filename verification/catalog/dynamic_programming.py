"""Dynamic-programming scaffolds."""

from __future__ import annotations

from verification.generators.dynamic_programming import generate_knapsack_01
from verification.reference.dynamic_programming import knapsack_01
from verification.spec import AnswerSchema, ScaffoldSpec
from verification.validators.knapsack import KnapsackValidator

__all__ = ["SPECS", "Knapsack01Answer"]


class Knapsack01Answer(AnswerSchema):
    """The best total value and the 0-based indices of one optimal item set."""

    max_value: int
    selected_items: list[int]


SPECS = (
    ScaffoldSpec(
        name="knapsack_01",
        category="dynamic_programming",
        title="0/1 knapsack",
        description="most valuable item set within a weight capacity, DP table",
        reference=knapsack_01,
        generator=generate_knapsack_01,
        answer_schema=Knapsack01Answer,
        validator=KnapsackValidator(),
        sizes={"simple": 4, "standard": 7, "edge": 5},
        max_output_tokens=6144,
    ),
)
