"""A test case, a program asked in code mode, a case planned before it is drawn, and the
drawing of a case (its generator, then its reference's ground truth)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, model_validator

from verification.cases.ids import CaseKey, Tier, case_id, parse_case_id
from verification.cases.json_data import to_json_data
from verification.cases.seeded import case_rng

__all__ = [
    "CaseSource",
    "Planned",
    "PlannedCase",
    "ProgramTask",
    "TestCase",
    "TestSuite",
    "drawn",
    "generate_case",
]


class TestCase(BaseModel):
    """One input for one scaffold with its ground truth."""

    __test__ = False  # not a pytest test class
    model_config = ConfigDict(frozen=True)

    id: str
    """``{scaffold}-{tier}-{index:03d}`` (or with ``-s{size}``); also a batch ``custom_id``."""
    scaffold: str
    tier: Tier
    index: int
    """``k``; taken from the id when not given."""
    input: dict[str, Any]
    """Plain JSON data; ``reference(**input)`` computes ``expected``."""
    expected: dict[str, Any]
    """The reference's answer: one right answer among possibly several."""
    size: int | None = None
    """The size the generator was asked for (``None`` when not recorded)."""

    @model_validator(mode="before")
    @classmethod
    def _index_from_id(cls, data: Any) -> Any:
        if isinstance(data, dict) and "index" not in data and isinstance(data.get("id"), str):
            key = parse_case_id(data["id"])
            if key is not None:
                index = key.index
            else:  # a hand-made id such as "dijkstra_simple_01": its trailing number
                last = data["id"].replace("_", "-").rsplit("-", 1)[-1]
                index = int(last) if last.isdigit() else 0
            data = {**data, "index": index}
        return data


class ProgramTask(TestCase):
    """One program asked in code mode: its id is a program id, its ``suite`` the cases the
    program is run on (kept out of any serialization: the journal records each case's
    result, not the suite). Its ``tier`` is a placeholder: a program belongs to no tier."""

    suite: tuple[TestCase, ...] = Field(default=(), exclude=True, repr=False)
    reference_seconds: tuple[float, ...] = Field(default=(), exclude=True, repr=False)
    """The reference's seconds on each case of ``suite``, in order (its time limits')."""


class TestSuite(BaseModel):
    """The cases of one scaffold."""

    __test__ = False
    model_config = ConfigDict(frozen=True)

    scaffold: str
    test_cases: list[TestCase]


class PlannedCase:
    """A case a run plans by what identifies it (id, scaffold, tier, index, size), drawn
    the first time its input or answer is needed, when it is about to be asked: a run of
    thousands of cases sends its first request long before its last case is drawn, and
    draws each case once (:attr:`case` keeps it). Two are equal when they name the same
    case drawn from the same seed."""

    __slots__ = ("_case", "_draw", "id", "index", "named_size", "scaffold", "seed", "size", "tier")

    def __init__(
        self,
        identifier: str,
        key: CaseKey,
        size: int,
        draw: Callable[[], TestCase],
        *,
        seed: int,
    ) -> None:
        self.id = identifier
        self.seed = seed
        self.scaffold = key.scaffold
        self.tier: Tier = key.tier
        self.index = key.index
        self.size: int | None = size
        """The size the generator is asked for (the tier's default when the id names none)."""
        self.named_size = key.size
        """The size the id names (``None``: the tier's default), without parsing the id."""
        self._draw = draw
        self._case: TestCase | None = None

    @property
    def is_drawn(self) -> bool:
        """Whether the case has been drawn yet."""
        return self._case is not None

    @property
    def case(self) -> TestCase:
        """The case, drawn on first use (whatever drawing it raises is raised here)."""
        if self._case is None:
            self._case = self._draw()
        return self._case

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlannedCase):
            return NotImplemented
        return (self.id, self.seed) == (other.id, other.seed)

    def __hash__(self) -> int:
        return hash((self.id, self.seed))

    def __repr__(self) -> str:
        return f"PlannedCase({self.id!r}, seed={self.seed}, drawn={self.is_drawn})"


Planned: TypeAlias = TestCase | PlannedCase
"""A planned case: drawn already, or drawn when it is asked."""


def drawn(case: Planned) -> TestCase:
    """``case`` drawn (a :class:`PlannedCase` is drawn now, once)."""
    return case.case if isinstance(case, PlannedCase) else case


class CaseSource(Protocol):
    """What :func:`generate_case` needs of a scaffold's spec."""

    @property
    def name(self) -> str: ...
    @property
    def sizes(self) -> Mapping[Tier, int]: ...
    @property
    def generator(self) -> Callable[[random.Random, Tier, int], dict[str, Any]]: ...
    @property
    def reference(self) -> Callable[..., dict[str, Any]]: ...


def generate_case(
    spec: CaseSource, tier: Tier, index: int, *, seed: int, size: int | None = None
) -> TestCase:
    """Draw case ``index`` of ``tier`` (at ``size``, default: the tier's) and compute its
    ground truth with the reference."""
    default = spec.sizes[tier]
    named_size = None if size is None or size == default else size
    actual_size = default if named_size is None else named_size
    rng = case_rng(seed, spec.name, tier, index, named_size)
    drawn = spec.generator(rng, tier, actual_size)
    test_input = to_json_data(drawn)
    # The reference is handed a copy of its own: one that sorts or edits what it is handed
    # would otherwise change the case's input, and the model be shown it (a hunt's
    # newcomer's reference sorted its array in place: the prompts showed sorted arrays).
    expected = to_json_data(spec.reference(**to_json_data(drawn)))
    return TestCase(
        id=case_id(spec.name, tier, index, named_size),
        scaffold=spec.name,
        tier=tier,
        index=index,
        input=test_input,
        expected=expected,
        size=actual_size,
    )
