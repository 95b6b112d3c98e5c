"""The API reference's old names, kept in one place for the callers that still use them.

The API reference documents entry points older than the catalog and the run journal: the
registry's tables and factories (``SCAFFOLD_REGISTRY``, ``VALIDATOR_REGISTRY``,
``get_all_generators``, ``get_validator_for_scaffold``, ``get_scaffolds_by_category``),
``UniversalGenerator``, the runner's ``run_single_test`` and ``run_test_suite``,
``run_verification``, and ``ResponseParser.parse``. The harness calls none of them; they
keep working from their documented paths, which take them from here:
:mod:`verification.registry` re-exports the tables, ``UniversalGenerator`` and the
factories, :class:`~verification.runner.VerificationRunner` inherits
:class:`LegacyRunnerAPI` (and ``verification.runner.run_verification`` is its classmethod),
:class:`~verification.llm.response_parser.ResponseParser` inherits
:class:`LegacyParserAPI`. New code uses the catalog (:func:`default_catalog`),
``VerificationRunner.run`` and ``ResponseParser.extract``.

Why here: ``registry``, ``llm`` and ``runner`` all take names from this module, so it sits
below the lowest of them, in ``catalog``. What the old entry points need from the layers
above (answering a case, folding attempts into results, extracting an answer) the classes
that inherit the mixins supply, as the abstract methods each mixin names.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Generic, Protocol, Self, TypeVar

from verification.cases import DEFAULT_SEED, TestCase, TestSuite, Tier
from verification.catalog import Catalog, default_catalog
from verification.catalog.drawing import draw_case, plan_tier_counts
from verification.catalog.spec import ScaffoldSpec
from verification.errors import ParseError
from verification.generators.base import TestCaseGenerator
from verification.store.records import AttemptRecord
from verification.validators.base import Validator
from verification.validators.judging import check_validator

__all__ = [
    "LEGACY_TABLES",
    "SCAFFOLD_REGISTRY",
    "VALIDATOR_REGISTRY",
    "LegacyParserAPI",
    "LegacyRunnerAPI",
    "UniversalGenerator",
    "get_all_generators",
    "get_scaffolds_by_category",
    "get_validator_for_scaffold",
]

SCAFFOLD_REGISTRY: dict[str, list[str]]
"""Category -> scaffold names, in catalog order."""
VALIDATOR_REGISTRY: dict[str, str]
"""Scaffold -> the kind of validator that judges it."""
LEGACY_TABLES = ("SCAFFOLD_REGISTRY", "VALIDATOR_REGISTRY")
"""The tables this module computes when first read (a module that re-exports them lazily
asks for these names)."""


def __getattr__(name: str) -> Any:
    # PEP 562: the tables are views of the catalog, built when read, so importing this
    # module (or the registry) loads no scaffold.
    if name == "SCAFFOLD_REGISTRY":
        return default_catalog().categories()
    if name == "VALIDATOR_REGISTRY":
        return {spec_name: spec.validator.kind for spec_name, spec in default_catalog().items()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def get_validator_for_scaffold(name: str) -> Validator:
    """The validator instance that judges ``name``."""
    return default_catalog().get_spec(name).validator


def get_scaffolds_by_category(category: str) -> list[str]:
    """The scaffolds of ``category``; an unknown category lists the known ones."""
    return default_catalog().by_category(category)


class UniversalGenerator(TestCaseGenerator):
    """Generates any scaffold's tiers from its spec: generator for inputs, reference for
    ground truth."""

    def __init__(
        self,
        scaffold_name: str,
        *,
        seed: int = DEFAULT_SEED,
        cases: int = 30,
        catalog: Catalog | None = None,
    ) -> None:
        self.spec = (catalog or default_catalog()).get_spec(scaffold_name)
        self.scaffold = scaffold_name
        self.seed = seed
        self.counts = plan_tier_counts(cases)

    def generate_tier(self, tier: Tier, count: int | None = None) -> list[TestCase]:
        """Cases ``0 .. count-1`` of ``tier``."""
        n = self.counts[tier] if count is None else count
        return [draw_case(self.spec, tier, k, seed=self.seed) for k in range(n)]

    def generate_simple(self) -> list[TestCase]:
        return self.generate_tier("simple")

    def generate_standard(self) -> list[TestCase]:
        return self.generate_tier("standard")

    def generate_edge_cases(self) -> list[TestCase]:
        return self.generate_tier("edge")


def get_all_generators() -> dict[str, TestCaseGenerator]:
    """A default-seeded generator for every scaffold, by name."""
    return {name: UniversalGenerator(name) for name in default_catalog()}


CaseResultT = TypeVar("CaseResultT")
SuiteResultsT = TypeVar("SuiteResultsT")


class _Ran(Protocol[SuiteResultsT]):
    """What a whole run leaves that ``run_verification`` returns."""

    @property
    def results(self) -> dict[str, SuiteResultsT]: ...


class LegacyRunnerAPI(ABC, Generic[CaseResultT, SuiteResultsT]):
    """``run_single_test``, ``run_test_suite`` and ``run_verification``: cases answered
    without a run directory, and a whole run from the environment's settings.

    The runner supplies the parts: its catalog, a provider made ready, a case answered
    (with its repairs), cases answered concurrently, attempts folded into a case's result
    (``CaseResultT``) and a scaffold's results (``SuiteResultsT``), a runner built from the
    environment, and a whole run.
    """

    catalog: Catalog

    @abstractmethod
    async def _ensure_provider(self, cases: dict[str, list[TestCase]]) -> None:
        """Build the provider if there is none, and let it prepare for ``cases``."""

    @abstractmethod
    async def _answer_case(
        self, spec: ScaffoldSpec, case: TestCase, validator: Validator, *, epoch: int
    ) -> list[AttemptRecord]:
        """The attempts at one case: the first, then any repairs."""

    @abstractmethod
    async def _gather(
        self,
        jobs: list[tuple[ScaffoldSpec, TestCase, Validator, int]],
        *,
        done: set[tuple[str, int]],
    ) -> list[AttemptRecord]:
        """The attempts at every job, answered concurrently."""

    @abstractmethod
    def _case_result(self, attempts: Sequence[AttemptRecord]) -> CaseResultT:
        """One case's result from its chain of attempts."""

    @abstractmethod
    def _suite_results(
        self, scaffold: str, attempts: Sequence[AttemptRecord], *, planned: int
    ) -> SuiteResultsT:
        """A scaffold's results from the attempts at its ``planned`` cases."""

    @classmethod
    @abstractmethod
    def from_environment(cls, **overrides: Any) -> Self:
        """A runner with settings from the environment and ``overrides``."""

    @abstractmethod
    async def run(self, scaffold_names: Sequence[str]) -> _Ran[SuiteResultsT]:
        """A whole run of ``scaffold_names``."""

    async def run_single_test(
        self, test_case: TestCase, validator: Validator | None = None, *, epoch: int = 0
    ) -> CaseResultT:
        """Answer one case (with repair if configured) and judge it."""
        spec = self.catalog.get_spec(test_case.scaffold)
        await self._ensure_provider({test_case.scaffold: [test_case]})
        chosen = check_validator(validator or spec.validator)
        return self._case_result(await self._answer_case(spec, test_case, chosen, epoch=epoch))

    async def run_test_suite(
        self, scaffold_name: str, test_suite: TestSuite, validator: Validator | None = None
    ) -> SuiteResultsT:
        """Answer every case of a suite (no run directory) and certify the scaffold."""
        spec = self.catalog.get_spec(scaffold_name)
        await self._ensure_provider({scaffold_name: list(test_suite.test_cases)})
        chosen = check_validator(validator or spec.validator)
        attempts = await self._gather(
            [(spec, case, chosen, 0) for case in test_suite.test_cases], done=set()
        )
        return self._suite_results(scaffold_name, attempts, planned=len(test_suite.test_cases))

    @classmethod
    def run_verification(
        cls, scaffold_names: Sequence[str], mode: str = "dev", **overrides: Any
    ) -> dict[str, SuiteResultsT]:
        """Synchronous wrapper: run the named scaffolds with settings from the environment
        and ``overrides``, and return their results (reports are not written)."""
        runner = cls.from_environment(current_mode=mode, **overrides)
        return asyncio.run(runner.run(scaffold_names)).results


class _Extracted(Protocol):
    """What ``extract`` takes from a reply that ``parse`` needs."""

    @property
    def answer(self) -> dict[str, Any] | None: ...

    @property
    def failed_level(self) -> int | None: ...

    @property
    def reason(self) -> str: ...


class LegacyParserAPI(ABC):
    """``parse``: the answer of a reply, or an exception (the parser's ``extract`` returns
    the failure as a value instead, which is what the harness uses)."""

    @abstractmethod
    def extract(self, scaffold: ScaffoldSpec | str, text: str | None) -> _Extracted:
        """Levels 1 and 2 for ``text``; never raises on model text."""

    def parse(self, scaffold_name: ScaffoldSpec | str, response: str | None) -> dict[str, Any]:
        """The answer of ``response``, or :class:`ParseError` with the level it failed at."""
        parsed = self.extract(scaffold_name, response)
        if parsed.failed_level is not None or parsed.answer is None:
            raise ParseError(parsed.reason, level=parsed.failed_level or 1)
        return parsed.answer
