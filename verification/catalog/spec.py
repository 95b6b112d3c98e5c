"""``ScaffoldSpec``: the one place that declares a scaffold.

Each scaffold's module under :mod:`verification.catalog` builds one spec; every table the API
reference shows (``SCAFFOLD_REGISTRY``, ``VALIDATOR_REGISTRY``, the generators) is derived
from the specs in :mod:`verification.registry`. A plugin builds specs the same way.
"""

from __future__ import annotations

import functools
import inspect
import math
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from verification.cases import SCAFFOLD_NAME_FORMAT, TIERS, TestCase, Tier, is_scaffold_name
from verification.catalog.generic_mutants import GenericMutants
from verification.catalog.sizes import STRESS_FACTOR, STRESS_TIERS, SWEEP_TIERS, SizeAxis
from verification.errors import SpecError
from verification.store.json_text import JsonText
from verification.validators.base import Tolerance, Validator

__all__ = [
    "MIN_OUTPUT_TOKENS",
    "MODEL_OUTPUT_CEILING",
    "STRESS_FACTOR",
    "STRESS_TIERS",
    "SWEEP_TIERS",
    "AnswerSchema",
    "CalibrationHook",
    "InputGenerator",
    "OutputBudget",
    "ScaffoldSpec",
    "SizeAxis",
    "format_input_as_json",
    "no_alternatives",
    "render_answer_as_json",
]

MIN_OUTPUT_TOKENS = 1024
"""The smallest output budget a spec may set: less cannot hold a worked answer."""

MODEL_OUTPUT_CEILING = 32_000
"""The most output tokens a size may budget for one answer: what the default models write in
one reply, well inside the request timeout. A size whose budget passes it is not offered."""

InputGenerator = Callable[[random.Random, Tier, int], dict[str, Any]]
"""``generate(rng, tier, size) -> input``: a pure function of its arguments."""

CalibrationHook = Callable[[TestCase, random.Random], Sequence[dict[str, Any]]]
"""``hook(case, rng) -> answers``: wrong answers (``mutants``) or other right answers
(``alternatives``) for one case, made from its input and expected answer."""


def no_alternatives(case: TestCase, rng: random.Random) -> Sequence[dict[str, Any]]:
    """The ``alternatives`` of a problem with exactly one right answer: none."""
    return ()


@dataclass(frozen=True, kw_only=True)
class OutputBudget:
    """How an answer's output budget grows with its size: ``base + per_unit * size **
    exponent`` tokens, rounded up; fitted to the work the scaffold itself asks for at that
    size (its trace rendered in the scaffold's format, or cold replies) with a margin.

    Examples
    --------
    >>> OutputBudget(per_unit=3.5, exponent=2, base=800).tokens(40)
    6400
    """

    per_unit: float
    exponent: float = 1.0
    base: int = 0

    def __post_init__(self) -> None:
        for what, value in (("per_unit", self.per_unit), ("exponent", self.exponent)):
            if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
                raise SpecError(f"output budget: {what} must be a positive number, got {value!r}")
        if not isinstance(self.base, int) or isinstance(self.base, bool) or self.base < 0:
            raise SpecError(f"output budget: base must be a whole number >= 0, got {self.base!r}")

    def tokens(self, size: int) -> int:
        """The budget of one answer at ``size``."""
        grown: float = self.base + self.per_unit * float(size) ** self.exponent
        return math.ceil(grown)


class AnswerSchema(BaseModel):
    """Base of every answer schema: strict types (``"3"`` is not an int), no extra keys."""

    # Built on first validation, not at import: `list` and `--help` load all 33 and use none.
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, defer_build=True)


_STRICT_JSON = JsonText(allow_nan=False)
"""``json.dumps(value, allow_nan=False)``'s text (a few times per prompt, an item of a list
of lists each)."""


def format_input_as_json(test_input: Mapping[str, Any]) -> str:
    """The input as a JSON block: a key per line, and a list of lists (edges) an item per
    line, so prompts stay short and readable."""
    lines = []
    for key, value in test_input.items():
        if isinstance(value, list) and value and all(map(isinstance, value, repeat(list))):
            items = ",\n    ".join(map(_STRICT_JSON, value))
            text = f"[\n    {items}\n  ]"
        else:
            text = _STRICT_JSON(value)
        lines.append(f"  {_KEY_JSON(key)}: {text}")
    return "```json\n{\n" + ",\n".join(lines) + "\n}\n```"


_KEY_JSON = JsonText()
"""``json.dumps(key)``'s text."""


def render_answer_as_json(answer: Mapping[str, Any]) -> str:
    """An answer written the way every Output Format asks: one final fenced JSON block."""
    return "```json\n" + _STRICT_JSON(answer) + "\n```"


_UNBOUND_GENERIC_MUTANTS = GenericMutants()
"""The default ``mutants``: bound to the spec's answer schema when the spec is made."""


def _reference_signature(reference: Callable[..., Any]) -> inspect.Signature | None:
    """``inspect.signature(reference)``, read once per function (each journal read checks
    its inputs against it, and reading it walks the function's code and annotations);
    ``None`` when it cannot be read."""
    try:
        return _kept_signature(reference)
    except TypeError:  # an unhashable callable: read each time
        return _read_signature(reference)


def _read_signature(reference: Callable[..., Any]) -> inspect.Signature | None:
    try:
        return inspect.signature(reference)
    except (TypeError, ValueError):
        return None


_kept_signature = functools.lru_cache(maxsize=512)(_read_signature)


@dataclass(frozen=True, kw_only=True)
class ScaffoldSpec:
    """Everything the harness knows about one scaffold."""

    name: str
    """Governs the scaffold file, CLI, case ids and tests (``kmp``)."""
    category: str
    """One of the catalog's categories (``graph``, ``string``, ...)."""
    title: str = ""
    """What the algorithm is called in prose (``Knuth-Morris-Pratt search``). A plugin's
    spec may leave it empty: the loader takes its Markdown's first heading."""
    reference: Callable[..., dict[str, Any]]
    """Ground truth: ``reference(**case.input)``; keeps its API name (``kmp_search``)."""
    generator: InputGenerator
    """Draws one input for a tier from a seeded ``random.Random`` and a size."""
    answer_schema: type[BaseModel]
    """The contract (level 2): validated strictly in JSON mode (arrays may fill tuples, but
    ``"3"`` is no int); extra keys are refused."""
    validator: Validator
    """The behaviour check (level 3)."""
    format_input: Callable[[Mapping[str, Any]], str] = format_input_as_json
    """Writes the input into the user prompt."""
    render_answer: Callable[[Mapping[str, Any]], str] = render_answer_as_json
    """Writes a right answer as the Output Format asks (the dry-run provider's reply)."""
    sizes: Mapping[Tier, int] = field(default_factory=dict)
    """The default size handed to the generator per tier (vertices, items, ...); when none
    are given, :meth:`SizeAxis.default_sizes`."""
    size: SizeAxis
    """What the size measures and the range each tier honours."""
    mutants: CalibrationHook = _UNBOUND_GENERIC_MUTANTS
    """Wrong answers made from a case's right one; each fits the answer schema and differs
    from ``expected``. The validator must reject every one. When none is given, generic
    mutants made from the answer's shape (see :mod:`verification.catalog.generic_mutants`), which
    the validator may accept: ``check`` lists those for review."""
    alternatives: CalibrationHook = no_alternatives
    """Other right answers for a case (none where the answer is unique). The validator must
    accept every one."""
    max_output_tokens: int = 4096
    """The output budget of one answer within the tiers' ranges; hitting it is a
    ``truncated`` outcome. Past them, :meth:`max_output_tokens_at`."""
    output_budget: OutputBudget | None = None
    """How the budget grows with the size (the stress range needs it); the larger of it and
    :attr:`max_output_tokens` is used at each size."""
    description: str = ""
    """One line for ``list``."""
    markdown: Path | None = None
    """The scaffold's Markdown file, for a scaffold shipped by a plugin; ``None`` means
    ``<scaffolds_dir>/<category>/<name>.md``; a plugin's loader makes it
    ``<name>.md`` beside :attr:`defined_in`."""
    defined_in: Path | None = None
    """The file of the module that made this spec, noted when it is made."""
    code_rules: Mapping[str, str] = field(default_factory=dict)
    """Code mode (``--answer code``): by answer field, the exact rule its value follows
    where only one way of running the algorithm determines it (the probes of one search,
    an acceptance order); stated in the Code Format."""
    code_dropped_fields: Mapping[str, str] = field(default_factory=dict)
    """Code mode: by answer field, why it is not asked of a program (a field that only
    means something done by hand); a program's value for it is ignored and the
    reference's judged in its place."""
    graded_conventions: Mapping[str, str] = field(default_factory=dict)
    """The conventions the right answer depends on and the validator grades (an iteration
    count, a tie rule, how a given random draw is used), by name: each a phrase the task
    part of the Markdown (``## When to Use``, ``## Conventions``, ``## Output Format``)
    states, so that ``--baseline none`` asks the same question; ``check`` fails a
    scaffold whose bare prompt lacks one (case, spacing, code and emphasis marks aside)."""
    code_sizes: Sequence[int] = ()
    """Code mode: the standard tier's size ladder a program is run on besides the level's
    cases, far past the trace sizes (1,000 vertices or items where the algorithm is
    polynomial), kept to a few seconds of reference time in all; none: the top of the
    standard range."""
    code_size_limit: str = ""
    """Code mode: why :attr:`code_sizes` stop short of 1,000 (the algorithm is exponential,
    the reference's time or the generator's draws grow past a few seconds, the generator
    draws no larger instance); ``list --markdown`` shows it. A test holds every built-in
    scaffold whose ladder ends below 1,000 to saying why."""

    def __post_init__(self) -> None:
        if self.defined_in is None:
            # Frames: this method, the dataclass's __init__, then the code calling it.
            where = sys._getframe(2).f_globals.get("__file__")
            if isinstance(where, str):
                object.__setattr__(self, "defined_in", Path(where))
        if not self.sizes:
            object.__setattr__(self, "sizes", self.size.default_sizes())
        if isinstance(self.mutants, GenericMutants) and self.mutants.schema is not (
            self.answer_schema
        ):
            # Bound again on every copy, so a copy with a guarded schema uses that one.
            object.__setattr__(self, "mutants", GenericMutants(self.answer_schema))
        self.check_rules()

    def check_rules(self) -> None:
        """Raise :class:`~verification.errors.SpecError` (a ``ValueError``) naming the first rule
        this spec breaks. Checked when a spec is
        made, and again when a plugin's spec is registered."""
        if not is_scaffold_name(self.name):
            raise SpecError(
                f"scaffold name {self.name!r} must be an ASCII lower-case identifier "
                f"({SCAFFOLD_NAME_FORMAT}): it names files, case ids and reports"
            )
        if not is_scaffold_name(self.category):
            raise SpecError(
                f"category {self.category!r} of {self.name!r} is not an ASCII lower-case name"
            )
        for what, text in (
            ("title", self.title),
            ("description", self.description),
            ("size unit", self.size.unit),
        ):
            if not isinstance(text, str) or not text.isprintable() or len(text) > 200:
                raise SpecError(
                    f"spec {self.name!r}: its {what} must be one line of printable text "
                    "(at most 200 characters): `list` and prompts show it"
                )
        if self.markdown is not None and not isinstance(self.markdown, Path):
            raise SpecError(
                f"spec {self.name!r}: markdown must be a pathlib.Path, not "
                f"{type(self.markdown).__name__}"
            )
        budget = self.max_output_tokens
        if not isinstance(budget, int) or isinstance(budget, bool) or budget < MIN_OUTPUT_TOKENS:
            raise SpecError(
                f"spec {self.name!r}: max_output_tokens must be a whole number of at least "
                f"{MIN_OUTPUT_TOKENS}, got {budget!r:.40}"
            )
        self._check_code_mode()
        self._check_stress_budget()
        missing = set(TIERS) - set(self.sizes)
        if missing:
            raise SpecError(f"spec {self.name!r} has no size for tiers {sorted(missing)}")
        for tier, default in self.sizes.items():
            if tier not in self.size.ranges:
                raise SpecError(f"spec {self.name!r} gives a size to {tier!r}, no tier")
            low, high = self.size.ranges[tier]
            # Not a stress size: every case of the tier would be a stress case.
            if not low <= default <= high:
                raise SpecError(
                    f"spec {self.name!r}: default size {default} is outside the {tier} range "
                    f"{low}..{high} ({self.size.unit})"
                )

    def _check_code_mode(self) -> None:
        fields = set(getattr(self.answer_schema, "model_fields", {}))
        for what, declared in (
            ("code_rules", self.code_rules),
            ("code_dropped_fields", self.code_dropped_fields),
        ):
            for key, text in declared.items():
                if key not in fields:
                    raise SpecError(
                        f"spec {self.name!r}: {what} names {key!r}, not a field of its answer "
                        f"schema ({', '.join(sorted(fields))})"
                    )
                if not isinstance(text, str) or not text.strip():
                    raise SpecError(f"spec {self.name!r}: {what}[{key!r}] must say something")
        both = set(self.code_rules) & set(self.code_dropped_fields)
        if both:
            raise SpecError(
                f"spec {self.name!r}: {sorted(both)} both ruled and dropped in code mode"
            )
        if fields and not fields - set(self.code_dropped_fields):
            raise SpecError(f"spec {self.name!r}: code mode cannot drop every answer field")
        if not isinstance(self.code_size_limit, str) or not self.code_size_limit.isprintable():
            raise SpecError(f"spec {self.name!r}: code_size_limit must be one line of text")
        if isinstance(self.code_sizes, str | bytes) or not isinstance(self.code_sizes, Sequence):
            # A string's characters read as sizes ('1000' was refused as code size '1').
            raise SpecError(
                f"spec {self.name!r}: code_sizes must be a sequence of ints, got "
                f"{type(self.code_sizes).__name__}"
            )
        for size in self.code_sizes:
            if not isinstance(size, int) or isinstance(size, bool) or size < 1:
                raise SpecError(f"spec {self.name!r}: code size {size!r} is not a positive int")

    def _check_stress_budget(self) -> None:
        if self.output_budget is not None and not isinstance(self.output_budget, OutputBudget):
            raise SpecError(f"spec {self.name!r}: output_budget must be an OutputBudget")
        if self.size.stress is None:
            return
        top = self.size.stress[1]
        budget = self.max_output_tokens_at(top)
        if budget > MODEL_OUTPUT_CEILING:
            raise SpecError(
                f"spec {self.name!r}: its largest stress size {top} budgets {budget} output "
                f"tokens, past the {MODEL_OUTPUT_CEILING} a model writes in one reply: lower "
                "the stress range, or let the scaffold write compact work there"
            )

    def max_output_tokens_at(self, size: int | None) -> int:
        """The output budget of one answer at ``size`` (``None``: the flat budget)."""
        if size is None or self.output_budget is None:
            return self.max_output_tokens
        return max(self.max_output_tokens, self.output_budget.tokens(size))

    @property
    def code_ladder(self) -> tuple[int, ...]:
        """The standard-tier sizes code mode runs a program at besides the level's cases."""
        return tuple(self.code_sizes) or (self.size.ranges["standard"][1],)

    @property
    def generic_mutants(self) -> bool:
        """Whether :attr:`mutants` is the generic default, not the author's own hook."""
        return isinstance(self.mutants, GenericMutants)

    @property
    def scaffold_file(self) -> str:
        """Where the scaffold lives, relative to the scaffolds directory."""
        return f"{self.category}/{self.name}.md"

    @property
    def reference_name(self) -> str:
        """The reference function's API name (``kmp_search`` for ``kmp``)."""
        return getattr(self.reference, "__name__", self.name)

    def input_problem(self, test_input: Mapping[str, Any]) -> str | None:
        """Why ``test_input`` is no input of this scaffold (its reference does not take
        those arguments: a field lost or added), or ``None`` when it is one, or when the
        reference's signature cannot be read."""
        signature = _reference_signature(self.reference)
        if signature is None:
            return None
        try:
            signature.bind(**test_input)
        except TypeError as exc:
            return str(exc)
        return None

    def answer_misfit(self, answer: Any) -> str | None:
        """Where ``answer`` does not fit the answer schema as a reply is judged (JSON mode,
        strict: 3.0 is no int, "3" is no int, a tuple field is a JSON array), its first
        three misfits in words; ``None`` when it fits."""
        if not isinstance(answer, dict):
            return f"{type(answer).__name__}, not an object"
        try:
            self.answer_schema.model_validate_json(_STRICT_JSON(answer), strict=True)
        except ValidationError as exc:
            return "; ".join(
                f"{'.'.join(str(p) for p in error['loc']) or 'answer'}: {error['msg']}"
                for error in exc.errors()[:3]
            )
        except (TypeError, ValueError) as exc:  # no JSON data: NaN, a set, a key no str
            return f"no JSON data ({exc})"
        return None

    @property
    def tolerances(self) -> Mapping[str, Tolerance]:
        """The numeric tolerances the validator applies."""
        return self.validator.tolerances
