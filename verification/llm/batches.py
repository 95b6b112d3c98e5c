"""Anthropic's Message Batches through the official SDK (``client.messages.batches``).

:class:`ClaudeBatches` submits requests under ``custom_id`` s, tells whether a batch has
ended and reads its results (in any order) as :class:`BatchResult` s: ``succeeded`` with
the reply (``source`` ``batch``), ``errored`` with the API's error type, ``canceled`` or
``expired`` with none. Each SDK call goes through the provider's retry policy and error
translation, as a Messages call does; the per-case time budget does not apply to a batch,
which has its own deadline (the runner's).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeVar

from verification.errors import ConfigurationError
from verification.llm.base import LLMProvider, LLMRequest, LLMResponse, WrappingProvider
from verification.llm.claude import ClaudeProvider, translate_anthropic_error
from verification.llm.replies import BODY_FAULTS, NotAReply, message_reply, not_a_reply

__all__ = [
    "BATCH_ID",
    "CUSTOM_ID",
    "MAX_BATCH_REQUESTS",
    "BatchResult",
    "ClaudeBatches",
    "batches_for",
]

CUSTOM_ID = re.compile(r"[a-zA-Z0-9_-]{1,64}")
"""What the API accepts as a request's ``custom_id``."""
BATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,128}")
"""A batch id ``batches.jsonl`` keeps (its ``BatchLine`` pattern)."""
MAX_BATCH_REQUESTS = 100_000
"""The most requests one batch may hold (the API's limit; 256 MB is the other)."""
MAX_BATCH_BYTES = 200 * 1024 * 1024
"""Bytes of requests per batch, under the API's 256 MB with room for its framing."""
ResultKind = Literal["succeeded", "errored", "canceled", "expired"]
T = TypeVar("T")


@dataclass(frozen=True)
class BatchResult:
    """One request's outcome in an ended batch."""

    custom_id: str
    kind: ResultKind
    response: LLMResponse | None = None
    """The reply, when ``succeeded``."""
    error: str | None = None
    """What went wrong, when not ``succeeded`` (no secret: the API's error type)."""


class ClaudeBatches:
    """The Message Batches of a :class:`~verification.llm.claude.ClaudeProvider`."""

    def __init__(self, provider: ClaudeProvider) -> None:
        self.provider = provider

    async def _call(self, call: Callable[[], Awaitable[T]]) -> T:
        import anthropic

        async def once(_: None) -> T:
            try:
                return await call()
            except anthropic.AnthropicError as exc:
                raise translate_anthropic_error(
                    exc, self.provider.base_url, secrets=self.provider.secrets
                ) from exc
            except BODY_FAULTS as exc:
                raise not_a_reply("Message Batches API", self.provider.base_url, exc) from exc

        # A batch has its own deadline: no per-case budget or attempt deadline here (the
        # SDK's timeout still bounds every read).
        policy = replace(self.provider.retry_policy, budget=None, attempt_deadline=None)
        return await policy.call(once, None)

    def params(self, request: LLMRequest) -> dict[str, Any]:
        """A request's ``params``: what the Messages API would be sent (a batch takes the
        temperature in them, not as an extra body)."""
        arguments = self.provider.arguments(request)
        extra = arguments.pop("extra_body", None) or {}
        return {**arguments, **extra}

    async def submit(self, requests: Sequence[tuple[str, LLMRequest]]) -> str:
        """Create a batch of ``(custom_id, request)`` pairs; its id."""
        client = self.provider.client
        body = [{"custom_id": cid, "params": self.params(request)} for cid, request in requests]

        async def create() -> str:
            batch = await client.messages.batches.create(requests=body)  # type: ignore[arg-type]
            return _batch_id(batch)

        return await self._call(create)

    async def ended(self, batch_id: str) -> bool:
        """Whether the batch has ended (its results can be read)."""
        client = self.provider.client

        async def retrieve() -> bool:
            batch = await client.messages.batches.retrieve(batch_id)
            status = getattr(batch, "processing_status", None)
            if not isinstance(status, str):
                raise NotAReply(f"processing_status is {type(status).__name__}, not a string")
            return status == "ended"

        return await self._call(retrieve)

    async def cancel(self, batch_id: str) -> None:
        """Ask the API to stop a batch (what it finished is still billed)."""
        client = self.provider.client
        await self._call(lambda: client.messages.batches.cancel(batch_id))

    async def results(self, batch_id: str) -> list[BatchResult]:
        """Every result of an ended batch."""
        client = self.provider.client

        async def read() -> list[BatchResult]:
            stream = await client.messages.batches.results(batch_id)
            return [_result(item) async for item in stream]

        return await self._call(read)


def _batch_id(batch: object) -> str:
    """A created batch's id, as ``batches.jsonl`` can keep it; else the body is no batch."""
    batch_id = getattr(batch, "id", None)
    if not isinstance(batch_id, str) or not BATCH_ID.fullmatch(batch_id):
        raise NotAReply(f"a batch without an id of letters, digits, '_' and '-' ({batch_id!r:.60})")
    return batch_id


def _result(item: Any) -> BatchResult:
    custom_id = str(item.custom_id)
    result = item.result
    kind = getattr(result, "type", None)
    if kind == "succeeded":
        try:
            reply = message_reply(result.message)
        except NotAReply as exc:
            return BatchResult(custom_id, "errored", error=f"not a reply of the API ({exc})")
        return BatchResult(custom_id, "succeeded", reply.model_copy(update={"source": "batch"}))
    if kind == "errored":
        error = getattr(getattr(result, "error", None), "error", None)
        what = getattr(error, "type", None) or "an error"
        return BatchResult(custom_id, "errored", error=f"the batch request failed: {what}"[:200])
    if kind in ("canceled", "expired"):
        return BatchResult(custom_id, kind, error=f"the batch request was {kind}")
    return BatchResult(custom_id, "errored", error=f"unknown batch result type {kind!r:.40}")


def batches_for(provider: LLMProvider) -> ClaudeBatches:
    """The Message Batches of ``provider`` (under any wrapper, the response cache's
    included); a :class:`ConfigurationError` for a provider without them."""
    inner = provider
    while isinstance(inner, WrappingProvider):
        inner = inner.inner
    if not isinstance(inner, ClaudeProvider):
        raise ConfigurationError(
            f"--batch sends a run through Anthropic's Message Batches API: the {provider.name} "
            "provider has none (use --provider anthropic, or leave out --batch)"
        )
    return ClaudeBatches(inner)
