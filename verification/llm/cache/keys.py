"""What a cached answer is found by, and which answers are worth keeping: the key over
every request field but the case id and the arm (credentials, query and fragment of the URL
no part of it, nor a trailing slash), and the stop reasons of a complete answer."""

from __future__ import annotations

import hashlib
import json

from verification.llm.base import MAX_REPLY_CHARS, LLMRequest, LLMResponse
from verification.llm.cache.schema import CACHE_FORMAT
from verification.store.urls import server_of

__all__ = ["COMPLETE_STOP_REASONS", "cache_key", "is_complete"]


COMPLETE_STOP_REASONS = frozenset({"end_turn", "stop_sequence"})
"""The stop reasons of a complete answer, the only ones kept. Not ``max_tokens``, ``refusal``
or ``model_context_window_exceeded``, nor an unknown or missing one."""


def cache_key(provider: str, base_url: str | None, request: LLMRequest) -> str:
    """The key of ``request`` sent to ``provider`` at ``base_url``: a SHA-256 over every
    request field but ``case_id``, ``arm`` and ``case_input`` (what the prompt says), so a
    field added to :class:`LLMRequest` is keyed too. Credentials, query and fragment of the
    URL are no part of it, nor a trailing slash (:func:`~verification.store.urls.server_of`),
    nor a model's ``:latest`` tag.

    Examples
    --------
    >>> request = LLMRequest(prompt="2+2?", model="m", case_id="a")
    >>> key = cache_key("openai", "http://user:secret@host:8000/v1?key=k", request)
    >>> key == cache_key("openai", "http://host:8000/v1", request.model_copy(
    ...     update={"case_id": "b"}))
    True
    >>> key == cache_key("openai", "http://host:8000/v1/", request.model_copy(
    ...     update={"arm": "bare", "case_input": {"n": 4}}))
    True
    >>> key == cache_key("openai", "http://host:8000/v1", request.model_copy(
    ...     update={"model": "m:latest"}))
    True
    >>> key == cache_key("openai", "http://host:8000/v1", request.model_copy(
    ...     update={"sample": 1}))
    False
    >>> key == cache_key("openai", "http://host:8000/v1", request.model_copy(
    ...     update={"thinking_budget": 2048}))
    False
    """
    fields = request.model_dump(
        mode="json",
        # No budget leaves the key as it was before thinking existed: old entries still hit.
        exclude={"case_id", "arm", "case_input"}
        if request.thinking_budget
        else {"case_id", "arm", "case_input", "thinking_budget"},
    )
    # Ollama's default tag: it answers to "llama3.2" as to "llama3.2:latest", one model.
    fields["model"] = fields["model"].removesuffix(":latest")
    data = {
        "format": CACHE_FORMAT,
        "provider": provider,
        "base_url": server_of(base_url),
        "request": fields,
    }
    canonical = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def is_complete(response: LLMResponse) -> bool:
    """Whether ``response`` is an answer worth serving again: the model ended its turn
    (:data:`COMPLETE_STOP_REASONS`) and said something no longer than a reply the parser
    reads (a server's 50 MB reply filled the cache with what no run judges: hunt qq)."""
    return (
        response.stop_reason in COMPLETE_STOP_REASONS
        and len(response.content) <= MAX_REPLY_CHARS
        and bool(response.content.strip())
    )
