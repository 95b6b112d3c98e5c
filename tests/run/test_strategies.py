"""The run's three choices are strategies (issue 22 item 2): a transport or an answer kind
that a test registers runs through the unchanged runner, chosen by name; names are taken
once and an unknown one is refused naming those there are."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from verification.cases import TestCase
from verification.catalog import Catalog
from verification.catalog.spec import ScaffoldSpec
from verification.config import RunConfig, load_settings
from verification.errors import ConfigurationError
from verification.llm.base import LLMRequest, LLMResponse
from verification.llm.prompt_builder import PromptBuilder
from verification.run.answers import Judgement
from verification.run.attempts import Job
from verification.run.stopping import Send
from verification.run.strategies import ANSWER_KINDS, STOPPING_RULES, TRANSPORTS, Strategies
from verification.run.trace_answers import TraceAnswers
from verification.run.transport import TransportSetting
from verification.runner import VerificationRunner
from verification.store.journal import read_journal
from verification.store.manifests import EarlyStop, RunManifest
from verification.validators.base import Validator


class _Courier:
    """Sends nothing: each job's reply is its case's own answer, written as the scaffold
    asks, judged and journalled through the run's attempts like any other."""

    def __init__(self, setting: TransportSetting) -> None:
        self.attempts = setting.attempts

    async def send(self, jobs: Sequence[Job]) -> None:
        for job in jobs:
            prompt = self.attempts.answers.prompt(job.spec, job.case)
            reply = LLMResponse(
                content=job.spec.render_answer(job.case.expected), model="courier", source="toy"
            )
            await self.attempts.judged(
                job, self.attempts.request_for(job, prompt), reply, attempt=1
            )


class _Contrarian(TraceAnswers):
    """The trace, read as usual and then judged wrong whatever it says."""

    def judge(
        self,
        spec: ScaffoldSpec,
        validator: Validator,
        case: TestCase,
        request: LLMRequest,
        response: LLMResponse,
    ) -> Judgement:
        read = super().judge(spec, validator, case, request, response)
        return read._replace(outcome="failed", level=3, reason="the contrarian disagrees")


def _contrarian(builder: PromptBuilder, catalog: Catalog, config: RunConfig) -> _Contrarian:
    return _Contrarian(builder, catalog)


@pytest.fixture
def toys() -> Iterator[None]:
    TRANSPORTS.register("courier", _Courier)
    ANSWER_KINDS.register("contrarian", _contrarian)
    yield
    TRANSPORTS.unregister("courier")
    ANSWER_KINDS.unregister("contrarian")


def test_a_transport_registered_by_name_sends_the_run(toys: None, tmp_path: Path) -> None:
    settings = load_settings(provider="reference", results_dir=tmp_path, seed=3, cases=6)
    result = asyncio.run(VerificationRunner(settings, transport="courier").run(["kmp"]))
    records = read_journal(result.paths.journal)
    assert len(records) == 6
    assert {(r.source, r.model, r.outcome) for r in records} == {("toy", "courier", "passed")}
    assert result.results["kmp"].status != "INCOMPLETE"


def test_an_answer_kind_registered_by_name_judges_the_run(toys: None, tmp_path: Path) -> None:
    settings = load_settings(provider="reference", results_dir=tmp_path, seed=3, cases=6)
    result = asyncio.run(VerificationRunner(settings, answer_kind="contrarian").run(["kmp"]))
    records = read_journal(result.paths.journal)
    assert {(r.outcome, r.reason) for r in records} == {("failed", "the contrarian disagrees")}
    assert all(r.answer is not None for r in records)  # the trace was read all the same
    assert result.results["kmp"].status == "FAILED"


def test_a_name_is_taken_once_and_an_unknown_one_is_refused_by_name(tmp_path: Path) -> None:
    made: Strategies[int] = Strategies("widget")
    made.register("one", 1)
    with pytest.raises(ConfigurationError, match="a widget named 'one' is registered already"):
        made.register("one", 2)
    with pytest.raises(ConfigurationError, match=r"no widget named 'two' \(there are: one\)"):
        made["two"]
    assert sorted(TRANSPORTS) == ["batches", "concurrent"]
    settings = load_settings(provider="reference", results_dir=tmp_path, cases=3)
    with pytest.raises(ConfigurationError, match="no transport named 'pigeon'"):
        asyncio.run(VerificationRunner(settings, transport="pigeon").run(["kmp"]))
    assert not (tmp_path / "runs").exists()  # refused before the run's folder is made


class _AllAtOnce:
    """A stopping rule written to the protocol as it was first published (``run`` and
    ``stops``, no ``settled``): asks the whole plan at once."""

    def __init__(self, planned: object, manifest: RunManifest, journal: object, growth: object):
        self._stops = manifest.early_stops

    async def run(self, jobs: Sequence[Job], send: Send) -> None:
        await send(jobs)

    @property
    def stops(self) -> dict[str, EarlyStop] | None:
        return self._stops


def test_a_stopping_rule_without_settled_still_runs(tmp_path: Path) -> None:
    # Hunt zz: the runner read every rule's new ``settled``, and a rule registered without
    # it asked every case, then raised AttributeError before the run's manifest was written.
    STOPPING_RULES.register("all-at-once", _AllAtOnce)
    try:
        settings = load_settings(provider="reference", results_dir=tmp_path, seed=3, cases=4)
        result = asyncio.run(VerificationRunner(settings, stopping="all-at-once").run(["kmp"]))
    finally:
        STOPPING_RULES.unregister("all-at-once")
    assert len(read_journal(result.paths.journal)) == 4
    assert result.manifest.finished_at is not None and not result.manifest.stopped_by_budget
