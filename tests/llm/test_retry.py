"""The one retry policy, driven by scripted failures."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from verification.errors import (
    AuthenticationError,
    ConfigurationError,
    LLMError,
    RateLimitError,
    TransientLLMError,
)
from verification.llm.base import LLMRequest
from verification.llm.dry_run import ReplayProvider
from verification.llm.retry import RetryPolicy

FAST = RetryPolicy(max_retries=3, initial_wait=0.0, max_wait=0.05)


def _provider(tmp_path: Path, steps: list[dict[str, object]]) -> ReplayProvider:
    path = tmp_path / "replay.jsonl"
    path.write_text("".join(json.dumps({"case_id": "c", **s}) + "\n" for s in steps))
    return ReplayProvider(path, retry_policy=FAST)


def _ask(provider: ReplayProvider) -> str:
    request = LLMRequest(prompt="p", model="m", case_id="c")
    return asyncio.run(provider.generate_with_retry(request)).content


def test_transient_and_rate_limit_errors_are_retried(tmp_path: Path) -> None:
    provider = _provider(
        tmp_path,
        [{"error": "rate_limit", "retry_after": 0}, {"error": "transient"}, {"text": "ok"}],
    )
    assert _ask(provider) == "ok"


def test_the_last_error_is_raised_when_tries_run_out(tmp_path: Path) -> None:
    provider = _provider(tmp_path, [{"error": "transient"}])
    with pytest.raises(TransientLLMError):
        _ask(provider)
    assert provider._served[(None, "c")] == FAST.max_retries + 1


@pytest.mark.parametrize("error", ["auth", "invalid_request", "error"])
def test_final_errors_are_not_retried(tmp_path: Path, error: str) -> None:
    provider = _provider(tmp_path, [{"error": error}, {"text": "never reached"}])
    with pytest.raises(LLMError) as raised:
        _ask(provider)
    assert provider._served[(None, "c")] == 1
    if error == "auth":
        assert isinstance(raised.value, AuthenticationError)


def test_retry_after_is_honoured_and_capped() -> None:
    policy = RetryPolicy(max_retries=1, initial_wait=0.0, max_wait=0.2)
    calls: list[float] = []

    async def flaky(_: None) -> str:
        calls.append(asyncio.get_running_loop().time())
        if len(calls) == 1:
            raise RateLimitError("slow down", retry_after=30.0)
        return "ok"

    assert asyncio.run(policy.call(flaky, None)) == "ok"
    assert 0.15 <= calls[1] - calls[0] < 5.0


def test_a_bad_replay_file_is_a_configuration_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"case_id": "c", "text": "ok"}\nnot json\n')
    with pytest.raises(ConfigurationError, match=":2:"):
        ReplayProvider(path)
    with pytest.raises(ConfigurationError, match="cannot read"):
        ReplayProvider(tmp_path / "missing.jsonl")


def test_each_arm_is_served_its_own_lines_then_the_lines_of_no_arm(tmp_path: Path) -> None:
    provider = _provider(
        tmp_path,
        [{"arm": "bare", "text": "b1"}, {"arm": "scaffold", "text": "s1"}, {"text": "any"}],
    )

    def ask(arm: str | None) -> str:
        request = LLMRequest(prompt="p", model="m", case_id="c", arm=arm)
        return asyncio.run(provider.generate_with_retry(request)).content

    assert [ask("scaffold"), ask("bare"), ask("scaffold")] == ["s1", "b1", "s1"]
    assert ask("draft") == "any"  # no line of its arm: those that name none
    assert ask(None) == "b1"  # a run of no pair: every line, in order
    only_bare = _provider(tmp_path, [{"arm": "bare", "text": "b1"}])
    request = LLMRequest(prompt="p", model="m", case_id="c", arm="scaffold")
    with pytest.raises(LLMError, match="of arm 'scaffold'"):
        asyncio.run(only_bare.generate(request))
