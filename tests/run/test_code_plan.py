"""Code mode's plan and records, with no program run: program ids, the suite every program
shares, what code mode refuses, the prompt, and a program's journal line."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.draws import drawing_each_case_once
from verification.cases import (
    DEFAULT_SEED,
    ProgramTask,
    TestCase,
    Tier,
    parse_case_id,
    parse_program_id,
    program_id,
)
from verification.catalog import default_catalog
from verification.cli import main
from verification.registry import get_spec
from verification.run.programs import extract_program, program_tasks, run_order, suite_cases
from verification.store.records import AttemptRecord, CaseRun, ProgramRun
from verification.validators.form import form_rules_of


@pytest.fixture(scope="module", autouse=True)
def _drawn_once() -> Iterator[None]:
    """Both plans of the certification-plan test draw the same dijkstra suite (its 40
    cases and ladder up to 1,000 vertices, 1.5 s of CPU), and the shared-suite test a part
    of it: each case is drawn once (tests/support/draws.py)."""
    with drawing_each_case_once():
        yield


def test_a_program_id_is_no_case_id_and_reads_back() -> None:
    identifier = program_id("dijkstra", 7)
    assert identifier == "dijkstra-program-007"
    assert parse_program_id(identifier) == ("dijkstra", 7)
    assert parse_case_id(identifier) is None
    assert parse_program_id("dijkstra-standard-007") is None


def test_programs_share_one_suite_of_every_tier_and_the_ladder() -> None:
    spec = get_spec("dijkstra")
    # At the default seed its cases are among those the certification-plan test's plans
    # draw (its ladder up to 1,000 vertices most of a second): drawn once for the module.
    tiers: tuple[Tier, ...] = ("simple", "standard", "edge")
    tasks = program_tasks(spec, seed=DEFAULT_SEED, cases=5, tiers=tiers, count=3)
    assert [t.id for t in tasks] == [program_id("dijkstra", k) for k in range(3)]
    assert all(isinstance(t, ProgramTask) for t in tasks)
    suites = [t.suite for t in tasks if isinstance(t, ProgramTask)]
    suite = suites[0]
    assert all(other == suite for other in suites)
    assert {case.tier for case in suite} == {"simple", "standard", "edge"}
    assert {case.size for case in suite} >= set(spec.code_ladder)
    order = [suite[i] for i in run_order(suite)]
    sizes = [case.size or 0 for case in order if case.tier == "standard"]
    assert sizes == sorted(sizes)


@pytest.mark.parametrize(
    ("reply", "found"),
    [
        ("```python\ndef solve(i):\n    return {}\n```", True),
        ("```json\n{}\n```", False),
        ("```python\ndef solve(:\n```", False),
        ("```python\ndef solve(i):\n    return {}\n", False),
        ("", False),
    ],
)
def test_a_program_is_the_last_python_block_that_compiles(reply: str, found: bool) -> None:
    source, reason = extract_program(reply)
    assert (source is not None) == found, reason


@pytest.mark.parametrize("option", [["--samples", "2"], ["--sizes", "4,8"], ["--size", "8"]])
def test_code_mode_refuses_what_a_program_makes_meaningless(
    option: list[str], capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    argv = ["verify", "dijkstra", "--provider", "reference", "--answer", "code", *option]
    assert main([*argv, "--output", str(tmp_path)]) == 2
    assert "refused with --answer code" in capsys.readouterr().err


def test_show_prompt_shows_the_scaffold_and_the_code_format(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["show-prompt", "kruskal", "--answer", "code"]) == 0
    out = capsys.readouterr().out
    assert "## Code Format" in out and "def solve(input: dict) -> dict:" in out
    assert get_spec("kruskal").code_rules["edges"] in out
    assert "## Output Format" in out  # the scaffold, verbatim, as the system prompt


def test_a_program_s_journal_line_reads_back_as_a_program() -> None:
    run = ProgramRun(
        source="def solve(i):\n    return {}\n",
        cases=[
            CaseRun(
                case_id="dijkstra-simple-000",
                tier="simple",
                size=5,
                outcome="failed",
                level=2,
                reason="timeout",
                seconds=1.5,
                reference_seconds=0.001,
            )
        ],
    )
    record = AttemptRecord(
        scaffold="dijkstra", case_id=program_id("dijkstra", 0), index=0, epoch=0, attempt=1,
        tier="program", input={}, expected={}, outcome="failed", level=2, reason="r",
        leniency=[], answer=None, raw_response=None, raw_response_chars=0,
        raw_response_sha256=None, stop_reason=None, usage={}, latency_s=0.0, model=None,
        finished_at="2026-11-26T00:00:00+00:00", program=run,
    )  # fmt: skip
    again = AttemptRecord.from_line(record.to_line())
    assert again == record and again.is_program
    assert isinstance(again.test_case(), ProgramTask)


@pytest.mark.parametrize(("cases", "sequential"), [(None, True), (7, False)])
def test_the_certification_plan_counts_programs(cases: int | None, sequential: bool) -> None:
    from verification.catalog import default_catalog
    from verification.certify.sequential import plan_for
    from verification.config import load_settings, resolve_settings
    from verification.llm.prompt_builder import PromptBuilder
    from verification.run.plan import LOOKS, plan_run

    settings = resolve_settings(load_settings(answer="code", cases=cases, level="standard"))
    plan = plan_run(
        settings, ["dijkstra"], catalog=default_catalog(), prompt_builder=PromptBuilder()
    )
    expected = plan_for("standard", cases)
    assert plan.certification == expected and expected.sequential == sequential
    assert [case.id for case in plan.cases["dijkstra"]] == [
        program_id("dijkstra", k) for k in range(expected.cap)
    ]
    assert (plan.stopping == LOOKS) == sequential


def test_the_code_format_names_the_python_the_sandbox_runs() -> None:
    from verification.catalog import default_catalog
    from verification.llm.prompt_builder import PromptBuilder
    from verification.run.code_answers import CodeAnswers
    from verification.run.sandbox import Engine, Limits
    from verification.run.sandbox.engines import Launch

    class Elsewhere(Engine):
        name = "elsewhere"
        python_version = "3.99.4"

        def launch(self, limits: Limits, code: str) -> Launch:
            raise AssertionError("no program runs in this test")

    kind = CodeAnswers(PromptBuilder(), default_catalog(), engine=Elsewhere())
    spec = get_spec("dijkstra")
    prompt = kind.prompt(spec, program_tasks(spec, seed=1, cases=1, tiers=("simple",), count=1)[0])
    assert "Write a Python 3.99 program" in prompt.user and "Python 3.99, standard" in prompt.user


def test_estimate_prices_programs_with_the_code_format_s_prompt() -> None:
    from verification.catalog import default_catalog
    from verification.certify.sequential import plan_for
    from verification.config import load_settings, resolve_settings
    from verification.llm.prompt_builder import PromptBuilder
    from verification.run.code_answers import code_prompt
    from verification.run.estimate import estimate_run
    from verification.store.pricing import estimate_tokens

    settings = resolve_settings(load_settings(answer="code", provider="reference"))
    (estimate,), _ = estimate_run(settings, ["kruskal"], catalog=default_catalog())
    prompt = code_prompt(PromptBuilder(), get_spec("kruskal"))
    requests = plan_for("standard").cap
    assert estimate.requests == requests
    per_request = estimate_tokens(prompt.user) + estimate_tokens(prompt.system)
    assert estimate.tokens.input == requests * per_request


@pytest.mark.parametrize(
    "name", [name for name in default_catalog() if form_rules_of(get_spec(name).validator)]
)
def test_a_value_that_breaks_only_a_stated_rule_fails_the_contract(name: str) -> None:
    """Every scaffold whose Output Format states form rules restates them in its Code
    Format, and a program's right value written against one fails at level 2."""
    import random

    from verification.run.programs import judge_executions
    from verification.run.sandbox import Execution, Outcome

    spec = get_spec(name)
    assert spec.code_rules, f"{name} states form rules but its Code Format restates none"
    # The program each case is judged for (its one case is set below).
    task = program_tasks(spec, seed=3, cases=1, tiers=("simple",), count=1)[0]
    assert isinstance(task, ProgramTask)
    # The suite's cases in order, each drawn when the loop first reaches it: a rule is
    # broken on the first case it can be, and the ladder (knapsack_01's at 300 items is
    # most of a second to draw) is seldom reached.
    suite = suite_cases(spec, seed=3, cases=30, tiers=("simple", "standard", "edge"))
    drawn: list[TestCase] = []

    def in_order() -> Iterator[TestCase]:
        yield from drawn
        for case in suite:
            drawn.append(case)
            yield case

    breached = 0
    for rule in form_rules_of(spec.validator):
        if rule.breach is None:
            continue
        for case in in_order():
            wrong = rule.breach(case.expected, random.Random(0))
            if wrong is None or wrong == case.expected:
                continue
            one = task.model_copy(update={"suite": (case,), "reference_seconds": (0.0,)})
            run = judge_executions(
                spec, spec.validator, one, "", [Execution(Outcome.OK, value=wrong)],
                engine="none", python="3",
            )  # fmt: skip
            assert run.first_failure is not None and run.first_failure.level == 2, rule.rule
            breached += 1
            break
    assert breached


def test_show_prompt_opens_a_ladder_case_a_program_s_report_names(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Hunt ff 3: a program's first failing case is often a ladder case, past the trace
    # sizes, and show-prompt refused its id; it shows the case code mode ran.
    from verification.config import load_settings
    from verification.llm.prompt_builder import PromptBuilder

    spec = get_spec("kmp")
    suite = suite_cases(spec, seed=DEFAULT_SEED, cases=3, tiers=("standard",))
    ladder = next(c for c in suite if spec.size.check("standard", spec.size.measure(c.input)))
    assert main(["show-prompt", "kmp", "--case", ladder.id, "--part", "user"]) == 0
    out, err = capsys.readouterr()
    built = PromptBuilder(load_settings().scaffolds_dir).build("kmp", ladder.input)
    assert out == built.user.rstrip("\n") + "\n"
    assert "code mode's ladder" in err
    # A size on no ladder stays refused, as does a ladder size of another tier.
    key = parse_case_id(ladder.id)
    assert key is not None and key.size is not None
    for other in (ladder.id.replace(f"-s{key.size}-", f"-s{key.size + 1}-"),
                  ladder.id.replace("-standard-", "-edge-")):  # fmt: skip
        assert main(["show-prompt", "kmp", "--case", other]) == 2
        assert "choose a size in it" in capsys.readouterr().err
