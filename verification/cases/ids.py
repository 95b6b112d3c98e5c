"""What names a case: tiers, scaffold names, case ids and program ids, and the default seed."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, cast

__all__ = [
    "CASE_ID_FORMAT",
    "DEFAULT_SEED",
    "PROGRAM_ID_FORMAT",
    "SCAFFOLD_NAME_FORMAT",
    "TIERS",
    "CaseKey",
    "Tier",
    "case_id",
    "is_scaffold_name",
    "parse_case_id",
    "parse_program_id",
    "program_id",
]


Tier = Literal["simple", "standard", "edge"]
TIERS: tuple[Tier, ...] = ("simple", "standard", "edge")

DEFAULT_SEED = 20261122
"""The suite seed when none is given."""

SCAFFOLD_NAME_FORMAT = "[a-z][a-z0-9_]*"
"""What a scaffold name is: ASCII lower-case letters, digits and ``_``, a letter first. It
names files, case ids and report paths, so nothing else is allowed."""
_SCAFFOLD_NAME = re.compile(SCAFFOLD_NAME_FORMAT)
_CASE_ID = re.compile(
    rf"^(?P<scaffold>{SCAFFOLD_NAME_FORMAT})-(?P<tier>simple|standard|edge)"
    r"(?:-s(?P<size>\d{1,6}))?-(?P<index>\d{1,9})$"
)
CASE_ID_FORMAT = "<scaffold>-<tier>-<NNN> or <scaffold>-<tier>-s<size>-<NNN>"
_PROGRAM_ID = re.compile(rf"^(?P<scaffold>{SCAFFOLD_NAME_FORMAT})-program-(?P<index>\d{{1,9}})$")
PROGRAM_ID_FORMAT = "<scaffold>-program-<NNN>"
"""The request id of a code-mode program (``dijkstra-program-000``): one request, run on the
whole case suite, not a case of a tier."""


@dataclass(frozen=True)
class CaseKey:
    """What a case id names: a scaffold, a tier, a size (``None``: the tier's default) and
    an index."""

    scaffold: str
    tier: Tier
    index: int
    size: int | None = None


def is_scaffold_name(text: object) -> bool:
    """Whether ``text`` is a scaffold name (see :data:`SCAFFOLD_NAME_FORMAT`; at most 100
    characters)."""
    return isinstance(text, str) and len(text) <= 100 and bool(_SCAFFOLD_NAME.fullmatch(text))


def case_id(scaffold: str, tier: str, index: int, size: int | None = None) -> str:
    """The stable id of case ``index`` of ``tier`` (at ``size``, when not the default)."""
    if size is None:
        return f"{scaffold}-{tier}-{index:03d}"
    return f"{scaffold}-{tier}-s{size}-{index:03d}"


def parse_case_id(text: str) -> CaseKey | None:
    """The parts of a case id, or ``None`` when ``text`` is not one (see
    :data:`CASE_ID_FORMAT`)."""
    match = _CASE_ID.match(text)
    if match is None:
        return None
    size = match["size"]
    return CaseKey(
        scaffold=match["scaffold"],
        tier=cast(Tier, match["tier"]),
        index=int(match["index"]),
        size=None if size is None else int(size),
    )


def program_id(scaffold: str, index: int) -> str:
    """The request id of program ``index`` of ``scaffold`` in code mode."""
    return f"{scaffold}-program-{index:03d}"


def parse_program_id(text: str) -> tuple[str, int] | None:
    """The scaffold and index a program id names, or ``None`` when ``text`` is not one
    (see :data:`PROGRAM_ID_FORMAT`)."""
    match = _PROGRAM_ID.match(text)
    return None if match is None else (match["scaffold"], int(match["index"]))
