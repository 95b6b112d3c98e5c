"""The runner through its Python interface: the API reference's flow, repair, samples,
concurrency, fatal errors and validators that misbehave."""

from __future__ import annotations

import asyncio
import gc
import json
from pathlib import Path
from typing import Any

import pytest

from verification.config import load_settings
from verification.errors import AuthenticationError
from verification.generators.base import TestCase
from verification.llm.base import LLMProvider, LLMRequest, LLMResponse
from verification.registry import DEFAULT_SEED, get_all_generators, get_spec
from verification.reports.generator import ReportGenerator
from verification.runner import VerificationRunner, plan_cases
from verification.store.journal import read_journal
from verification.validators.base import ValidationResult, Validator


def test_the_api_reference_flow_works(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("VERIFY_PROVIDER", "reference")
    runner = VerificationRunner()
    generator = get_all_generators()["kmp"]
    suite = generator.generate_suite()
    results = asyncio.run(runner.run_test_suite("kmp", suite, get_spec("kmp").validator))
    assert results.status == "CERTIFIED" and results.n == len(suite.test_cases)
    reports = ReportGenerator(output_dir=tmp_path)
    assert reports.generate_scaffold_report(results).read_text().startswith("# kmp: CERTIFIED")
    assert "kmp" in reports.generate_summary_report([results]).read_text()


class ScriptedProvider(LLMProvider):
    """Answers from a function of the request; counts calls and calls in flight."""

    name = "scripted"

    def __init__(self, answer: Any) -> None:
        super().__init__()
        self.answer = answer
        self.calls: list[LLMRequest] = []
        self.in_flight = 0
        self.most_in_flight = 0

    async def generate(self, request: LLMRequest) -> LLMResponse:
        self.calls.append(request)
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            await asyncio.sleep(0.001)
            return LLMResponse(content=self.answer(request), model="scripted-1")
        finally:
            self.in_flight -= 1


def _cases(name: str, n: int) -> list[TestCase]:
    return plan_cases([name], seed=DEFAULT_SEED, cases=n)[name]


def _right(request: LLMRequest) -> str:
    name = (request.case_id or "").rsplit("-", 2)[0]
    (case,) = plan_cases([name], seed=DEFAULT_SEED, cases=1, case_ids=[request.case_id or ""])[name]
    return get_spec(name).render_answer(case.expected)


def test_repair_asks_again_and_counts_only_the_first_attempt(tmp_path: Path) -> None:
    def answer(request: LLMRequest) -> str:
        return _right(request) if "could not be read" in request.prompt else "no JSON here"

    provider = ScriptedProvider(answer)
    settings = load_settings(repair_attempts=3, results_dir=tmp_path, cases=5)
    run = asyncio.run(VerificationRunner(settings, provider).run(["kmp"]))
    results = run.results["kmp"]
    assert (results.passed, results.passed_after_repair, results.n) == (0, 5, 5)
    assert results.status == "FAILED"
    assert len(provider.calls) == 10
    records = read_journal(run.paths.journal)
    assert sorted({r.attempt for r in records}) == [1, 2]


def test_samples_ask_each_case_several_times(tmp_path: Path) -> None:
    provider = ScriptedProvider(_right)
    settings = load_settings(samples=3, results_dir=tmp_path, cases=4)
    run = asyncio.run(VerificationRunner(settings, provider).run(["bfs"]))
    # n counts distinct cases: three samples of four cases are twelve answers, not n = 12.
    assert len(provider.calls) == 12 and run.results["bfs"].answers == 12
    assert run.results["bfs"].n == 4
    assert run.manifest.models_returned == ["scripted-1"]


def test_concurrency_is_bounded(tmp_path: Path) -> None:
    provider = ScriptedProvider(_right)
    settings = load_settings(concurrency=3, results_dir=tmp_path, cases=20)
    asyncio.run(VerificationRunner(settings, provider).run(["kmp", "bfs"]))
    assert provider.most_in_flight == 3


def test_a_run_sets_the_heap_made_before_it_aside_from_the_collector(tmp_path: Path) -> None:
    frozen_while_answering: list[bool] = []  # the heap made before the run, while it answers

    def answer(request: LLMRequest) -> str:
        frozen_while_answering.append(gc.get_freeze_count() > 0)
        return _right(request)

    settings = load_settings(results_dir=tmp_path, cases=3)
    assert gc.get_freeze_count() == 0
    asyncio.run(VerificationRunner(settings, ScriptedProvider(answer)).run(["kmp"]))
    assert frozen_while_answering == [True] * 3
    assert gc.get_freeze_count() == 0  # given back: nothing outlives the run in the freeze


def test_requests_carry_the_scaffold_as_system_prompt_and_the_case_id(tmp_path: Path) -> None:
    provider = ScriptedProvider(_right)
    settings = load_settings(results_dir=tmp_path, cases=3, model="some-model")
    asyncio.run(VerificationRunner(settings, provider).run(["dijkstra"]))
    scaffold = (settings.scaffolds_dir / get_spec("dijkstra").scaffold_file).read_text()
    assert {call.system for call in provider.calls} == {scaffold}
    assert {call.model for call in provider.calls} == {"some-model"}
    assert {call.max_tokens for call in provider.calls} == {get_spec("dijkstra").max_output_tokens}
    assert all(call.temperature is None for call in provider.calls)
    assert sorted(c.case_id for c in provider.calls) == sorted(c.id for c in _cases("dijkstra", 3))


def test_a_truncated_reply_is_counted_as_a_syntactic_failure(tmp_path: Path) -> None:
    class Truncating(ScriptedProvider):
        async def generate(self, request: LLMRequest) -> LLMResponse:
            full = await super().generate(request)
            return full.model_copy(update={"stop_reason": "max_tokens"})

    settings = load_settings(results_dir=tmp_path, cases=2)
    run = asyncio.run(VerificationRunner(settings, Truncating(_right)).run(["kmp"]))
    assert run.results["kmp"].truncated == 2 and run.results["kmp"].failures_by_level[1] == 2


def test_a_refused_key_stops_the_run_and_keeps_what_finished(tmp_path: Path) -> None:
    class Refusing(ScriptedProvider):
        async def generate(self, request: LLMRequest) -> LLMResponse:
            if len(self.calls) >= 2:
                raise AuthenticationError("HTTP 401")
            return await super().generate(request)

    settings = load_settings(results_dir=tmp_path, cases=10, concurrency=1)
    runner = VerificationRunner(settings, Refusing(_right))
    with pytest.raises(AuthenticationError):
        asyncio.run(runner.run(["kmp"]))
    assert runner.run_id is not None
    run_dir = tmp_path / "runs" / runner.run_id
    assert len(read_journal(run_dir / "results.jsonl")) == 2
    assert json.loads((run_dir / "manifest.json").read_text())["finished_at"]


def test_a_validator_that_raises_fails_the_answer_not_the_run() -> None:
    class Broken(Validator):
        kind = "broken"

        def validate(
            self, actual: Any, expected: Any, *, case: TestCase | None = None
        ) -> ValidationResult:
            raise KeyError("bug")

    settings = load_settings(provider="reference")
    suite = get_all_generators()["kmp"].generate_suite()
    results = asyncio.run(VerificationRunner(settings).run_test_suite("kmp", suite, Broken()))
    assert results.passed == 0 and results.failures_by_level[3] == results.n
    assert "validator error" in results.results[0].validation_message


def test_run_single_test_returns_a_test_result() -> None:
    settings = load_settings(provider="reference")
    (case,) = _cases("newton_raphson", 1)
    result = asyncio.run(VerificationRunner(settings).run_single_test(case))
    assert result.passed and result.actual == case.expected and result.error is None


def test_one_runner_serves_several_suites_and_reports_say_dry_run(tmp_path: Path) -> None:
    runner = VerificationRunner(load_settings(provider="reference"))
    generators = get_all_generators()
    results = [
        asyncio.run(runner.run_test_suite(name, generators[name].generate_suite()))
        for name in ("knapsack_01", "bfs")
    ]
    assert [r.status for r in results] == ["CERTIFIED", "CERTIFIED"]
    reports = ReportGenerator(output_dir=tmp_path)
    for result in results:
        first_line = reports.generate_scaffold_report(result).read_text().splitlines()[0]
        assert "DRY RUN" in first_line
    reports.generate_summary_report(results)
    assert json.loads((tmp_path / "summary.json").read_text())["dry_run"] is True


def test_equivalent_case_ids_are_one_case() -> None:
    cases = plan_cases(
        [], seed=DEFAULT_SEED, cases=1, case_ids=["kmp-simple-001", "kmp-simple-1", "kmp-simple-01"]
    )
    assert [c.id for c in cases["kmp"]] == ["kmp-simple-001"]


def test_a_validator_without_case_is_refused_clearly() -> None:
    from verification.errors import ConfigurationError

    class OldStyle(Validator):
        kind = "old"

        def validate(self, actual: Any, expected: Any) -> ValidationResult:  # type: ignore[override]
            return ValidationResult(True, "ok")

    settings = load_settings(provider="reference")
    suite = get_all_generators()["kmp"].generate_suite()
    with pytest.raises(ConfigurationError, match="case=None"):
        asyncio.run(VerificationRunner(settings).run_test_suite("kmp", suite, OldStyle()))


def test_a_test_case_written_as_in_the_api_reference_works() -> None:
    from verification.reference.graph import dijkstra

    graph = {"vertices": ["A", "B"], "edges": [["A", "B", 1]], "source": "A"}
    case = TestCase(
        id="dijkstra_simple_01",
        scaffold="dijkstra",
        tier="simple",
        input=graph,
        expected=dijkstra(**graph),
    )
    assert case.index == 1
