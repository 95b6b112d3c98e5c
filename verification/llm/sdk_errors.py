"""The one translation of the model SDKs' errors into the harness's tree.

Both SDKs (``anthropic``, ``openai``) report a failed call alike: an HTTP error status is an
``APIStatusError`` (status, headers, body), a call past its timeout an ``APITimeoutError``,
a connection that failed or dropped an ``APIConnectionError``. The classification is made
here once: 429 is a :class:`~verification.errors.RateLimitError`, 408 and 5xx (529
"overloaded" included) are transient, 401 and 403 a refused key, any other status a request
the server will never take; a timeout and a lost connection are transient, anything else the
SDK raises is final. Each provider says only how it words these (:class:`SdkWording`) and
what a status error's text, detail and waits are (:class:`StatusReply`).
"""

from __future__ import annotations

import email.utils
import math
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from verification.cases import printable
from verification.errors import (
    AuthenticationError,
    ContextWindowError,
    InvalidRequestError,
    LLMError,
    RateLimitError,
    TransientLLMError,
)
from verification.store.urls import without_credentials

__all__ = [
    "REDIRECTS",
    "SdkWording",
    "StatusReply",
    "parse_retry_after",
    "redirected",
    "status_error",
    "translate_sdk_error",
]


_CONTEXT_WINDOW = re.compile(
    r"context_length_exceeded|context length|exceed_context_size|context size"
    r"|exceeds? (?:the )?context limit|context window|prompt is too long"
    r"|tokens \+ `?max_new_tokens`? must be",
    re.IGNORECASE,
)
"""How servers word a request that does not fit the model's context: OpenAI's and vLLM's
code and "maximum context length", SGLang's "longer than the model's context length",
llama.cpp's ``exceed_context_size_error``, TGI's "`inputs` tokens + `max_new_tokens` must
be <= N", the Messages API's "input length and `max_tokens` exceed context limit" and
"prompt is too long"."""


def _seconds(text: str, scale: float = 1.0) -> float | None:
    try:
        value = float(text) * scale
    except ValueError:
        return None
    return max(value, 0.0) if math.isfinite(value) else None


def parse_retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``retry-after`` (seconds or an HTTP date);
    ``None`` when neither says anything usable (``soon``, ``nan``, a broken date), which
    means "use the backoff"."""
    if not headers:
        return None
    milliseconds = _seconds(headers.get("retry-after-ms") or "", 1 / 1000)
    if milliseconds is not None:
        return milliseconds
    value = (headers.get("retry-after") or "").strip()
    if not value:
        return None
    seconds = _seconds(value)
    if seconds is not None:
        return seconds
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:  # a date without a zone is not an HTTP date
        return None
    return max(when.timestamp() - time.time(), 0.0)


@dataclass(frozen=True)
class StatusReply:
    """What a provider reads from an HTTP error status: what to say, and how long to wait."""

    text: str
    """What every message of this status starts with (the server and the status)."""
    detail: str = ""
    """What the server said, credentials redacted, appended when it will never take the
    request (empty when ``text`` holds it already)."""
    rate_limit_wait: float | None = None
    """Seconds to wait before another try after a 429 (``None``: the backoff's)."""
    transient_wait: float | None = None
    """Seconds to wait before another try after a 408 or 5xx (``None``: the backoff's)."""


@dataclass(frozen=True)
class SdkWording:
    """How a provider words the failures its SDK reports."""

    sdk: str
    """The SDK's name in a message about an error nobody expected (``Anthropic SDK``)."""
    refused_key: str
    """What a 401 or 403 adds after the status: the fix."""
    timed_out: str
    """A call past its timeout."""
    unreachable: str
    """A connection that failed or dropped."""


def status_error(status: int, reply: StatusReply, refused_key: str) -> LLMError:
    """The harness's error for an HTTP error ``status`` (see the module's docstring)."""
    if status == 429:
        return RateLimitError(reply.text, status_code=status, retry_after=reply.rate_limit_wait)
    if status >= 500 or status == 408:
        return TransientLLMError(reply.text, status_code=status, retry_after=reply.transient_wait)
    if status in (401, 403):
        return AuthenticationError(f"{reply.text}: {refused_key}", status_code=status)
    if status in (400, 413) and _CONTEXT_WINDOW.search(reply.text + reply.detail):
        return ContextWindowError(reply.text + reply.detail, status_code=status)
    return InvalidRequestError(reply.text + reply.detail, status_code=status)


REDIRECTS = frozenset({301, 302, 303, 307, 308})
"""The HTTP statuses that send a request elsewhere (``Location``)."""


def redirected(location: str | None) -> str:
    """What a redirect's error adds: where the server sent the request, and the fix.
    Redirects are not followed (the providers' clients are made so): the request carries
    the case, a private seed's too, and the key, to the base URL that was set and nowhere
    else (hunt qq)."""
    where = printable(without_credentials(location) or "", 200) if location else "elsewhere"
    return (
        f": the server redirected the request to {where}; redirects are not followed (the "
        "case and the key go only to the base URL set): set the base URL to where the API "
        "answers"
    )


def translate_sdk_error(
    exc: Exception,
    sdk: ModuleType,
    wording: SdkWording,
    status_reply: Callable[[Any], StatusReply],
) -> LLMError:
    """Map ``exc``, raised by ``sdk`` (the ``anthropic`` or ``openai`` module), to the
    harness's tree; ``status_reply`` reads an ``APIStatusError``."""
    if isinstance(exc, sdk.APIStatusError):
        if exc.status_code in REDIRECTS:
            return InvalidRequestError(
                status_reply(exc).text + redirected(exc.response.headers.get("location")),
                status_code=exc.status_code,
            )
        return status_error(exc.status_code, status_reply(exc), wording.refused_key)
    if isinstance(exc, sdk.APITimeoutError):  # before its base class, APIConnectionError
        return TransientLLMError(wording.timed_out)
    if isinstance(exc, sdk.APIConnectionError):
        return TransientLLMError(wording.unreachable)
    return LLMError(f"{wording.sdk} error: {type(exc).__name__}")
