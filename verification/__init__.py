"""Certification harness for algorithm scaffolds: its public surface.

A plugin (a package of scaffolds) or an integrator's script imports from here, and only from
here: these names keep their meaning across releases. Every other module is internal, whatever
its ``__all__`` says (that list says what a module offers the rest of the harness), and may
move.

Declaring a scaffold
    ``ScaffoldSpec``              a scaffold: reference, generator, answer schema, validator, sizes
    ``SizeAxis``                  what a size counts, how to read it from an input, its ranges
    ``AnswerSchema``              the base of an answer's pydantic model (strict, no extra keys)
    ``Tier``, ``TIERS``           the case tiers: ``simple``, ``standard``, ``edge``
    ``OutputBudget``              an answer's output budget growing with its size (the stress range)
    ``STRESS_FACTOR``,
    ``MODEL_OUTPUT_CEILING``      how far a stress range reaches, and the budget it may not pass
    ``LazyHook``, ``each_distinct``, ``drawing_nothing``, ``drawing_first``
                                  calibration hooks written as generators of their answers

Cases
    ``TestCase``                  one input with its ground truth
    ``generate_case``             draw case ``index`` of a tier from a spec, as a run draws it
    ``to_json_data``              a value as plain JSON data (tuples become lists)
    ``get_spec``                  a scaffold's spec by name (the catalog's and installed plugins')

Judging answers
    ``Validator``                 the contract: ``validate(actual, expected, *, case)``
    ``ValidationResult``          a verdict: passed, message, details (a wrong answer never raises)
    ``judge_answer``              a validator's verdict as a run takes it (one that raises fails)
    ``FieldValidator``            the base of a validator of the whole answer or one field
    ``CompositeValidator``        passes when all of its validators pass
    ``FormRule``, ``with_form_rules``
                                  a rule of the Output Format about an answer's form, graded
    ``Tolerance``                 how far a number may be from the truth
    ``ExactMatchValidator``, ``DictMatchValidator``, ``PathMatchValidator``,
    ``NumericToleranceValidator``, ``SetEquivalenceValidator``, ``MSTValidator``,
    ``KnapsackValidator``         the shared validators

Errors
    ``VerificationError`` and the rest of the one exception tree (drawn in
    :mod:`verification.errors`), each exported here.

The version
    ``__version__``, ``DISTRIBUTION`` the installed version and the distribution it comes from

Importing this package loads only the error tree: each other name loads its module on first
use, so ``import verification`` costs a plugin's host nothing it does not use.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from verification import errors
from verification.errors import *  # noqa: F403  (the tree: every class, by errors.__all__)

if TYPE_CHECKING:
    from verification.cases import TIERS, TestCase, Tier, generate_case, to_json_data
    from verification.catalog.calibration import (
        LazyHook,
        drawing_first,
        drawing_nothing,
        each_distinct,
    )
    from verification.catalog.sizes import STRESS_FACTOR
    from verification.catalog.spec import (
        MODEL_OUTPUT_CEILING,
        AnswerSchema,
        OutputBudget,
        ScaffoldSpec,
        SizeAxis,
    )
    from verification.registry import get_spec
    from verification.store.code_version import DISTRIBUTION
    from verification.validators.base import (
        CompositeValidator,
        FieldValidator,
        Tolerance,
        ValidationResult,
        Validator,
    )
    from verification.validators.exact_match import (
        DictMatchValidator,
        ExactMatchValidator,
        PathMatchValidator,
    )
    from verification.validators.form import FormRule, with_form_rules
    from verification.validators.judging import judge_answer
    from verification.validators.knapsack import KnapsackValidator
    from verification.validators.numeric_tolerance import NumericToleranceValidator
    from verification.validators.set_equivalence import MSTValidator, SetEquivalenceValidator

    __version__: str

__all__ = [
    "DISTRIBUTION",
    "MODEL_OUTPUT_CEILING",
    "STRESS_FACTOR",
    "TIERS",
    "AnswerSchema",
    "CompositeValidator",
    "DictMatchValidator",
    "ExactMatchValidator",
    "FieldValidator",
    "FormRule",
    "KnapsackValidator",
    "LazyHook",
    "MSTValidator",
    "NumericToleranceValidator",
    "OutputBudget",
    "PathMatchValidator",
    "ScaffoldSpec",
    "SetEquivalenceValidator",
    "SizeAxis",
    "TestCase",
    "Tier",
    "Tolerance",
    "ValidationResult",
    "Validator",
    "__version__",
    "drawing_first",
    "drawing_nothing",
    "each_distinct",
    "generate_case",
    "get_spec",
    "judge_answer",
    "to_json_data",
    "with_form_rules",
]
__all__ += errors.__all__

_LAZY = {
    "DISTRIBUTION": "verification.store.code_version",
    "MODEL_OUTPUT_CEILING": "verification.catalog.spec",
    "STRESS_FACTOR": "verification.catalog.sizes",
    "FormRule": "verification.validators.form",
    "LazyHook": "verification.catalog.calibration",
    "OutputBudget": "verification.catalog.spec",
    "drawing_first": "verification.catalog.calibration",
    "drawing_nothing": "verification.catalog.calibration",
    "each_distinct": "verification.catalog.calibration",
    "with_form_rules": "verification.validators.form",
    "TIERS": "verification.cases",
    "AnswerSchema": "verification.catalog.spec",
    "CompositeValidator": "verification.validators.base",
    "DictMatchValidator": "verification.validators.exact_match",
    "ExactMatchValidator": "verification.validators.exact_match",
    "FieldValidator": "verification.validators.base",
    "KnapsackValidator": "verification.validators.knapsack",
    "MSTValidator": "verification.validators.set_equivalence",
    "NumericToleranceValidator": "verification.validators.numeric_tolerance",
    "PathMatchValidator": "verification.validators.exact_match",
    "ScaffoldSpec": "verification.catalog.spec",
    "SetEquivalenceValidator": "verification.validators.set_equivalence",
    "SizeAxis": "verification.catalog.spec",
    "TestCase": "verification.cases",
    "Tier": "verification.cases",
    "Tolerance": "verification.validators.base",
    "ValidationResult": "verification.validators.base",
    "Validator": "verification.validators.base",
    "generate_case": "verification.cases",
    "get_spec": "verification.registry",
    "judge_answer": "verification.validators.judging",
    "to_json_data": "verification.cases",
}
"""Where each name the root loads on first use lives (PEP 562): the spec and the validators
bring pydantic, the registry the catalog, none of which a host that only needs the error
tree should pay for at import."""


def __getattr__(name: str) -> Any:
    if name == "__version__":
        value: Any = import_module("verification.store.code_version").installed_version()
    elif name in _LAZY:
        value = getattr(import_module(_LAZY[name]), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # asked once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
