"""Anthropic's Message Batches through the official SDK (``client.messages.batches``).

:class:`ClaudeBatches` submits requests under ``custom_id`` s, tells where a batch stands
(:class:`BatchStatus`), lists the batches made since a time, cancels one, and reads an
ended batch's results (in any order) as :class:`BatchResult` s: ``succeeded`` with the
reply (``source`` ``batch``), ``errored`` with the API's error type, ``canceled`` or
``expired`` with none. Each SDK call goes through the provider's retry policy and error
translation, as a Messages call does; the per-case time budget does not apply to a batch,
which has its own deadline (the runner's).

Results are read here, not by the SDK's ``results()``: the body is untrusted, so it is read
line by line, and a line that does not decode (not JSON, too deep, ``null``, cut short) is
only that request's missing answer (:attr:`BatchResults.unread`), never the whole batch's;
and the results URL the server names is fetched only on the base URL's origin, as the SDK
would send the API key to whatever host that URL names.
"""

from __future__ import annotations

import importlib
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal, TypeVar
from urllib.parse import urlsplit

from verification.cases import printable
from verification.errors import ConfigurationError, FatalLLMError, LLMError
from verification.llm.base import LLMProvider, LLMRequest, LLMResponse, WrappingProvider
from verification.llm.claude import ClaudeProvider, translate_anthropic_error
from verification.llm.credentials import without_credentials
from verification.llm.replies import BODY_FAULTS, NotAReply, message_reply, not_a_reply

__all__ = [
    "BATCH_ID",
    "CUSTOM_ID",
    "MAX_BATCH_REQUESTS",
    "BatchResult",
    "BatchResults",
    "BatchStatus",
    "ClaudeBatches",
    "batches_for",
    "no_batches",
]

CUSTOM_ID = re.compile(r"[a-zA-Z0-9_-]{1,64}")
"""What the API accepts as a request's ``custom_id``."""
BATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,128}")
"""A batch id ``batches.jsonl`` keeps (its ``BatchLine`` pattern)."""
MAX_BATCH_REQUESTS = 100_000
"""The most requests one batch may hold (the API's limit; 256 MB is the other)."""
MAX_BATCH_BYTES = 200 * 1024 * 1024
"""Bytes of requests per batch, under the API's 256 MB with room for its framing."""
MAX_RESULT_LINE_BYTES = 64 * 1024 * 1024
"""The longest results line read (one reply); a longer one is its request's missing answer."""
MAX_LISTED = 10_000
"""Batches a listing goes through at most (a server that pages forever ends there)."""
ResultKind = Literal["succeeded", "errored", "canceled", "expired"]
T = TypeVar("T")
logger = logging.getLogger(__name__)
_COUNTS = ("processing", "succeeded", "errored", "canceled", "expired")


@dataclass(frozen=True)
class BatchResult:
    """One request's outcome in an ended batch."""

    custom_id: str
    kind: ResultKind
    response: LLMResponse | None = None
    """The reply, when ``succeeded``."""
    error: str | None = None
    """What went wrong, when not ``succeeded`` (no secret: the API's error type)."""


@dataclass(frozen=True)
class BatchResults:
    """What an ended batch's results said."""

    results: list[BatchResult] = field(default_factory=list)
    unread: int = 0
    """Lines that did not decode: their requests have no result."""
    problem: str | None = None
    """Why no results could be read at all (``None`` when they were)."""


@dataclass(frozen=True)
class BatchStatus:
    """Where a batch stands, as the API says."""

    batch_id: str
    ended: bool
    results_url: str | None = None
    created_at: datetime | None = None
    requests: int | None = None
    """Its request count (``request_counts`` summed); ``None`` when the server gave none."""


class ClaudeBatches:
    """The Message Batches of a :class:`~verification.llm.claude.ClaudeProvider`."""

    def __init__(self, provider: ClaudeProvider) -> None:
        self.provider = provider

    def _no_batches_api(self) -> ConfigurationError:
        """The error of a server with no Message Batches API (a LiteLLM proxy answers 404):
        no retry mends it, nor a resume (a batch run resumes through batches), so no resume
        is offered: the remedy is a run without ``--batch``."""
        base_url = self.provider.base_url
        where = f"the server at {without_credentials(base_url)}" if base_url else "the server"
        return ConfigurationError(
            f"{where} offers no Message Batches API (it answered HTTP 404 where batches are "
            "made and listed): run again without --batch, which asks the same requests one "
            "by one"
        )

    async def _call(self, call: Callable[[], Awaitable[T]], *, whole_api: bool = False) -> T:
        """``call`` with the retry policy, its errors translated; ``whole_api``: a call on
        the batches themselves (make, list), where 404 means the server has no such API,
        not that one batch is unknown."""
        import anthropic

        async def once(_: None) -> T:
            try:
                return await call()
            except anthropic.NotFoundError as exc:
                if whole_api:
                    raise self._no_batches_api() from exc
                raise translate_anthropic_error(
                    exc, self.provider.base_url, secrets=self.provider.secrets
                ) from exc
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
        """Create a batch of ``(custom_id, request)`` pairs; its id. A call that got no
        answer, one that is no batch, or a server error (HTTP 5xx but the API's 529) is not
        retried: the server may have made the batch, and a second call would make (and
        bill) it twice. The error says so, and ``--resume`` looks for it."""
        import anthropic

        client = self.provider.client
        body = [{"custom_id": cid, "params": self.params(request)} for cid, request in requests]
        base_url = self.provider.base_url

        async def create() -> str:
            try:
                batch = await client.messages.batches.create(requests=body)  # type: ignore[arg-type]
                return _batch_id(batch)
            except anthropic.APIConnectionError as exc:  # timed out or dropped, perhaps made
                lost: LLMError = translate_anthropic_error(
                    exc, base_url, secrets=self.provider.secrets
                )
            except anthropic.APIStatusError as exc:
                # A server error may come after the batch was made (a gateway's 502 or 504
                # once the API behind it had made it: hunt qq made three). 429 and the API's
                # own 529 (overloaded) refuse before anything is made: retried as any call.
                if exc.status_code < 500 or exc.status_code == 529:
                    raise
                lost = translate_anthropic_error(exc, base_url, secrets=self.provider.secrets)
            except BODY_FAULTS as exc:
                lost = not_a_reply("Message Batches API", base_url, exc)
            raise LLMError(
                f"{lost}. Whether the batch was made is not known, so it was not sent again: "
                "--resume looks for it before sending anything"
            ) from None

        return await self._call(create, whole_api=True)

    async def status(self, batch_id: str) -> BatchStatus:
        """Where the batch stands."""
        client = self.provider.client

        async def retrieve() -> BatchStatus:
            return _status(await client.messages.batches.retrieve(batch_id))

        return await self._call(retrieve)

    async def ended(self, batch_id: str) -> bool:
        """Whether the batch has ended (its results can be read)."""
        return (await self.status(batch_id)).ended

    async def listed(self, since: datetime) -> list[BatchStatus]:
        """The batches the key sees that were created at ``since`` or later, newest first
        (the API lists newest first: the listing stops at the first older one)."""
        client = self.provider.client

        async def listing() -> list[BatchStatus]:
            found = []
            async for batch in client.messages.batches.list(limit=100):
                status = _status(batch)
                if status.created_at is None:
                    raise NotAReply(f"batch {status.batch_id} has no creation time")
                if status.created_at < since:
                    break
                found.append(status)
                if len(found) >= MAX_LISTED:
                    # No retry can mend it: each would page through the same listing again.
                    raise FatalLLMError(f"a listing of more than {MAX_LISTED} batches made since")
            return found

        return await self._call(listing, whole_api=True)

    async def cancel(self, batch_id: str) -> None:
        """Ask the API to stop a batch (what it finished is still billed)."""
        client = self.provider.client
        await self._call(lambda: client.messages.batches.cancel(batch_id))

    async def results(self, batch_id: str, requests: int) -> BatchResults:
        """Every result of an ended batch of ``requests`` requests that could be read
        (lines past twice as many, a server's endless stream, are not read)."""
        status = await self.status(batch_id)
        if status.results_url is None:
            return BatchResults(problem="the batch ended with no results URL")
        url = self._on_our_origin(batch_id, status.results_url)
        client = self.provider.client
        response_class = _transport_response()

        async def read() -> BatchResults:
            response = await client.get(
                url,
                cast_to=response_class,
                stream=True,
                options={"headers": {"Accept": "application/binary"}},
            )
            try:
                return await _read_results(response.aiter_bytes(), 2 * requests + 100)
            finally:
                await response.aclose()

        return await self._call(read)

    def _on_our_origin(self, batch_id: str, url: str) -> str:
        """``url`` when it is on the base URL's origin; else the API's own results path on
        the base URL (the request carries the API key: no other host gets it)."""
        base = str(self.provider.client.base_url)
        if _origin(url) == _origin(base):
            return url
        logger.warning(
            "batch %s: the server names its results at %s, on another origin than the base "
            "URL %s: not fetched there (the API key would go with it), read from the base URL",
            batch_id,
            printable(without_credentials(url) or "", 200),
            without_credentials(base),
        )
        return f"/v1/messages/batches/{batch_id}/results"


def _batch_id(batch: object) -> str:
    """A created batch's id, as ``batches.jsonl`` can keep it; else the body is no batch."""
    batch_id = getattr(batch, "id", None)
    if not isinstance(batch_id, str) or not BATCH_ID.fullmatch(batch_id):
        raise NotAReply(f"a batch without an id of letters, digits, '_' and '-' ({batch_id!r:.60})")
    return batch_id


_KNOWN_STATUSES = frozenset({"in_progress", "canceling", "ended"})
"""The Message Batches API's processing statuses."""
_UNKNOWN_SEEN: set[str] = set()


def _status(batch: object) -> BatchStatus:
    """A listed or retrieved batch's status; else the body is no batch."""
    status = getattr(batch, "processing_status", None)
    if not isinstance(status, str):
        raise NotAReply(f"processing_status is {type(status).__name__}, not a string")
    if status not in _KNOWN_STATUSES and status not in _UNKNOWN_SEEN:
        # Polled as in progress until its deadline: said once, not silently (hunt qq).
        _UNKNOWN_SEEN.add(status)
        logger.warning(
            "batch %s: processing status %s is none the API documents; waited on as in "
            "progress until VERIFY_BATCH_DEADLINE",
            printable(str(getattr(batch, "id", "?")), 80),
            printable(status, 60),
        )
    counts = getattr(batch, "request_counts", None)
    numbers = [getattr(counts, kind, None) for kind in _COUNTS]
    created = getattr(batch, "created_at", None)
    url = getattr(batch, "results_url", None)
    return BatchStatus(
        batch_id=_batch_id(batch),
        ended=status == "ended",
        results_url=url if isinstance(url, str) and url else None,
        created_at=created if isinstance(created, datetime) and created.tzinfo else None,
        requests=sum(n for n in numbers if isinstance(n, int))
        if all(type(n) is int for n in numbers)
        else None,
    )


def _origin(url: str) -> tuple[str, str, int | None]:
    """Scheme, host and port (the scheme's default when none is written)."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = -1  # a port no origin of ours has
    scheme = parts.scheme.lower()
    return scheme, (parts.hostname or "").lower(), port or {"http": 80, "https": 443}.get(scheme)


def _transport_response() -> type[Any]:
    """The response class of the SDK's HTTP library (``httpx``, or ``httpx2`` in newer SDKs):
    given as ``cast_to``, the SDK hands back the streamed response itself, unparsed."""
    import anthropic

    for cls in anthropic.DefaultAsyncHttpxClient.__mro__:
        package = cls.__module__.split(".")[0]
        if package not in ("anthropic", "builtins"):
            response: type[Any] = importlib.import_module(package).Response
            return response
    raise ConfigurationError("the anthropic SDK's HTTP library could not be found")


async def _read_results(chunks: AsyncIterator[bytes], most: int) -> BatchResults:
    """The results of a JSONL body, line by line, up to ``most`` lines: a line that does not
    decode is counted in ``unread`` and skipped (its request has no result), the others are
    kept."""
    results: list[BatchResult] = []
    unread = 0
    line = bytearray()
    too_long = False

    def take(raw: bytes | None) -> None:
        nonlocal unread
        result = None if raw is None else _decoded(raw)
        if result is None:
            unread += 1
        else:
            results.append(result)

    async for chunk in chunks:
        *whole, rest = chunk.split(b"\n")
        for part in whole:
            line += part
            if too_long or len(line) > MAX_RESULT_LINE_BYTES:
                take(None)
            elif line.strip():
                take(bytes(line))
            line.clear()
            too_long = False
            if len(results) + unread >= most:  # no batch has more: the rest is not read
                return BatchResults(results, unread)
        line += rest
        if len(line) > MAX_RESULT_LINE_BYTES:  # held no longer: the line is lost anyway
            too_long = True
            line.clear()
    if too_long or line.strip():  # a last line without its newline: cut short, or not
        take(None if too_long else bytes(line))
    return BatchResults(results, unread)


def _decoded(line: bytes) -> BatchResult | None:
    """One results line's result; ``None`` when it is no result line."""
    from anthropic.types.messages import MessageBatchIndividualResponse

    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        return None
    custom_id = data.get("custom_id") if isinstance(data, dict) else None
    if not isinstance(custom_id, str) or not CUSTOM_ID.fullmatch(custom_id):
        return None
    try:
        return _result(MessageBatchIndividualResponse.construct(**data))
    except BODY_FAULTS:
        return None


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
        raise no_batches(provider.name)
    return ClaudeBatches(inner)


def no_batches(provider: str) -> ConfigurationError:
    """The refusal of ``--batch`` with ``provider``, which has no Message Batches (the run's
    and ``--estimate``'s, which priced such a run at half: hunt ii)."""
    return ConfigurationError(
        f"--batch sends a run through Anthropic's Message Batches API: the {provider} "
        "provider has none (use --provider anthropic, or leave out --batch)"
    )
