"""The provider that answers from the response cache when it can and from the provider it
wraps when it must, keeping each complete live answer once the run has journalled it."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import TypeVar

from verification.llm.base import LLMProvider, LLMRequest, LLMResponse, WrappingProvider
from verification.llm.cache.keys import cache_key, is_complete
from verification.llm.cache.responses import ResponseCache
from verification.store.urls import server_of

__all__ = ["CachingProvider"]


logger = logging.getLogger(__name__)
T = TypeVar("T")


class CachingProvider(WrappingProvider):
    """Answers from a :class:`ResponseCache` when it can, from the wrapped provider when
    it must, and keeps each complete live answer (:func:`is_complete`).

    The wrapped provider's preflight waits for the first miss, unless the model depends on
    it (``settles_model``) or nothing from this provider's server is cached yet.
    """

    def __init__(self, inner: LLMProvider, cache: ResponseCache) -> None:
        if inner.dry_run:
            raise ValueError(f"a dry run ({inner.name}) is never cached")
        super().__init__(inner)
        self.cache = cache
        # One server, however its URL is spelt (a trailing slash): one set of answers.
        self._server = server_of(inner.describe().get("base_url"))
        self._preflight_done = False
        self._preflight_error: BaseException | None = None
        self._preflight_lock = asyncio.Lock()
        self._asked: dict[str, asyncio.Future[LLMResponse | None]] = {}
        """Each request out now or answered live and not yet kept, by key (one event loop's:
        a run's)."""

    async def _in_thread(self, call: Callable[[], T]) -> T:
        """``call()`` in a worker thread; when the caller is cancelled (Ctrl-C, SIGTERM), a
        wait of that thread for another process's lock ends too, so the process can."""
        try:
            return await asyncio.to_thread(call)
        except asyncio.CancelledError:
            self.cache.stop_waiting()
            raise

    async def preflight(self) -> None:
        holds = functools.partial(self.cache.holds_answers_from, self.name, self._server)
        if self.inner.settles_model or not await self._in_thread(holds):
            await self._preflight_once()

    async def _preflight_once(self) -> None:
        async with self._preflight_lock:
            if self._preflight_error is not None:  # a failed check fails every request alike
                raise self._preflight_error
            if not self._preflight_done:
                try:
                    await self.inner.preflight()
                except Exception as exc:
                    self._preflight_error = exc
                    raise
                self._preflight_done = True

    async def cached(self, request: LLMRequest) -> LLMResponse | None:
        key = cache_key(self.name, self._server, request)
        return await self._in_thread(functools.partial(self.cache.get, key))

    async def generate(self, request: LLMRequest) -> LLMResponse:
        key = cache_key(self.name, self._server, request)
        cached = await self._in_thread(functools.partial(self.cache.get, key))
        if cached is not None:
            return cached
        while (asked := self._asked.get(key)) is not None:
            # The same request is out already, or answered and not yet journalled (a copy of
            # an input in the same segment of the plan: n_queens' tiers repeat theirs): its
            # complete answer serves this one, as the cache will once it is kept. One that
            # fails or is cut off serves nothing: the next copy in line is asked.
            answer = await asyncio.shield(asked)
            if answer is not None:
                return answer.model_copy(update={"source": "cache"})
        asking: asyncio.Future[LLMResponse | None] = asyncio.get_running_loop().create_future()
        self._asked[key] = asking
        response = None
        try:
            await self._preflight_once()
            response = await self.inner.generate(request)
            return response
        finally:
            complete = response is not None and is_complete(response)
            asking.set_result(response if complete else None)
            if not complete and self._asked.get(key) is asking:
                del self._asked[key]

    async def keep(self, request: LLMRequest, response: LLMResponse) -> None:
        """Keep a complete live answer, now that it is journalled; a write that fails is a
        warning (the answer is safe in the journal), never an error of the run."""
        await self.inner.keep(request, response)
        key = cache_key(self.name, self._server, request)
        if await self._put(key, request, response):
            # Only now does the cache serve its copies (one asked while the write was under
            # way went out and was paid again; hunt dd). An entry still out is the next copy
            # in line after a cut-off answer, under the same key: it stays. After a write
            # that failed, the answer stays to serve the run's copies.
            asked = self._asked.get(key)
            if asked is not None and asked.done():
                del self._asked[key]

    async def _put(self, key: str, request: LLMRequest, response: LLMResponse) -> bool:
        """Write a complete live answer to the cache: whether it was kept."""
        if response.source not in ("live", "batch") or not is_complete(response):
            return False
        put = functools.partial(
            self.cache.put,
            key,
            response,
            provider=self.name,
            server=self._server,
            model=request.model,
        )
        try:
            await self._in_thread(put)
        except Exception as exc:  # put reports what it knows; anything else costs only the entry
            logger.warning(
                "response cache %s: an answer was not kept (%s: %s); it is in the run's "
                "journal where that could be written, and a repeated run asks for it again",
                self.cache.path,
                type(exc).__name__,
                exc,
            )
            return False
        return self.cache.usable  # a cache given up on keeps nothing, and says so once
