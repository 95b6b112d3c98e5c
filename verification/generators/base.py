"""The tiered generator interface; the core case types are re-exported from
:mod:`verification.cases`, where they live (the API reference's import paths keep working).
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from verification.cases import (
    TIERS,
    TestCase,
    TestSuite,
    Tier,
    case_id,
    case_rng,
    generate_case,
    to_json_data,
)

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
