"""Requests in flight to one model, adapting to the provider's rate limits.

An :class:`AdaptiveLimiter` allows at most ``--concurrency`` (its ceiling) and starts slow,
as TCP does: at a quarter of it (at least four), growing by one with each success while
tries wait for a slot and nothing has been refused, so the limit doubles each round trip
and a server allowing fewer meets one small burst of 429s rather than the whole ceiling at
once. A try that meets a rate limit (429) ends the slow start and cuts the limit to the
requests still in flight (before its slot is given back, so no waiting try takes it at
the old limit), at least one: after a burst of 429s it rests where the server
stopped refusing. Its ``retry-after`` (or the ``anthropic-ratelimit-*`` reset the provider
read) holds every new start until then. From then on the limit grows back by one after
twice its size of successes in a row while tries wait for a slot, never past the ceiling.
Overload (529) and
other transient failures are the retry policy's to back off from: they do not cut. A new
try starts only while fewer than the limit are in flight.

A case holds a :class:`Slot`: it waits its turn before its time budget starts, its first
try takes the slot at once, and every later try (a retry, a repair) queues again, so a case
sleeping before its retry holds no slot. One limiter per model: a run asking several models
keeps their limits apart.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import TypeVar

from verification.errors import RateLimitError

__all__ = ["AdaptiveLimiter", "Slot", "starting_limit"]

A = TypeVar("A")
T = TypeVar("T")


INITIAL_WINDOW = 4
"""No limiter starts below this (or its ceiling): as TCP's initial window is several
segments, a small ``--concurrency`` gains nothing from a slower start."""


def starting_limit(ceiling: int) -> int:
    """Where a limiter of ``ceiling`` starts: a quarter of it, rounded up, at least
    :data:`INITIAL_WINDOW`, at most the ceiling."""
    return min(ceiling, max(INITIAL_WINDOW, -(-ceiling // 4)))


class AdaptiveLimiter:
    """How many requests to one model may be in flight, adapted to its 429s."""

    def __init__(
        self,
        limit: int,
        *,
        start: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        max_pause: float = 60.0,
    ) -> None:
        if limit < 1:
            raise ValueError(f"a limit of at least 1, not {limit}")
        self.max_pause = max_pause
        """The longest a 429 holds new starts, whatever its Retry-After says (the retry
        policy's longest wait: a server asking for a billion seconds would otherwise hold
        every queued case, none of whose budgets has started, for good)."""
        self.ceiling = limit
        """The most it allows (``--concurrency``)."""
        self.limit = starting_limit(limit) if start is None else max(1, min(start, limit))
        self.in_slow_start = self.limit < limit
        """Growing by one per success until the first 429 (or the ceiling)."""
        self.in_flight = 0
        self.peak = 0
        """The most in flight at once."""
        self.rate_limited_count = 0
        """Tries that met a 429."""
        self.lowest = limit
        """The lowest a 429 cut the limit to (the ceiling while none did)."""
        self._clock = clock
        self._paused_until = 0.0
        self._successes = 0
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._timer: asyncio.TimerHandle | None = None
        self._timer_loop: asyncio.AbstractEventLoop | None = None

    # -- slots

    def _can_start(self) -> bool:
        return self.in_flight < self.limit and self._clock() >= self._paused_until

    def _take(self) -> None:
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)

    async def acquire(self) -> None:
        """Wait for a free slot (first come, first served) and take it."""
        if not self._waiters and self._can_start():
            self._take()
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        self._wake()
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.release()  # granted in the same instant it was cancelled
            elif waiter in self._waiters:
                # Not there when a slot given back between its cancelling and now passed
                # over it (a cancelled future takes no slot) and dropped it from the queue.
                self._waiters.remove(waiter)
            raise

    def release(self) -> None:
        """Give a slot back."""
        self.in_flight -= 1
        self._wake()

    def _wake(self) -> None:
        while self._waiters and self._can_start():
            waiter = self._waiters.popleft()
            if not waiter.done():
                self._take()
                waiter.set_result(None)
        pause = self._paused_until - self._clock()
        if self._waiters and pause > 0:
            loop = asyncio.get_running_loop()
            # A timer of an earlier event loop (a runner asked twice) will never fire.
            if self._timer is None or self._timer_loop is not loop:
                self._timer, self._timer_loop = loop.call_later(pause, self._resume), loop

    def _resume(self) -> None:
        self._timer = None
        self._wake()

    def slot(self) -> Slot:
        """A case's claim on this limiter (``async with limiter.slot() as slot``)."""
        return Slot(self)

    # -- adapting

    def rate_limited(self, retry_after: float | None, *, held: int = 0) -> None:
        """A try met a 429: cut the limit to what is still in flight (less the ``held``
        slots of the refused tries, about to be given back), and hold new starts for
        ``retry_after`` seconds."""
        self.rate_limited_count += 1
        self._successes = 0
        self.in_slow_start = False
        self.limit = max(1, min(self.limit, self.in_flight - held))
        self.lowest = min(self.lowest, self.limit)
        if retry_after is not None and retry_after > 0:
            pause = min(retry_after, self.max_pause)
            self._paused_until = max(self._paused_until, self._clock() + pause)
        self._wake()

    def succeeded(self) -> None:
        """A try got an answer: while tries wait for a slot (the limit, not the work, holds
        the run back), allow one more, at once in the slow start, else after twice the
        limit of these in a row."""
        self._successes += 1
        needed = 1 if self.in_slow_start else 2 * self.limit
        if self.limit < self.ceiling and self._successes >= needed and self._waiters:
            self.limit += 1
            self._successes = 0
            self._wake()


class Slot:
    """One case's place in an :class:`AdaptiveLimiter`: taken on entering, handed to the
    case's first try; each later try queues for a slot of its own."""

    def __init__(self, limiter: AdaptiveLimiter) -> None:
        self.limiter = limiter
        self._held = False

    async def __aenter__(self) -> Slot:
        await self.limiter.acquire()
        self._held = True
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._give_back()

    def _give_back(self) -> None:
        if self._held:
            self._held = False
            self.limiter.release()

    async def call(self, fn: Callable[[A], Awaitable[T]], argument: A) -> T:
        """One try of ``fn(argument)`` in a slot; the limiter hears how it went."""
        if not self._held:
            await self.limiter.acquire()
            self._held = True
        try:
            result = await fn(argument)
        except RateLimitError as exc:
            # Cut before the slot is given back: given back first, it would go to a
            # waiter at the old limit, one more request the server refuses.
            self.limiter.rate_limited(exc.retry_after, held=1 if self._held else 0)
            self._give_back()
            raise
        finally:
            self._give_back()
        self.limiter.succeeded()
        return result
