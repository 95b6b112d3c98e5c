"""Any OpenAI-compatible chat server (vLLM, Ollama, llama.cpp) through the ``openai`` SDK.

Replies are classified as the Anthropic path's are (:mod:`verification.llm.replies`); the
model list of ``GET /models`` is read as untrusted too: ids must be strings, are printed
escaped, and a long list is shown by its first :data:`MODELS_SHOWN`.
"""

from __future__ import annotations

import asyncio
import fnmatch
import logging
import re
from typing import TYPE_CHECKING, Any

from verification.cases import printable
from verification.errors import ConfigurationError, LLMError
from verification.llm.base import LLMProvider, LLMRequest, LLMResponse
from verification.llm.credentials import (
    redact,
    redact_log_records,
    url_credentials,
    without_credentials,
)
from verification.llm.replies import BODY_FAULTS, NotAReply, completion_reply, not_a_reply
from verification.llm.retry import RetryPolicy
from verification.llm.sdk_errors import (
    REDIRECTS,
    SdkWording,
    StatusReply,
    parse_retry_after,
    translate_sdk_error,
)

if TYPE_CHECKING:
    import openai

__all__ = [
    "MODELS_SHOWN",
    "OpenAICompatibleProvider",
    "server_error_text",
    "serves",
    "translate_openai_error",
]

logger = logging.getLogger(__name__)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")
MODELS_SHOWN = 20
"""How many of a server's model ids a message lists (a server may serve thousands)."""


def serves(served: list[str], model: str) -> bool:
    """Whether a server whose model list is ``served`` answers to ``model``: it is listed,
    or a wildcard route of a proxy matches it (LiteLLM lists ``*`` or ``openai/*``), or it
    is listed with Ollama's default tag (Ollama answers to ``qwen3`` for ``qwen3:latest``)."""
    if model in served or f"{model}:latest" in served:
        return True
    return any("*" in route and fnmatch.fnmatchcase(model, route) for route in served)


def _listing(served: list[str]) -> str:
    """The served ids as a message shows them: escaped, the first :data:`MODELS_SHOWN`."""
    if not served:
        return "none"
    shown = ", ".join(printable(model, 100) for model in served[:MODELS_SHOWN])
    more = len(served) - MODELS_SHOWN
    return shown + (f", and {more} more" if more > 0 else "")


def server_error_text(body: object, secrets: list[str | None]) -> str:
    """What a server said about an error, on one line, credentials redacted, at most 300
    characters (empty when it said nothing readable)."""
    said: object = body
    if isinstance(said, dict):
        said = said.get("error", said)
    if isinstance(said, dict):
        said = said.get("message") or said.get("detail") or ""
    text = _CONTROL.sub(" ", redact(str(said or ""), secrets)).strip()
    return text if len(text) <= 300 else text[:297] + "..."


def translate_openai_error(
    exc: Exception, base_url: str, *, secrets: list[str | None] | None = None
) -> LLMError:
    """Map an ``openai`` exception to the harness's tree
    (:func:`~verification.llm.sdk_errors.translate_sdk_error`); the server's own words are
    kept, credentials redacted."""
    import openai

    where = without_credentials(base_url)
    wording = SdkWording(
        sdk="OpenAI SDK",
        refused_key="set VERIFY_OPENAI_API_KEY if the server wants a key",
        timed_out=f"call to {where} timed out",
        unreachable=f"cannot reach {where}: is the server running? (VERIFY_OPENAI_BASE_URL)",
    )

    def status_reply(exc: openai.APIStatusError) -> StatusReply:
        said = server_error_text(exc.body, [*(secrets or []), *url_credentials(base_url)])
        text = f"server at {where} returned HTTP {exc.status_code}"
        headers = exc.response.headers if exc.response is not None else None
        return StatusReply(
            text + (f" ({said})" if said else ""), rate_limit_wait=parse_retry_after(headers)
        )

    return translate_sdk_error(exc, openai, wording, status_reply)


class OpenAICompatibleProvider(LLMProvider):
    """Chat completions on an OpenAI-compatible server."""

    name = "openai"

    def __init__(
        self,
        *,
        base_url: str,
        api_key: str | None = None,
        timeout: float = 300.0,
        retry_policy: RetryPolicy | None = None,
        model: str | None = None,
    ) -> None:
        super().__init__(retry_policy=retry_policy)
        import openai

        self.base_url = base_url
        self.timeout = timeout
        """Seconds the model-list check may take in all (a server dripping its list byte by
        byte keeps every read alive, not this deadline)."""
        self.model = model
        """The model asked (``--model``); ``None`` until preflight picks the server's only
        model."""
        self._secrets = [api_key]
        # No reply, journal line or report may show it: a server may echo it anywhere.
        redact_log_records([api_key, *url_credentials(base_url)])
        # Local servers ignore the key, but the SDK insists on one.
        self._client: openai.AsyncOpenAI = openai.AsyncOpenAI(
            base_url=base_url,
            api_key=api_key or "not-needed",
            max_retries=0,
            timeout=timeout,
            # A redirect would send the case (and the key) where nobody named: not followed.
            http_client=openai.DefaultAsyncHttpxClient(follow_redirects=False),
        )

    async def generate(self, request: LLMRequest) -> LLMResponse:
        import openai

        messages: list[dict[str, str]] = []
        if request.system:
            messages.append({"role": "system", "content": request.system})
        messages.append({"role": "user", "content": request.prompt})
        arguments: dict[str, Any] = {
            "model": request.model,
            "messages": messages,
            "max_tokens": request.max_tokens,
        }
        if request.temperature is not None:
            arguments["temperature"] = request.temperature
        try:
            completion = await self._client.chat.completions.create(**arguments)
            return completion_reply(completion)
        except openai.OpenAIError as exc:
            raise translate_openai_error(exc, self.base_url, secrets=self._secrets) from exc
        except BODY_FAULTS as exc:  # HTTP 200 with truncated JSON, an HTML page, no choice
            raise not_a_reply("chat completions", self.base_url, exc) from exc

    async def preflight(self) -> None:
        """Reach the server and settle the model: the one asked must be served; with none
        asked, a server serving exactly one model answers with it."""
        import openai
        from openai.pagination import AsyncPage

        where = without_credentials(self.base_url)
        nonsense: tuple[type[Exception], ...] = (openai.OpenAIError, *BODY_FAULTS)
        try:
            async with asyncio.timeout(self.timeout):
                # The same request and page as models.list(), its entries left as the JSON
                # objects they are: only the id is read, and the SDK's Model objects cost
                # about 45 us each (2 s for a server listing fifty thousand models).
                listing = await self._client.models.with_raw_response.list()
                page = listing.parse(to=AsyncPage[object])
                served = [_model_id(model) async for model in page]
        except TimeoutError:
            raise ConfigurationError(
                f"the server at {where} sent no complete model list within {self.timeout:g} s "
                "(VERIFY_REQUEST_TIMEOUT): is it overloaded, or is VERIFY_OPENAI_BASE_URL "
                "another kind of server?"
            ) from None
        except openai.APIConnectionError:
            raise ConfigurationError(
                f"cannot reach an OpenAI-compatible server at {where}: start it, or "
                "set VERIFY_OPENAI_BASE_URL, or run offline with --provider reference"
            ) from None
        except openai.APIStatusError as exc:
            if exc.status_code in (401, 403) or exc.status_code in REDIRECTS:
                # A refused key, or a redirect not followed: not a missing list (hunt zz).
                raise translate_openai_error(exc, self.base_url, secrets=self._secrets) from None
            if exc.status_code == 404 and await self._lists_under_v1():
                # Ollama's and llama.cpp's API is under /v1, and their root is often set.
                fixed = without_credentials(self.base_url.rstrip("/") + "/v1")
                raise ConfigurationError(
                    f"the server at {where} has no model list (HTTP 404), and {fixed} "
                    f"serves one: an OpenAI-compatible API is under /v1 there; set "
                    f"VERIFY_OPENAI_BASE_URL={fixed}"
                ) from None
            # Some servers serve chat but not /models; the first request will tell.
            if self.model is None:
                raise ConfigurationError(
                    f"the server at {where} does not list its models (HTTP {exc.status_code}): "
                    "name one with --model (or VERIFY_MODEL)"
                ) from None
            return
        except nonsense as exc:
            detail = str(exc) if isinstance(exc, NotAReply) else type(exc).__name__
            raise ConfigurationError(
                f"the server at {where} answered its model list with nonsense ({detail}); "
                "is VERIFY_OPENAI_BASE_URL an OpenAI-compatible API?"
            ) from None
        if self.model is not None:
            if served and not serves(served, self.model):
                raise ConfigurationError(
                    f"the server at {where} does not serve model {printable(self.model, 100)!r};"
                    f" it serves: {_listing(served)} (--model or VERIFY_MODEL)"
                )
            return
        if len(served) != 1:
            raise ConfigurationError(
                f"name the model with --model (or VERIFY_MODEL): the server at {where} "
                f"serves {_listing(served)}"
            )
        if not served[0].isprintable():
            # --model refuses such a name (checked_model): taken from the server, it reached
            # the terminal raw in a resume hint, and no resume or rerun could name it (hunt pp).
            raise ConfigurationError(
                f"the server at {where} serves one model, {printable(served[0], 100)}, whose "
                "name holds control characters or bytes that are not text, which no --model "
                "can name: serve it under a plain name"
            )
        self.model = served[0]
        logger.warning(
            "no --model given: using %s, the only model the server at %s serves",
            printable(self.model, 100),
            where,
        )

    async def _lists_under_v1(self) -> bool:
        """Whether the server lists its models under ``/v1`` where the base URL lacks it."""
        import openai

        if self.base_url.rstrip("/").endswith("/v1"):
            return False
        probe = self._client.with_options(base_url=self.base_url.rstrip("/") + "/v1")
        failed: tuple[type[BaseException], ...] = (openai.OpenAIError, TimeoutError, *BODY_FAULTS)
        try:
            async with asyncio.timeout(self.timeout):
                await probe.models.with_raw_response.list()
        except failed:
            return False
        return True

    def model_for(self, configured: str) -> str:
        return self.model or configured

    @property
    def settles_model(self) -> bool:
        return self.model is None  # with none asked, the server's one model is used

    async def aclose(self) -> None:
        await self._client.close()

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "base_url": without_credentials(self.base_url)}


def _model_id(model: Any) -> str:
    """The id of one entry of a model list (a JSON object, or whatever else the list held);
    raises :class:`NotAReply` when it has none."""
    identifier = model.get("id") if isinstance(model, dict) else getattr(model, "id", None)
    if not isinstance(identifier, str) or not identifier:
        raise NotAReply(f"a model whose id is {type(identifier).__name__}, not a name")
    return identifier
