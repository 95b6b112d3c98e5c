"""Each request asks for its own case's output budget: a case at a stress size is sent with
the budget its size grows to, a case within the tiers' ranges with the flat one (issue 25
item 1)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from verification.catalog import Catalog, default_catalog
from verification.catalog.spec import STRESS_FACTOR, OutputBudget
from verification.config import load_settings
from verification.llm.base import LLMResponse
from verification.run.attempts import Job
from verification.run.strategies import TRANSPORTS
from verification.run.transport import TransportSetting
from verification.runner import VerificationRunner
from verification.store.thinking import max_tokens_with

BASE = default_catalog()["merge_sort"]
TOP = BASE.size.ranges["standard"][1]
SPEC = dataclasses.replace(
    BASE,
    size=dataclasses.replace(BASE.size, stress=(TOP + 1, STRESS_FACTOR * TOP)),
    output_budget=OutputBudget(per_unit=100.0, base=500),
)
ASKED: list[tuple[int | None, int]] = []
"""``(case size, max_tokens)`` of every request the recorder was handed."""


class _Recorder:
    """Answers every case right, noting the ``max_tokens`` its request asked for."""

    def __init__(self, setting: TransportSetting) -> None:
        self.attempts = setting.attempts

    async def send(self, jobs: Sequence[Job]) -> None:
        for job in jobs:
            request = self.attempts.request_for(
                job, self.attempts.answers.prompt(job.spec, job.case)
            )
            ASKED.append((job.case.size, request.max_tokens))
            reply = LLMResponse(
                content=job.spec.render_answer(job.case.expected), model="recorder", source="toy"
            )
            await self.attempts.judged(job, request, reply, attempt=1)


@pytest.fixture
def recorder() -> Iterator[None]:
    TRANSPORTS.register("recorder", _Recorder)
    ASKED.clear()
    yield
    TRANSPORTS.unregister("recorder")


@pytest.mark.parametrize("size", [TOP, STRESS_FACTOR * TOP])
def test_a_request_asks_for_the_budget_of_its_case_s_size(
    recorder: None, tmp_path: Path, size: int
) -> None:
    settings = load_settings(provider="reference", results_dir=tmp_path, seed=5, cases=3)
    runner = VerificationRunner(settings, transport="recorder", catalog=Catalog([SPEC]))
    asyncio.run(runner.run(["merge_sort"], tiers=("standard",), size=size))
    assert ASKED and {asked for _, asked in ASKED} == {
        max_tokens_with(None, SPEC.max_output_tokens_at(size))
    }
    assert {case_size for case_size, _ in ASKED} == {size}
    if size > TOP:  # past the flat budget: the grown one is asked for
        assert SPEC.max_output_tokens_at(size) > SPEC.max_output_tokens
