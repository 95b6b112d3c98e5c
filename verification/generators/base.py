"""Test cases, suites and the tiered generator interface.

Case ``k`` of a tier is drawn from ``random.Random(f"{seed}:{scaffold}:{tier}:{k}")``: the
same seed gives the same case on every machine, whatever ``--cases`` is, and its id is
``{scaffold}-{tier}-{k:03d}``.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, model_validator

if TYPE_CHECKING:
    from verification.spec import ScaffoldSpec

__all__ = [
    "TIERS",
    "TestCase",
    "TestCaseGenerator",
    "TestSuite",
    "Tier",
    "case_id",
    "case_rng",
    "generate_case",
    "to_json_data",
]

Tier = Literal["simple", "standard", "edge"]
TIERS: tuple[Tier, ...] = ("simple", "standard", "edge")


class TestCase(BaseModel):
    """One input for one scaffold with its ground truth."""

    __test__ = False  # not a pytest test class
    model_config = ConfigDict(frozen=True)

    id: str
    """``{scaffold}-{tier}-{index:03d}``; also usable as a batch ``custom_id``."""
    scaffold: str
    tier: Tier
    index: int
    """``k``; taken from the id's last part when not given."""
    input: dict[str, Any]
    """Plain JSON data; ``reference(**input)`` computes ``expected``."""
    expected: dict[str, Any]
    """The reference's answer: one right answer among possibly several."""

    @model_validator(mode="before")
    @classmethod
    def _index_from_id(cls, data: Any) -> Any:
        if isinstance(data, dict) and "index" not in data and isinstance(data.get("id"), str):
            last = data["id"].replace("_", "-").rsplit("-", 1)[-1]
            data = {**data, "index": int(last) if last.isdigit() else 0}
        return data


class TestSuite(BaseModel):
    """The cases of one scaffold."""

    __test__ = False
    model_config = ConfigDict(frozen=True)

    scaffold: str
    test_cases: list[TestCase]


def case_id(scaffold: str, tier: str, index: int) -> str:
    """The stable id of case ``index`` of ``tier``."""
    return f"{scaffold}-{tier}-{index:03d}"


def case_rng(seed: int, scaffold: str, tier: str, index: int) -> random.Random:
    """The random source of one case; a string seed hashes the same on every machine."""
    return random.Random(f"{seed}:{scaffold}:{tier}:{index}")


def to_json_data(value: Any) -> Any:
    """Round-trip through JSON: tuples become lists, and NaN or infinity is an error."""
    return json.loads(json.dumps(value, allow_nan=False))


def generate_case(spec: ScaffoldSpec, tier: Tier, index: int, *, seed: int) -> TestCase:
    """Draw case ``index`` of ``tier`` and compute its ground truth with the reference."""
    rng = case_rng(seed, spec.name, tier, index)
    test_input = to_json_data(spec.generator(rng, tier, spec.sizes[tier]))
    expected = to_json_data(spec.reference(**test_input))
    return TestCase(
        id=case_id(spec.name, tier, index),
        scaffold=spec.name,
        tier=tier,
        index=index,
        input=test_input,
        expected=expected,
    )


class TestCaseGenerator(ABC):
    """Tiered generation of a scaffold's suite."""

    __test__ = False
    scaffold: str

    @abstractmethod
    def generate_simple(self) -> list[TestCase]:
        """Generate simple test cases."""

    @abstractmethod
    def generate_standard(self) -> list[TestCase]:
        """Generate standard complexity test cases."""

    @abstractmethod
    def generate_edge_cases(self) -> list[TestCase]:
        """Generate edge case test cases."""

    def generate_suite(self) -> TestSuite:
        """Generate the complete test suite: every tier in order."""
        cases = self.generate_simple() + self.generate_standard() + self.generate_edge_cases()
        return TestSuite(scaffold=self.scaffold, test_cases=cases)
