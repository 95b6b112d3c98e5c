"""Form rules: what an Output Format asks of an answer's writing, apart from its substance.

A :class:`FormRule` names a rule in the Output Format's own words ("in ascending order",
"write the smaller label first") and says how an answer is written when it follows the rule
(``follow``). :class:`FormRules` wraps a scaffold's validator: an answer the validator
rejects, but accepts once written as the rules ask, is right in substance and wrong in form.
Its verdict then names the rule (:attr:`ValidationResult.form_rule`), and the run grades it
at level 2, the contract, never at level 3 as "a reasoning bug". An answer wrong in
substance stays a level 3 failure, whatever its form.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from verification.cases import TestCase
from verification.validators.base import Tolerance, ValidationResult, Validator, passes

__all__ = ["FormRule", "FormRules", "ascending", "form_rules_of", "with_form_rules"]


@dataclass(frozen=True)
class FormRule:
    """One rule of an Output Format about how an answer is written."""

    rule: str
    """The Output Format's words for it, quoted as they stand there (a test holds each
    registered scaffold's Output Format to containing them)."""
    follow: Callable[[Any], Any]
    """The answer written as the rule asks: the same answer where it already does; never
    raises on an answer that fits the scaffold's schema."""
    breach: Callable[[Any, random.Random], Any] | None = None
    """A right answer written against the rule, or ``None`` where none can be (for the
    generic tests: it must be graded a form breach naming :attr:`rule`)."""


class FormRules(Validator):
    """``validator``, with the verdict on an answer that breaks only ``rules`` marked as a
    form breach naming the first rule broken (made by :func:`with_form_rules`, which keeps
    the validator's ``kind``)."""

    kind = "form"

    def __init__(self, validator: Validator, rules: Sequence[FormRule]) -> None:
        if not rules:
            raise ValueError("FormRules needs at least one rule")
        self.validator = validator
        self.rules = tuple(rules)

    @property
    def tolerances(self) -> Mapping[str, Tolerance]:
        return self.validator.tolerances

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        verdict = self.validator.validate(actual, expected, case=case)
        if verdict.is_valid:
            return verdict
        written, broken = actual, []
        for rule in self.rules:
            try:
                following = rule.follow(written)
            except Exception:  # a hostile answer: the validator's verdict stands
                return verdict
            if following != written:
                broken.append(rule.rule)
                written = following
        if not broken:
            return verdict
        rewritten = self.validator.validate(written, expected, case=case)
        if not rewritten.is_valid:
            # Wrong in substance too: that error is the reason, named on the answer as the
            # Output Format would have it written (the form slip alone hid it: hunt oo).
            rules = ", ".join(f'"{rule}"' for rule in broken)
            return replace(
                rewritten,
                message=f"{rewritten.message} (the answer read as the Output Format asks: "
                f"{rules}, which it also breaks)",
            )
        return replace(
            verdict,
            message=f'the Output Format asks "{broken[0]}": {verdict.message}',
            form_rule=broken[0],
        )

    def accepts(self, actual: Any, expected: Any, *, case: TestCase | None = None) -> bool:
        if type(self).validate is not FormRules.validate:  # a subclass's own verdict
            return super().accepts(actual, expected, case=case)
        # A form breach is still a failure: the verdict passes just where the validator's does.
        return passes(self.validator, actual, expected, case=case)


def with_form_rules(validator: Validator, *rules: FormRule) -> FormRules:
    """``validator`` grading ``rules`` as form, shown under its own ``kind``."""
    named: type[FormRules] = type(
        f"{type(validator).__name__}FormRules", (FormRules,), {"kind": validator.kind}
    )
    return named(validator, rules)


def form_rules_of(validator: Validator) -> tuple[FormRule, ...]:
    """The form rules ``validator`` grades (those of :class:`FormRules` it is or holds)."""
    if isinstance(validator, FormRules):
        return validator.rules + form_rules_of(validator.validator)
    inner = getattr(validator, "validators", ())
    return tuple(rule for v in inner if isinstance(v, Validator) for rule in form_rules_of(v))


def ascending(rule: str, *fields: str) -> FormRule:
    """The rule that the lists in ``fields`` are written in ascending order."""

    def follow(answer: Any) -> Any:
        return {**answer, **{f: sorted(answer[f]) for f in fields if f in answer}}

    def breach(answer: Any, rng: random.Random) -> Any:
        for name in fields:
            items = answer.get(name)
            if isinstance(items, list) and len(set(items)) > 1:
                return {**answer, name: items[::-1]}
        return None

    return FormRule(rule, follow, breach)
