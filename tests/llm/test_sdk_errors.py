"""The one classification of an SDK's HTTP error status, shared by the providers."""

from __future__ import annotations

import pytest

from verification.errors import (
    AuthenticationError,
    ContextWindowError,
    FatalLLMError,
    InvalidRequestError,
    LLMError,
    RateLimitError,
    TransientLLMError,
)
from verification.llm.sdk_errors import StatusReply, status_error

REPLY = StatusReply(
    "server returned", detail=": it said no", rate_limit_wait=3.0, transient_wait=7.0
)


@pytest.mark.parametrize(
    ("status", "kind", "message", "wait"),
    [
        (429, RateLimitError, "server returned", 3.0),
        (408, TransientLLMError, "server returned", 7.0),
        (500, TransientLLMError, "server returned", 7.0),
        (529, TransientLLMError, "server returned", 7.0),
        (401, AuthenticationError, "server returned: check the key", None),
        (403, AuthenticationError, "server returned: check the key", None),
        (400, InvalidRequestError, "server returned: it said no", None),
        (404, InvalidRequestError, "server returned: it said no", None),
    ],
)
def test_each_status_has_one_kind_of_error(
    status: int, kind: type[LLMError], message: str, wait: float | None
) -> None:
    error = status_error(status, REPLY, "check the key")
    assert type(error) is kind
    assert (str(error), error.status_code, getattr(error, "retry_after", None)) == (
        message,
        status,
        wait,
    )


@pytest.mark.parametrize(
    "said",
    [
        "This model's maximum context length is 8192 tokens. However, you requested 9252 tokens",
        "the request exceeds the available context size, try increasing it",
        "input length and `max_tokens` exceed context limit: 187254 + 20000 > 200000",
        "prompt is too long: 210000 tokens > 200000 maximum",
        "context_length_exceeded",
        "The input (9252 tokens) is longer than the model's context length (8192 tokens).",
        "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 8192",
    ],
    ids=["openai-vllm", "llama.cpp", "messages-api", "prompt-too-long", "code", "sglang", "tgi"],
)
def test_a_request_past_the_context_window_is_its_case_s_failure_not_fatal(said: str) -> None:
    error = status_error(400, StatusReply("server returned", detail=f": {said}"), "key")
    assert type(error) is ContextWindowError and not isinstance(error, FatalLLMError)
    assert said in str(error)
    # Another 400 still stops the run.
    assert type(status_error(400, REPLY, "key")) is InvalidRequestError
