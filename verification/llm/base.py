"""The model contract: requests, responses, and the provider base class.

A provider implements one method, :meth:`LLMProvider.generate`, and translates its SDK's
errors into :mod:`verification.errors` in one place. :meth:`LLMProvider.generate_with_retry`
is concrete and shared: the one retry policy of :mod:`verification.llm.retry`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from verification.errors import (
    AuthenticationError,
    FatalLLMError,
    InvalidRequestError,
    LLMError,
    RateLimitError,
    RetryableLLMError,
    TransientLLMError,
)
from verification.llm.retry import RetryPolicy

__all__ = [
    "AuthenticationError",
    "FatalLLMError",
    "InvalidRequestError",
    "LLMError",
    "LLMProvider",
    "LLMRequest",
    "LLMResponse",
    "RateLimitError",
    "RetryableLLMError",
    "TransientLLMError",
]


class LLMRequest(BaseModel):
    """One call to a model."""

    model_config = ConfigDict(frozen=True)

    prompt: str
    """The user turn."""
    model: str
    """Model identifier."""
    system: str | None = None
    """The system prompt: the scaffold, verbatim (cacheable: the same for every case)."""
    max_tokens: int = Field(default=4096, ge=1)
    """Output budget; reaching it gives ``stop_reason == "max_tokens"``."""
    temperature: float | None = None
    """Not sent when None."""
    case_id: str | None = None
    """Which case this is for: never sent to a model, never part of a cache key."""


class LLMResponse(BaseModel):
    """What a model answered."""

    model_config = ConfigDict(frozen=True)

    content: str
    """The answer's text (all text blocks joined)."""
    model: str
    """The model the API says answered."""
    usage: dict[str, int] = Field(default_factory=dict)
    """Token counts as the API reports them."""
    stop_reason: str | None = None
    """``end_turn``, ``max_tokens``, ``stop_sequence``, ... (``max_tokens`` = truncated)."""


class LLMProvider(ABC):
    """Answers prompts. Subclasses implement :meth:`generate` and translate their errors."""

    name: str = "provider"
    dry_run: bool = False
    """True for providers that answer without a model; their reports certify nothing."""
    label: str | None = None
    """What every report title says for a dry run (``DRY RUN``, ``REPLAY``)."""

    def __init__(self, *, retry_policy: RetryPolicy | None = None) -> None:
        self.retry_policy = retry_policy or RetryPolicy()

    @abstractmethod
    async def generate(self, request: LLMRequest) -> LLMResponse:
        """One call; raises a :class:`LLMError` subclass on failure."""

    async def generate_with_retry(
        self, request: LLMRequest, max_retries: int | None = None
    ) -> LLMResponse:
        """:meth:`generate` under the shared retry policy (rate limits and transient
        failures are retried; everything else is raised at once)."""
        policy = self.retry_policy
        if max_retries is not None:
            policy = policy.with_max_retries(max_retries)
        return await policy.call(self.generate, request)

    async def preflight(self) -> None:
        """Check, before the first request, that the provider can run at all; raise
        :class:`~verification.errors.ConfigurationError` naming the fix. Default: nothing."""
        return None

    async def aclose(self) -> None:
        """Release connections; the default has none."""
        return None

    def describe(self) -> dict[str, Any]:
        """What the manifest records about this provider (no secrets)."""
        return {"provider": self.name, "dry_run": self.dry_run}
