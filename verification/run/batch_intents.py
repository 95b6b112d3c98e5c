"""Finding the batch of an intent whose create call a killed process may have completed.

A process killed during the create call (SIGTERM, kill -9, a lost connection while a large
upload went up) leaves an ``intent`` line in ``batches.jsonl`` and no batch id: the server
may have made the batch, and billed it, or not. Before anything is sent again,
:func:`find_batch` looks for it:

1. list the batches the key sees created since the intent (less :data:`CLOCK_SKEW`), keep
   those with the intent's request count that ``batches.jsonl`` does not name already;
2. wait (polling, up to the batch deadline counted from the intent) for those still under
   way to end: only an ended batch's results say whose requests it holds;
3. adopt the one whose results carry the intent's custom ids (they begin with its token,
   a hash of the run id): :class:`Adopted`. None of them: :class:`NotMade`, the requests
   are sent again. A batch never shown to be this run's is never adopted nor canceled
   (shards and other runs share the key).

Where the listing is refused, or a candidate has not ended by the deadline, or its results
cannot be read, or two carry the intent's ids, the answer is :class:`Unsure`: the run stops
and says so, naming the possible duplicate and what it could cost, with the commands to
wait and look again or to send the requests again (``VERIFY_BATCH_RESEND=true``).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from datetime import timedelta

from verification.errors import LLMError
from verification.llm.batches import BatchStatus, ClaudeBatches
from verification.run.batch_log import BatchLine, age, stamp_time

__all__ = ["CLOCK_SKEW", "Adopted", "NotMade", "Unsure", "find_batch"]

CLOCK_SKEW = timedelta(minutes=10)
"""How far the server's clock may be behind ours: a batch listed as created this long
before the intent is still looked at."""


@dataclass(frozen=True)
class Adopted:
    """The intent's batch was found."""

    batch_id: str


@dataclass(frozen=True)
class NotMade:
    """No batch of the intent exists: its requests may be sent again."""

    looked_at: int
    """Batches of its request count made since the intent, none of them its own."""


@dataclass(frozen=True)
class Unsure:
    """Whether the intent's batch exists cannot be told."""

    why: str
    candidates: list[BatchStatus]
    """Batches that may be it."""


async def find_batch(
    batches: ClaudeBatches,
    intent: BatchLine,
    known: set[str],
    *,
    deadline: float,
    poll_interval: float,
) -> Adopted | NotMade | Unsure:
    """Look for ``intent``'s batch among the batches made since it (none of ``known``)."""
    started = stamp_time(intent.at)
    if started is None:
        return Unsure("its line has no time of ours, so no listing can be searched", [])
    try:
        listed = await batches.listed(started - CLOCK_SKEW)
    except LLMError as exc:
        return Unsure(f"the server would not list its batches, or not readably ({exc})", [])
    count = len(intent.requests)
    # A server that gives no counts hides no candidate: its results are looked at too.
    candidates = [b for b in listed if b.batch_id not in known and b.requests in (None, count)]
    waited_from = time.monotonic() - age(intent.at)
    while not all(c.ended for c in candidates):
        if time.monotonic() - waited_from >= deadline:
            running = [c for c in candidates if not c.ended]
            return Unsure(
                f"{len(running)} batch(es) of {count} request(s) made since then had not "
                "ended within the batch deadline, and only an ended batch's results say "
                "whose it is",
                candidates,
            )
        await asyncio.sleep(poll_interval)
        try:
            candidates = [c if c.ended else await batches.status(c.batch_id) for c in candidates]
        except LLMError as exc:
            return Unsure(f"a batch that may be it could not be looked at ({exc})", candidates)
    ours: list[str] = []
    for candidate in candidates:
        try:
            read = await batches.results(candidate.batch_id, count)
        except LLMError as exc:
            return Unsure(f"the results of {candidate.batch_id} could not be read ({exc})", [])
        ids = {result.custom_id for result in read.results}
        if read.problem is not None or (read.unread and not ids):
            why = read.problem or "its results did not decode"
            return Unsure(f"{candidate.batch_id}: {why}", [candidate])
        if ids and ids <= set(intent.requests):
            ours.append(candidate.batch_id)
    if len(ours) > 1:
        return Unsure(f"{len(ours)} batches carry its requests' ids", candidates)
    if ours:
        return Adopted(ours[0])
    return NotMade(len(candidates))
