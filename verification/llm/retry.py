"""The one retry policy of the harness, built with tenacity.

Providers only classify their errors (:class:`~verification.errors.RateLimitError`,
:class:`~verification.errors.TransientLLMError`, or a final error); this module decides how
often and how long to wait. A server's ``retry-after`` wins over the backoff, capped at
``max_wait``. Time is bounded twice: each attempt has a total deadline (a server that drips
its reply byte by byte keeps every read alive but not the attempt), and each call a budget
across all its attempts and waits. Nothing else in the package decorates with ``@retry``.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TypeVar

from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception_type,
    stop_after_attempt,
    wait_exponential,
    wait_random,
)

from verification.errors import RetryableLLMError, TransientLLMError

__all__ = ["RetryPolicy"]

T = TypeVar("T")
A = TypeVar("A")
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry a retryable model error."""

    max_retries: int = 4
    """Tries after the first."""
    initial_wait: float = 1.0
    """First backoff (seconds) when the server gives no ``retry-after``."""
    max_wait: float = 60.0
    """Longest single wait."""
    attempt_deadline: float | None = None
    """Seconds one attempt may take in all (connecting, waiting and reading); past it the
    attempt is a transient failure, retried. None: no deadline."""
    budget: float | None = None
    """Seconds one call may take across all its attempts and waits; past it the call fails
    with a transient error that is not retried. None: no budget."""

    def with_max_retries(self, max_retries: int) -> RetryPolicy:
        """The same policy with another retry count (itself when the count is its own:
        every request of a run asks this)."""
        return self if max_retries == self.max_retries else replace(self, max_retries=max_retries)

    def _wait(self, state: RetryCallState) -> float:
        error = state.outcome.exception() if state.outcome else None
        if isinstance(error, RetryableLLMError) and error.retry_after is not None:
            # Jitter on top of the server's wait: calls told the same retry-after at the
            # same moment must not all come back in the same instant.
            jitter = random.uniform(0.0, max(self.initial_wait, 0.25 * error.retry_after))
            return min(max(error.retry_after, 0.0) + jitter, self.max_wait)
        # Exponential backoff plus jitter, in the spelling every supported tenacity accepts.
        backoff = wait_exponential(multiplier=self.initial_wait, max=self.max_wait) + wait_random(
            0, self.initial_wait
        )
        return min(float(backoff(state)), self.max_wait)

    def _log(self, state: RetryCallState) -> None:
        error = state.outcome.exception() if state.outcome else None
        sleep = state.next_action.sleep if state.next_action else 0.0
        logger.warning(
            "model call failed (%s); retrying in %.1f s (try %d of %d)",
            error,
            sleep,
            state.attempt_number + 1,
            self.max_retries + 1,
        )

    async def call(self, fn: Callable[[A], Awaitable[T]], argument: A) -> T:
        """``await fn(argument)``, retried; the last error is raised when tries run out,
        a :class:`TransientLLMError` when the budget does."""
        loop = asyncio.get_running_loop()
        budget_at = None if self.budget is None else loop.time() + self.budget
        try:
            return await self._first_try(fn, argument, budget_at)
        except _BudgetSpent:
            raise self._spent() from None
        except RetryableLLMError as exc:
            first_failure = exc
        try:
            async with asyncio.timeout_at(budget_at):
                return await self._retried(fn, argument, first_failure)
        except TimeoutError:
            raise self._spent() from None

    async def _first_try(
        self, fn: Callable[[A], Awaitable[T]], argument: A, budget_at: float | None
    ) -> T:
        # Most calls succeed at once: the first try runs under one timer, the earlier of
        # the attempt's deadline and the call's budget (the budget's when they fall
        # together: its timer was set first and fired first), not one of each (a timer
        # costs more per call than the rest of the retry's bookkeeping). Expired, it is
        # what the other would have been had it fired first; the tries after it run under
        # what is left of the budget.
        loop = asyncio.get_running_loop()
        attempt_at = None if self.attempt_deadline is None else loop.time() + self.attempt_deadline
        budget_first = budget_at is not None and (attempt_at is None or budget_at <= attempt_at)
        timer = asyncio.timeout_at(budget_at if budget_first else attempt_at)
        try:
            async with timer:
                return await fn(argument)
        except TimeoutError:
            if budget_first and timer.expired():
                raise _BudgetSpent from None
            raise self._late() from None

    async def _retried(
        self, fn: Callable[[A], Awaitable[T]], argument: A, failure: RetryableLLMError
    ) -> T:
        # The first try's failure is handed to tenacity as its own first attempt, so
        # waits, logs and the count of tries are the policy's exactly (tenacity's
        # machinery costs more per call than the rest of the harness's bookkeeping, about
        # 30 us: a call that succeeds at once never meets it).
        first_failure: list[RetryableLLMError] = [failure]
        retrying = AsyncRetrying(
            retry=retry_if_exception_type(RetryableLLMError),
            stop=stop_after_attempt(self.max_retries + 1),
            wait=self._wait,
            before_sleep=self._log,
            reraise=True,
        )
        async for attempt in retrying:
            with attempt:
                if first_failure:
                    raise first_failure.pop()
                return await self._attempt(fn, argument)
        raise AssertionError("unreachable: tenacity re-raises the last error")

    async def _attempt(self, fn: Callable[[A], Awaitable[T]], argument: A) -> T:
        try:
            async with asyncio.timeout(self.attempt_deadline):
                return await fn(argument)
        except TimeoutError:
            raise self._late() from None

    def _late(self) -> TransientLLMError:
        # Time a request waits on the server counts: a local server answering one request
        # at a time queues the rest, and at the default concurrency they time out.
        return TransientLLMError(
            f"no complete reply within the attempt deadline of {self.attempt_deadline:g} s "
            "(VERIFY_REQUEST_TIMEOUT; time queued on the server counts: a local server that "
            "answers one request at a time may need --concurrency 1)"
        )

    def _spent(self) -> TransientLLMError:
        return TransientLLMError(
            f"no answer within the budget of {self.budget:g} s for one case, "
            "all tries and waits included"
        )


class _BudgetSpent(Exception):
    """The first try met the call's budget (no retryable error: nothing is tried again)."""
