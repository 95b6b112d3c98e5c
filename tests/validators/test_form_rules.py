"""Form breaches are graded as the contract (level 2), naming the Output Format's rule, in
every scaffold that grades a form rule: found from the catalog, never listed by hand.

A right answer written against a rule (each rule's ``breach``) fails at level 2 with that
rule named, through the run's own judging; an answer wrong in substance stays a level 3
failure whatever its form; every rule quotes its scaffold's Output Format.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from tests.support.draws import shared_calibration_cases
from tests.support.scaffolds import sections
from verification.cases import TestCase
from verification.catalog import default_catalog
from verification.catalog.spec import ScaffoldSpec
from verification.config import packaged_scaffolds_dir
from verification.llm.base import LLMRequest, LLMResponse
from verification.llm.prompt_builder import PromptBuilder
from verification.run.answers import Judgement
from verification.run.trace_answers import TraceAnswers
from verification.validators.base import ValidationResult, Validator
from verification.validators.form import FormRule, form_rules_of, with_form_rules
from verification.validators.judging import failed_level

CATALOG = default_catalog()
NAMES = list(CATALOG)
FORMED = [name for name in NAMES if form_rules_of(CATALOG[name].validator)]
CASES = 15


def _words(text: str) -> str:
    return " ".join(text.replace("`", "").replace("**", "").lower().split())


def _judge(spec: ScaffoldSpec, case: TestCase, answer: Any) -> Judgement:
    kind = TraceAnswers(PromptBuilder(packaged_scaffolds_dir()), CATALOG)
    reply = "Work.\n\n" + spec.render_answer(answer)
    return kind.judge(
        spec,
        spec.validator,
        case,
        LLMRequest(prompt="the case", model="m"),
        LLMResponse(content=reply, model="m", stop_reason="end_turn"),
    )


def test_some_scaffolds_grade_form_rules() -> None:
    assert FORMED, "no scaffold grades a form rule: the tests below would check nothing"


@pytest.mark.parametrize("name", NAMES)
def test_every_form_rule_quotes_its_output_format(name: str) -> None:
    output_format = _words(sections(name)["output_format"])
    for rule in form_rules_of(CATALOG[name].validator):
        assert _words(rule.rule) in output_format, rule.rule


@pytest.mark.parametrize("name", FORMED)
def test_a_right_answer_in_a_broken_form_fails_at_level_2_naming_the_rule(name: str) -> None:
    spec, rng = CATALOG[name], random.Random(14)
    breached: dict[str, int] = {}
    for case in shared_calibration_cases(spec, CASES):
        for rule in form_rules_of(spec.validator):
            assert rule.follow(case.expected) == case.expected, (case.id, rule.rule)
            answer = rule.breach(case.expected, rng) if rule.breach else None
            if answer is None:
                continue
            judgement = _judge(spec, case, answer)
            assert (judgement.outcome, judgement.level) == ("failed", 2), (case.id, judgement)
            assert rule.rule in judgement.reason
            breached[rule.rule] = breached.get(rule.rule, 0) + 1
    assert set(breached) == {rule.rule for rule in form_rules_of(spec.validator)}


@pytest.mark.parametrize("name", FORMED)
def test_a_wrong_answer_in_a_broken_form_stays_a_level_3_failure(name: str) -> None:
    spec, rng = CATALOG[name], random.Random(15)
    checked = named = 0
    for case in shared_calibration_cases(spec, CASES):
        for mutant in spec.mutants(case, rng):
            verdict = spec.validator.validate(mutant, case.expected, case=case)
            if verdict.form_rule is not None:
                continue  # the mutant is the right answer in the wrong form
            for rule in form_rules_of(spec.validator):
                answer = rule.breach(mutant, rng) if rule.breach else None
                if answer is None:
                    continue
                judgement = _judge(spec, case, answer)
                assert (judgement.outcome, judgement.level) == ("failed", 3), (case.id, answer)
                # The reason names the substance error, not only the form slip (hunt oo:
                # an overweight knapsack was told only "not in ascending order").
                if rule.follow(answer) == mutant:
                    assert verdict.message in judgement.reason, (case.id, judgement.reason)
                    assert f'"{rule.rule}", which it also breaks' in judgement.reason
                    named += 1
                checked += 1
    assert checked > 0 and named > 0


def test_issue_24_a_right_kruskal_tree_with_one_edge_flipped_is_a_form_breach() -> None:
    spec = CATALOG["kruskal"]
    case = next(c for c in shared_calibration_cases(spec, CASES) if len(c.expected["edges"]) > 1)
    edges = [list(edge) for edge in case.expected["edges"]]
    edges[0] = [edges[0][1], edges[0][0], edges[0][2]]
    judgement = _judge(spec, case, {**case.expected, "edges": edges})
    assert (judgement.outcome, judgement.level) == ("failed", 2)
    assert '"write the smaller label first"' in judgement.reason


class _Strict(Validator):
    kind = "strict"

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        return ValidationResult(actual == expected, "equal" if actual == expected else "differ")


def test_the_level_follows_the_verdict() -> None:
    validator = with_form_rules(
        _Strict(), FormRule("in ascending order", lambda a: {"x": sorted(a["x"])})
    )
    assert validator.kind == "strict"
    expected = {"x": [1, 2]}
    right, unordered, wrong = {"x": [1, 2]}, {"x": [2, 1]}, {"x": [3, 1]}
    assert validator.validate(right, expected).is_valid
    form = validator.validate(unordered, expected)
    assert (form.is_valid, form.form_rule, failed_level(form)) == (False, "in ascending order", 2)
    substance = validator.validate(wrong, expected)
    assert (substance.is_valid, substance.form_rule, failed_level(substance)) == (False, None, 3)
    # An answer the rule cannot even read keeps the validator's verdict.
    hostile = validator.validate({"x": [1, "a"]}, expected)
    assert (hostile.is_valid, hostile.form_rule) == (False, None)
    assert re.search("differ", hostile.message)
