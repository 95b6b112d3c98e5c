"""The model contract: requests, responses, and the provider base classes.

A provider implements one method, :meth:`LLMProvider.generate`, and translates its SDK's
errors into :mod:`verification.errors` in one place. :meth:`LLMProvider.generate_with_retry`
is concrete and shared: the one retry policy of :mod:`verification.llm.retry`. The other
methods are hooks with safe defaults (``prepare``, ``preflight``, ``keep``, ``aclose``,
``describe``).

A :class:`WrappingProvider` (a response cache, say) overrides only ``generate`` and hands
everything else to the provider it wraps, so manifests, resume checks and the retry policy
see the provider that really answers. The runner calls ``generate_with_retry`` once per
attempt on the outermost provider, so retries never nest.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from verification.cases import Planned
from verification.errors import (
    AuthenticationError,
    FatalLLMError,
    InvalidRequestError,
    LLMError,
    RateLimitError,
    RetryableLLMError,
    TransientLLMError,
)
from verification.llm.credentials import redact_known
from verification.store.records import MAX_TOKEN_COUNT

if TYPE_CHECKING:  # tenacity and asyncio load with the first provider, not with `list`
    from verification.llm.limiter import Slot
    from verification.llm.retry import RetryPolicy

__all__ = [
    "MAX_REPLY_CHARS",
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
    "WrappingProvider",
]

MAX_REPLY_CHARS = 8 * 1024 * 1024
"""The longest reply judged: a longer one fails at level 1, unread, and is not cached."""


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
    thinking_budget: int | None = Field(default=None, ge=1)
    """Extended thinking's ``budget_tokens`` (inside ``max_tokens``); None: no thinking."""
    case_id: str | None = None
    """Which case this is for: never sent to a model, never part of a cache key."""
    arm: str | None = None
    """Which arm of a ``--baseline`` pair asks (``bare``, ``scaffold``, ...): never sent to a
    model, never part of a cache key (the arms' prompts differ, or are the same question);
    a replay provider serves each arm its own recorded lines."""
    case_input: Any = None
    """The case's input (JSON data), ``None`` where the caller has none: never sent to a
    model, never part of a cache key (the prompt holds it); a replay provider checks that
    a recorded answer was to this input (hunt af: after a generator's change, an old
    journal's answers were scored against inputs they never answered)."""
    sample: int = Field(default=0, ge=0)
    """Which sample (epoch) of the same prompt this is: never sent to a model, but part of
    the cache key, so ``--samples 3`` asks three times and a repeated run gets all three."""


class LLMResponse(BaseModel):
    """What a model answered."""

    model_config = ConfigDict(frozen=True)

    content: str
    """The answer's text (all text blocks joined)."""
    model: str
    """The model the API says answered."""
    usage: dict[str, int] = Field(default_factory=dict)
    """Token counts as the API reports them."""

    @field_validator("usage", mode="before")
    @classmethod
    def _counts_only(cls, value: Any) -> Any:
        """A count a server (or a replay file) gives that is no whole number of tokens, a
        negative one or one past :data:`MAX_TOKEN_COUNT` say, is left out as if not given:
        the journal keeps counts only, and neither a reply nor the run's cost is lost to its
        server's arithmetic (10**400 tokens priced overflowed a float: exit 4)."""
        if isinstance(value, Mapping):
            return {
                key: count
                for key, count in value.items()
                if type(count) is int and 0 <= count <= MAX_TOKEN_COUNT
            }
        return value

    stop_reason: str | None = None
    """``end_turn``, ``max_tokens``, ``stop_sequence``, ... (``max_tokens`` = truncated)."""
    source: str = "live"
    """Where the answer came from: ``live`` (a model call), ``cache``, ``batch``, or a dry
    run's ``reference`` or ``replay``; ``usage`` stays the original call's."""

    @field_validator("content", "model", "stop_reason", mode="after")
    @classmethod
    def _no_secret(cls, value: str | None) -> str | None:
        """A server may echo the key back anywhere: what it says goes to the journal, the
        cache and the reports, none of which may hold a secret."""
        return None if value is None else redact_known(value)


class LLMProvider(ABC):
    """Answers prompts. Subclasses implement :meth:`generate` and translate their errors."""

    name: str = "provider"
    dry_run: bool = False
    """True for providers that answer without a model; their reports certify nothing."""
    label: str | None = None
    """What every report title says for a dry run (``DRY RUN``, ``REPLAY``)."""
    caches_prompts: bool = False
    """True when requests mark the system prompt for the provider's prompt cache."""

    def __init__(self, *, retry_policy: RetryPolicy | None = None) -> None:
        from verification.llm.retry import RetryPolicy

        self.retry_policy = retry_policy or RetryPolicy()

    @abstractmethod
    async def generate(self, request: LLMRequest) -> LLMResponse:
        """One call; raises a :class:`LLMError` subclass on failure."""

    async def generate_with_retry(
        self,
        request: LLMRequest,
        max_retries: int | None = None,
        *,
        slot: Slot | None = None,
        on_send: Callable[[], None] | None = None,
    ) -> LLMResponse:
        """:meth:`generate` under the shared retry policy (rate limits and transient
        failures are retried; everything else is raised at once), each try in a ``slot``
        of the model's concurrency limiter when one is given (which hears of 429s);
        ``on_send`` is called as each try goes out (its slot taken)."""
        policy = self.retry_policy
        if max_retries is not None:
            policy = policy.with_max_retries(max_retries)
        generate = self.generate if on_send is None else _announced(self.generate, on_send)
        if slot is None:
            return await policy.call(generate, request)
        return await policy.call(functools.partial(slot.call, generate), request)

    async def prepare(self, cases: Sequence[Planned]) -> None:
        """Be told every case of a run before its first request (a dry run derives its
        answers from them, each once it is asked: a case planned to be drawn later is not
        drawn here). Default: nothing."""
        return None

    async def cached(self, request: LLMRequest) -> LLMResponse | None:
        """The answer a response cache holds for ``request``, without asking the model
        (a batch sends only the others). Default: none."""
        return None

    def model_for(self, configured: str) -> str:
        """The model this provider asks when the settings name ``configured`` (valid after
        :meth:`preflight`). Default: ``configured``."""
        return configured

    @property
    def settles_model(self) -> bool:
        """True when :meth:`model_for` needs :meth:`preflight` to have run (the model is
        chosen from what a server serves), so preflight cannot be put off. Default: False."""
        return False

    async def preflight(self) -> None:
        """Check, before the first request, that the provider can run at all; raise
        :class:`~verification.errors.ConfigurationError` naming the fix. Default: nothing."""
        return None

    async def keep(self, request: LLMRequest, response: LLMResponse) -> None:
        """Be told an answer once the runner has journalled it: a cache keeps it only then,
        so nothing that fails after a paid answer arrives can lose it. Never raises.
        Default: nothing."""
        return None

    async def aclose(self) -> None:
        """Release connections; the default has none."""
        return None

    def describe(self) -> dict[str, Any]:
        """What the manifest records about this provider (no secrets)."""
        return {"provider": self.name, "dry_run": self.dry_run}


class WrappingProvider(LLMProvider):
    """A provider around another: subclasses override :meth:`generate` only (calling
    ``self.inner.generate``); identity, hooks and the retry policy are the inner one's."""

    def __init__(self, inner: LLMProvider) -> None:
        # Not super().__init__: the retry policy, like the identity, is the inner one's.
        self.inner = inner
        self.name = inner.name
        self.dry_run = inner.dry_run
        self.label = inner.label
        self.retry_policy = inner.retry_policy
        self.caches_prompts = inner.caches_prompts

    async def generate(self, request: LLMRequest) -> LLMResponse:
        return await self.inner.generate(request)

    async def prepare(self, cases: Sequence[Planned]) -> None:
        await self.inner.prepare(cases)

    async def cached(self, request: LLMRequest) -> LLMResponse | None:
        return await self.inner.cached(request)

    def model_for(self, configured: str) -> str:
        return self.inner.model_for(configured)

    @property
    def settles_model(self) -> bool:
        return self.inner.settles_model

    async def preflight(self) -> None:
        await self.inner.preflight()

    async def keep(self, request: LLMRequest, response: LLMResponse) -> None:
        await self.inner.keep(request, response)

    async def aclose(self) -> None:
        await self.inner.aclose()

    def describe(self) -> dict[str, Any]:
        return self.inner.describe()


def _announced(
    generate: Callable[[LLMRequest], Awaitable[LLMResponse]], on_send: Callable[[], None]
) -> Callable[[LLMRequest], Awaitable[LLMResponse]]:
    """``generate``, calling ``on_send`` first each time."""

    async def announced(request: LLMRequest) -> LLMResponse:
        on_send()
        return await generate(request)

    return announced
