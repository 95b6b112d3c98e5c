"""A provider that wraps another overrides only ``generate``: manifests, resume checks and
the retry policy see the provider that really answers, and retries never nest."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from verification.config import load_settings
from verification.llm.base import LLMRequest, LLMResponse, WrappingProvider
from verification.llm.dry_run import ReplayProvider
from verification.llm.retry import RetryPolicy
from verification.runner import VerificationRunner, plan_cases
from verification.store.journal import read_journal


class CountingProvider(WrappingProvider):
    """Counts the calls that reach it and marks its answers, as a cache would."""

    def __init__(self, inner: ReplayProvider) -> None:
        super().__init__(inner)
        self.calls = 0

    async def generate(self, request: LLMRequest) -> LLMResponse:
        self.calls += 1
        response = await self.inner.generate(request)
        return response.model_copy(update={"source": "counted"})


def _replay(tmp_path: Path, case_id: str, answer: str, failures: int) -> ReplayProvider:
    lines = [{"case_id": case_id, "error": "transient"}] * failures
    lines.append({"case_id": case_id, "text": answer, "usage": {"output_tokens": 7}})
    path = tmp_path / "replay.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return ReplayProvider(path, retry_policy=RetryPolicy(max_retries=4, initial_wait=0))


def test_the_wrapper_delegates_identity_hooks_and_the_retry_policy(tmp_path: Path) -> None:
    inner = _replay(tmp_path, "kmp-simple-000", "{}", failures=0)
    wrapper = CountingProvider(inner)
    assert (wrapper.name, wrapper.dry_run, wrapper.label) == ("replay", True, "REPLAY")
    assert wrapper.describe() == inner.describe()
    assert wrapper.retry_policy is inner.retry_policy


def test_retries_run_once_per_attempt_through_the_wrapper(tmp_path: Path) -> None:
    settings = load_settings(results_dir=tmp_path / "out", cases=1, provider="replay")
    (case,) = plan_cases(["kmp"], seed=settings.seed, cases=1, tiers=["simple"])["kmp"]
    answer = "```json\n" + json.dumps(case.expected) + "\n```"
    inner = _replay(tmp_path, case.id, answer, failures=2)
    wrapper = CountingProvider(inner)
    runner = VerificationRunner(settings, provider=wrapper)
    result = asyncio.run(runner.run(["kmp"], case_ids=[case.id]))
    # Two scripted failures and one answer: three calls, not three per retry layer.
    assert wrapper.calls == 3
    (record,) = read_journal(result.paths.journal)
    assert record.outcome == "passed" and record.source == "counted"
    assert record.usage == {"output_tokens": 7}
    assert result.manifest.provider["provider"] == "replay"
    assert result.manifest.run_label == "REPLAY"
