"""One classification of what a model server answers with HTTP 200, for every provider.

The SDKs trust a 200: they build their reply objects without validating them, so a proxy's
HTML page, ``null``, a list, a choice without a message or a number where text belongs
arrive as odd values rather than errors. Here each reply is read field by field, and ends
as one of two things:

- **not a reply of the API** (:class:`NotAReply`, or any :data:`BODY_FAULTS` error the SDK
  raised while decoding the body): a fault of this attempt's transport, turned by
  :func:`not_a_reply` into a :class:`~verification.errors.TransientLLMError` that the one
  retry policy retries and the run then lists as an infrastructure error of the case;
- **a reply** (:class:`~verification.llm.base.LLMResponse`), whose text may be empty (content
  ``null``, no text block): the parser then fails that case at level 1 ("the reply is
  empty"), a model's failure, never the harness's.

Text is kept exactly as it came (lone surrogates and escape codes included): the journal
and the cache store it escaped, and reports and messages print it escaped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from verification.errors import NotAReply, TransientLLMError
from verification.llm.base import LLMResponse
from verification.llm.credentials import without_credentials

__all__ = [
    "BODY_FAULTS",
    "KNOWN_STOP_REASONS",
    "OPENAI_STOP_REASONS",
    "NotAReply",
    "completion_reply",
    "message_reply",
    "not_a_reply",
]

BODY_FAULTS: tuple[type[Exception], ...] = (
    ValueError,  # truncated or broken JSON (and NotAReply)
    TypeError,
    AttributeError,  # a body the SDK left as a str, list or None
    KeyError,
    IndexError,
    UnicodeError,
    RecursionError,  # JSON nested deeper than Python recurses
)
"""What an SDK raises while it decodes or we read a body that is no reply."""

OPENAI_STOP_REASONS = {
    "length": "max_tokens",
    "stop": "end_turn",
    "eos": "end_turn",  # llama.cpp's and some proxies' word for the model's end of turn
    "content_filter": "refusal",
}
"""OpenAI's finish reasons in the Messages API's words, which the rest of the harness uses
(vLLM's ``abort``, a request the server gave up, is kept as it is: see
:func:`~verification.run.answers.stopped_early`)."""
REASONING_ONLY_STOP = "reasoning_only"
"""The stop reason of a finished reply whose text is empty while its reasoning field
(``reasoning_content``, ``reasoning``) holds text: the model never wrote its answer, or the
server's reasoning parser filed the answer as reasoning."""
KNOWN_STOP_REASONS = frozenset(
    {
        "end_turn",
        "stop_sequence",
        "max_tokens",
        "model_context_window_exceeded",
        "refusal",
        "pause_turn",
        "abort",
        REASONING_ONLY_STOP,
    }
)
"""The stop reasons the harness reads (the Messages API's for a request without tools,
OpenAI's mapped by :data:`OPENAI_STOP_REASONS`, vLLM's ``abort`` and
:data:`REASONING_ONLY_STOP`); a reply with any other, or none, is judged as a finished
answer and the terminal says so (:func:`~verification.cli.run_output.print_run_notes`)."""
_REASONING_FIELDS = ("reasoning_content", "reasoning")

NO_MODEL = "unknown (the server named none)"
"""The model of a reply whose server named none (OpenAI-compatible servers may not)."""


def not_a_reply(api: str, base_url: str | None, error: BaseException) -> TransientLLMError:
    """The retryable error for a body that is not a ``api`` reply (``Messages API``,
    ``chat completions``), naming the server without credentials and what was wrong."""
    where = f" at {without_credentials(base_url)}" if base_url else ""
    detail = str(error)[:200] if isinstance(error, NotAReply) else type(error).__name__
    return TransientLLMError(
        f"the server{where} answered HTTP 200 with a body that is not a {api} reply ({detail})"
    )


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise NotAReply(f"{what} is {type(value).__name__}, not a string")
    return value


def _optional_text(value: object, what: str) -> str | None:
    return None if value is None else _text(value, what)


def _usage(value: object) -> dict[str, Any]:
    """A usage object's fields by name (``None``: none reported): which of them are token
    counts :class:`~verification.llm.base.LLMResponse` decides, for every source alike."""
    if value is None:
        return {}
    dump = getattr(value, "model_dump", None)
    # warnings=False: a server's float or string counts are left out there, not warned of
    # on the user's terminal by the SDK model's serializer.
    counts = dump(warnings=False) if callable(dump) else value
    if not isinstance(counts, Mapping):
        raise NotAReply(f"usage is {type(value).__name__}, not an object")
    return {str(key): count for key, count in counts.items()}


def _blocks_text(blocks: object, what: str) -> str:
    """The text blocks of a content list, joined; other blocks (thinking, tool use) skipped."""
    if not isinstance(blocks, list):
        raise NotAReply(f"{what} is {type(blocks).__name__}, not a list")
    texts = []
    for block in blocks:
        kind = block.get("type") if isinstance(block, Mapping) else getattr(block, "type", None)
        if not isinstance(kind, str):
            raise NotAReply(f"{what} holds a {type(block).__name__} that is no typed block")
        if kind == "text":
            text = block.get("text") if isinstance(block, Mapping) else getattr(block, "text", None)
            texts.append(_text(text, f"a text block of {what}"))
    return "".join(texts)


def _an_object(body: object, api: str) -> None:
    """Raise when the SDK handed back the body itself: it was no JSON object."""
    if body is None:
        raise NotAReply(f"the body is null, not a {api} object")
    if isinstance(body, list):
        raise NotAReply(f"the body is a JSON array, not a {api} object")
    if isinstance(body, str | bytes | int | float):  # bool is an int
        raise NotAReply(f"the body is no JSON object (an HTML page? a bare value?), not a {api}")


def message_reply(message: Any) -> LLMResponse:
    """The reply of an Anthropic ``Message``; raises :class:`NotAReply` when it is none."""
    _an_object(message, "Message")
    if getattr(message, "type", "message") != "message":
        raise NotAReply(f"its type is {getattr(message, 'type', None)!r}, not 'message'")
    # Content null is a valid reply with no text, as OpenAI's is: its case fails at level 1.
    content = message.content
    return LLMResponse(
        content="" if content is None else _blocks_text(content, "content"),
        model=_text(message.model, "model"),
        usage=_usage(message.usage),
        stop_reason=_optional_text(message.stop_reason, "stop_reason"),
    )


def completion_reply(completion: Any) -> LLMResponse:
    """The reply of an OpenAI ``ChatCompletion`` (its first choice); raises
    :class:`NotAReply` when it is none. Content given as a list of text parts is joined;
    ``null`` content is an empty reply (a ``refusal`` beside it says the model refused)."""
    _an_object(completion, "ChatCompletion")
    choices = completion.choices
    if not isinstance(choices, list) or not choices:
        raise NotAReply("no list of choices")
    choice = choices[0]
    message = choice.message
    if message is None:
        raise NotAReply("its choice has no message")
    content = message.content
    if content is None:
        text = ""
    elif isinstance(content, list):
        text = _blocks_text(content, "the message content")
    else:
        text = _text(content, "the message content")
    finish = _optional_text(choice.finish_reason, "finish_reason")
    stop_reason = OPENAI_STOP_REASONS.get(finish or "", finish)
    if not text and isinstance(getattr(message, "refusal", None), str) and message.refusal:
        stop_reason = "refusal"
    elif not text.strip() and stop_reason in (None, "end_turn") and _reasoning(message):
        stop_reason = REASONING_ONLY_STOP
    return LLMResponse(
        content=text,
        model=_optional_text(completion.model, "model") or NO_MODEL,
        usage=_usage(completion.usage),
        stop_reason=stop_reason,
    )


def _reasoning(message: Any) -> bool:
    """Whether a chat message's reasoning field (vLLM's, llama.cpp's, Ollama's, LiteLLM's)
    holds text."""
    return any(
        isinstance(reasoning := getattr(message, name, None), str) and reasoning.strip()
        for name in _REASONING_FIELDS
    )
