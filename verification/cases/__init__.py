"""The core types every layer shares: tiers, test cases, case ids and seeding, and text from
outside made safe to print (:func:`printable`).

This package imports nothing else of the package, so any layer may use it. Its modules:
:mod:`~verification.cases.ids` (tiers and ids), :mod:`~verification.cases.seeded` (a
case's random source), :mod:`~verification.cases.json_data`,
:mod:`~verification.cases.models` (the cases and their drawing) and
:mod:`~verification.cases.text` (:func:`printable`).

Case ``k`` of a tier at the tier's default size is drawn from
``random.Random(f"{seed}:{scaffold}:{tier}:{k}")`` and its id is ``{scaffold}-{tier}-{k:03d}``.
At another size ``s`` the seed string is ``{seed}:{scaffold}:{tier}:s{s}:{k}`` and the id
``{scaffold}-{tier}-s{s}-{k:03d}``, so journals, resume, replay, caches and batch ids never
confuse two sizes. The same seed gives the same cases on every machine, whatever ``--cases``
is.
"""

from verification.cases.ids import (
    CASE_ID_FORMAT,
    DEFAULT_SEED,
    PROGRAM_ID_FORMAT,
    SCAFFOLD_NAME_FORMAT,
    TIERS,
    CaseKey,
    Tier,
    case_id,
    is_scaffold_name,
    parse_case_id,
    parse_program_id,
    program_id,
)
from verification.cases.json_data import to_json_data
from verification.cases.models import (
    CaseSource,
    Planned,
    PlannedCase,
    ProgramTask,
    TestCase,
    TestSuite,
    drawn,
    generate_case,
)
from verification.cases.seeded import CaseRandom, case_rng
from verification.cases.text import printable

__all__ = [
    "CASE_ID_FORMAT",
    "DEFAULT_SEED",
    "PROGRAM_ID_FORMAT",
    "SCAFFOLD_NAME_FORMAT",
    "TIERS",
    "CaseKey",
    "CaseRandom",
    "CaseSource",
    "Planned",
    "PlannedCase",
    "ProgramTask",
    "TestCase",
    "TestSuite",
    "Tier",
    "case_id",
    "case_rng",
    "drawn",
    "generate_case",
    "is_scaffold_name",
    "parse_case_id",
    "parse_program_id",
    "printable",
    "program_id",
    "to_json_data",
]
