"""Claude through the official ``anthropic`` SDK.

The SDK's own retries are off (``max_retries=0``): the harness's one retry policy decides.
SDK errors are translated in :func:`translate_anthropic_error`, which reads what the API
said and leaves the classification to :mod:`verification.llm.sdk_errors`. The scaffold goes
in the system prompt with ``cache_control`` so that every case of a scaffold after the first
reads it from the prompt cache.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from verification.errors import LLMError
from verification.llm.base import LLMProvider, LLMRequest, LLMResponse
from verification.llm.credentials import (
    redact,
    redact_log_records,
    url_credentials,
    without_credentials,
)
from verification.llm.replies import BODY_FAULTS, message_reply, not_a_reply
from verification.llm.retry import RetryPolicy
from verification.llm.sdk_errors import (
    SdkWording,
    StatusReply,
    parse_retry_after,
    translate_sdk_error,
)
from verification.store.thinking import thinking_field

if TYPE_CHECKING:
    import anthropic

__all__ = [
    "ClaudeProvider",
    "parse_ratelimit_reset",
    "parse_retry_after",
    "translate_anthropic_error",
]


_RATE_LIMITED = ("requests", "tokens", "input-tokens", "output-tokens")


def parse_ratelimit_reset(headers: Mapping[str, str] | None) -> float | None:
    """Seconds until the exhausted ``anthropic-ratelimit-*`` limit resets (the one whose
    ``-remaining`` is 0, the latest if several), from its RFC 3339 ``-reset`` time; ``None``
    when no header says."""
    if not headers:
        return None
    waits = []
    for kind in _RATE_LIMITED:
        if (headers.get(f"anthropic-ratelimit-{kind}-remaining") or "").strip() != "0":
            continue
        reset = (headers.get(f"anthropic-ratelimit-{kind}-reset") or "").strip()
        try:
            when = datetime.fromisoformat(reset.replace("Z", "+00:00"))
        except ValueError:
            continue
        if when.tzinfo is not None:
            waits.append(max(when.timestamp() - time.time(), 0.0))
    return max(waits) if waits else None


def translate_anthropic_error(
    exc: Exception, base_url: str | None = None, *, secrets: list[str | None] | None = None
) -> LLMError:
    """Map an ``anthropic`` exception to the harness's tree (rate limit, transient, final:
    :func:`~verification.llm.sdk_errors.translate_sdk_error`).

    Messages carry the status, the API's error type and its message, never request headers;
    ``secrets`` (the key, URL credentials) are redacted from whatever the server said, so a
    server that echoes the key cannot print it.
    """
    import anthropic

    hidden = [*(secrets or []), *url_credentials(base_url)]
    where = f" at {without_credentials(base_url)}" if base_url else ""
    wording = SdkWording(
        sdk="Anthropic SDK",
        refused_key="the API key was refused. Check ANTHROPIC_API_KEY "
        "(or VERIFY_ANTHROPIC_API_KEY), or run offline with --provider reference.",
        timed_out="Anthropic API call timed out",
        unreachable=f"connection to the Anthropic API{where} failed or was dropped "
        "(check ANTHROPIC_BASE_URL and the network)",
    )

    def status_reply(exc: anthropic.APIStatusError) -> StatusReply:
        headers = exc.response.headers if exc.response is not None else None
        kind = _error_type(exc.body)
        wait = parse_retry_after(headers)
        return StatusReply(
            text=f"Anthropic API returned HTTP {exc.status_code}" + (f" ({kind})" if kind else ""),
            detail=redact(_detail(exc.body), hidden),
            rate_limit_wait=wait if wait is not None else parse_ratelimit_reset(headers),
            transient_wait=wait,
        )

    return translate_sdk_error(exc, anthropic, wording, status_reply)


def _error_type(body: object) -> str | None:
    if isinstance(body, Mapping):
        error = body.get("error")
        if isinstance(error, Mapping) and isinstance(error.get("type"), str):
            return str(error["type"])
    return None


def _detail(body: object) -> str:
    if isinstance(body, Mapping):
        error = body.get("error")
        if isinstance(error, Mapping) and isinstance(error.get("message"), str):
            return ": " + str(error["message"])[:300]
    return ""


class ClaudeProvider(LLMProvider):
    """Claude via ``anthropic.AsyncAnthropic``."""

    name = "anthropic"

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str | None = None,
        timeout: float = 300.0,
        retry_policy: RetryPolicy | None = None,
        prompt_caching: bool = True,
    ) -> None:
        super().__init__(retry_policy=retry_policy)
        import anthropic

        self.client: anthropic.AsyncAnthropic = anthropic.AsyncAnthropic(
            api_key=api_key,
            base_url=base_url,
            max_retries=0,
            timeout=timeout,
            # A redirect would send the case (and the key) where nobody named: not followed.
            http_client=anthropic.DefaultAsyncHttpxClient(follow_redirects=False),
        )
        self.base_url = str(self.client.base_url)
        self.caches_prompts = prompt_caching
        self.secrets: list[str | None] = [api_key]
        """What no error message may show (the key)."""
        # Nor any reply, journal line or report: a server may echo it anywhere.
        redact_log_records([api_key, *url_credentials(self.base_url)])

    def arguments(self, request: LLMRequest) -> dict[str, Any]:
        """The Messages API arguments of ``request`` (a batch sends the same ``params``)."""
        arguments: dict[str, Any] = {
            "model": request.model,
            "max_tokens": request.max_tokens,
            "messages": [{"role": "user", "content": request.prompt}],
        }
        if request.system:
            block: dict[str, Any] = {"type": "text", "text": request.system}
            if self.caches_prompts:
                block["cache_control"] = {"type": "ephemeral"}
            arguments["system"] = [block]
        if request.thinking_budget is not None:
            # In the body, not the keyword: the oldest SDK we support predates thinking.
            # No temperature goes with it (the API refuses one beside thinking).
            arguments["extra_body"] = {"thinking": thinking_field(request.thinking_budget)}
        elif request.temperature is not None:
            # Newer SDKs dropped the keyword (current models refuse it); older models take it.
            arguments["extra_body"] = {"temperature": request.temperature}
        return arguments

    async def generate(self, request: LLMRequest) -> LLMResponse:
        import anthropic

        try:
            message = await self.client.messages.create(**self.arguments(request))
            return message_reply(message)
        except anthropic.AnthropicError as exc:
            raise translate_anthropic_error(exc, self.base_url, secrets=self.secrets) from exc
        except BODY_FAULTS as exc:  # HTTP 200 with truncated JSON, an HTML page, no Message
            raise not_a_reply("Messages API", self.base_url, exc) from exc

    async def aclose(self) -> None:
        await self.client.close()

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "base_url": without_credentials(self.base_url)}
