"""Claude through the official ``anthropic`` SDK.

The SDK's own retries are off (``max_retries=0``): the harness's one retry policy decides.
SDK errors are translated in :func:`translate_anthropic_error`, the one place that knows
them. The scaffold goes in the system prompt with ``cache_control`` so that every case of a
scaffold after the first reads it from the prompt cache.
"""

from __future__ import annotations

import email.utils
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from verification.config import without_credentials
from verification.errors import (
    AuthenticationError,
    InvalidRequestError,
    LLMError,
    RateLimitError,
    TransientLLMError,
)
from verification.llm.base import LLMProvider, LLMRequest, LLMResponse
from verification.llm.retry import RetryPolicy

if TYPE_CHECKING:
    import anthropic

__all__ = ["ClaudeProvider", "parse_retry_after", "translate_anthropic_error"]


def parse_retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``retry-after`` (seconds or HTTP date)."""
    if not headers:
        return None
    milliseconds = headers.get("retry-after-ms")
    if milliseconds:
        try:
            return max(float(milliseconds) / 1000.0, 0.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        when = email.utils.parsedate_to_datetime(value) if value else None
        return max(when.timestamp() - time.time(), 0.0) if when else None


def translate_anthropic_error(exc: Exception, base_url: str | None = None) -> LLMError:
    """Map an ``anthropic`` exception to the harness's tree (rate limit, transient, final).

    Messages carry the status and the API's error type, never request headers, so the key
    cannot leak through them.
    """
    import anthropic

    if isinstance(exc, anthropic.APIStatusError):
        status = exc.status_code
        headers = exc.response.headers if exc.response is not None else None
        kind = _error_type(exc.body)
        text = f"Anthropic API returned HTTP {status}" + (f" ({kind})" if kind else "")
        if status == 429:
            return RateLimitError(text, status_code=status, retry_after=parse_retry_after(headers))
        # 529 "overloaded" has its own SDK class; checked by status so every SDK version agrees.
        if status == 529 or status >= 500 or status == 408:
            return TransientLLMError(
                text, status_code=status, retry_after=parse_retry_after(headers)
            )
        if status in (401, 403):
            return AuthenticationError(
                f"{text}: the API key was refused. Check ANTHROPIC_API_KEY "
                "(or VERIFY_ANTHROPIC_API_KEY), or run offline with --provider reference.",
                status_code=status,
            )
        return InvalidRequestError(text + _detail(exc.body), status_code=status)
    if isinstance(exc, anthropic.APITimeoutError):
        return TransientLLMError("Anthropic API call timed out")
    if isinstance(exc, anthropic.APIConnectionError):
        where = f" at {without_credentials(base_url)}" if base_url else ""
        return TransientLLMError(
            f"connection to the Anthropic API{where} failed or was dropped "
            "(check ANTHROPIC_BASE_URL and the network)"
        )
    return LLMError(f"Anthropic SDK error: {type(exc).__name__}")


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

        self._client: anthropic.AsyncAnthropic = anthropic.AsyncAnthropic(
            api_key=api_key, base_url=base_url, max_retries=0, timeout=timeout
        )
        self.base_url = str(self._client.base_url)
        self.prompt_caching = prompt_caching

    def _arguments(self, request: LLMRequest) -> dict[str, Any]:
        arguments: dict[str, Any] = {
            "model": request.model,
            "max_tokens": request.max_tokens,
            "messages": [{"role": "user", "content": request.prompt}],
        }
        if request.system:
            block: dict[str, Any] = {"type": "text", "text": request.system}
            if self.prompt_caching:
                block["cache_control"] = {"type": "ephemeral"}
            arguments["system"] = [block]
        if request.temperature is not None:
            # Newer SDKs dropped the keyword (current models refuse it); older models take it.
            arguments["extra_body"] = {"temperature": request.temperature}
        return arguments

    async def generate(self, request: LLMRequest) -> LLMResponse:
        import anthropic

        try:
            message = await self._client.messages.create(**self._arguments(request))
        except anthropic.AnthropicError as exc:
            raise translate_anthropic_error(exc, self.base_url) from exc
        text = "".join(
            block.text for block in message.content if getattr(block, "type", "") == "text"
        )
        usage = {
            key: value
            for key, value in (message.usage.model_dump() if message.usage else {}).items()
            if isinstance(value, int) and not isinstance(value, bool)
        }
        return LLMResponse(
            content=text,
            model=message.model,
            usage=usage,
            stop_reason=message.stop_reason,
        )

    async def aclose(self) -> None:
        await self._client.close()

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "base_url": without_credentials(self.base_url)}
