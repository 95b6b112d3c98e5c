"""What a run cost, folded from its journal like every other figure.

Each attempt's cost is its recorded usage at the run's price (:class:`CostBasis` in the
manifest). Live calls are what was paid. Answers the response cache gave cost nothing now:
their recorded usage, priced, is the response cache's saving. The prompt cache's saving is
what its reads saved over full-price input, less what its writes cost over it, so a cache
written and never read shows as a loss. Whether prompt caching worked is judged from the
counters the API returned (cache writes and reads), not from the request having asked for it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from verification.store.manifests import CostBasis, RunManifest
from verification.store.pricing import (
    BATCH_PRICE_SHARE,
    WORST_CASE_USAGE,
    ModelPrice,
    TokenCounts,
)
from verification.store.records import AttemptRecord

__all__ = [
    "BATCH_DISCOUNT",
    "PromptCacheVerdict",
    "ScaffoldCost",
    "run_costs",
    "scaffold_cost",
    "total_cost",
]

BATCH_DISCOUNT = 1 - BATCH_PRICE_SHARE
"""What a batch saves of the list price."""
PromptCacheState = Literal["worked", "written-not-read", "below-minimum", "no-activity", "off"]


@dataclass(frozen=True)
class PromptCacheVerdict:
    """Whether the prompt cache paid, from the usage counters, and why not when it did not."""

    state: PromptCacheState | None
    """``None`` when no live call was made (nothing to judge)."""
    detail: str


@dataclass(frozen=True)
class ScaffoldCost:
    """One scaffold's (or a whole run's) cost."""

    tokens: TokenCounts
    """Billed tokens of live calls and batch answers."""
    live_calls: int
    """Calls answered one by one (a batch's answers are not among them)."""
    cached_answers: int
    """Answers the response cache gave (no call)."""
    cases: int
    """Distinct cases with a live call (each with every sample of it: hunt ag read a
    sample's cost as a case's, a third of it at ``--samples 3``)."""
    usd: float | None
    """What the live calls cost; ``None`` when the model has no known price."""
    prompt_cache_savings_usd: float | None
    response_cache_savings_usd: float | None
    batch_savings_usd: float | None = None
    """Message Batches' discount: half the list price of every answer a batch gave."""
    batch_answers: int = 0
    """Answers a batch gave (billed at the batch price)."""
    most_expensive_case: tuple[str, float] | None = None
    worst_case_calls: int = 0
    """Live calls and batch answers whose usage the server gave no readable counts of:
    priced here at their worst case (:data:`WORST_CASE_USAGE`)."""
    prompt_cache: PromptCacheVerdict = field(
        default_factory=lambda: PromptCacheVerdict(None, "no live call")
    )

    @property
    def usd_per_case(self) -> float | None:
        """Mean cost of a case asked live (every sample and repair of it included)."""
        return self.usd / self.cases if self.usd is not None and self.cases else None


def _verdict(
    tokens: TokenCounts, live_calls: int, basis: CostBasis, prompt_tokens: int | None
) -> PromptCacheVerdict:
    if not live_calls:
        return PromptCacheVerdict(None, "no live call: nothing to judge")
    if not basis.prompt_caching:
        return PromptCacheVerdict("off", "this provider does not mark the scaffold for caching")
    if tokens.cache_read:
        share = tokens.cache_read / tokens.prompt if tokens.prompt else 0.0
        return PromptCacheVerdict(
            "worked", f"{100 * share:.0f}% of prompt tokens were read from the prompt cache"
        )
    minimum = basis.min_cacheable_tokens
    if prompt_tokens is not None and minimum is not None and prompt_tokens < minimum:
        return PromptCacheVerdict(
            "below-minimum",
            f"the scaffold is about {prompt_tokens:,} tokens, below the {minimum:,}-token "
            f"minimum {basis.model} caches (table of {basis.tables_dated}): nothing was "
            "cached and nothing saved",
        )
    if tokens.cache_write:
        return PromptCacheVerdict(
            "written-not-read",
            "the scaffold was written to the prompt cache but never read back (one call, or "
            "the cache expired between calls): caching cost more than it saved",
        )
    return PromptCacheVerdict(
        "no-activity", "the API reported no cache writes or reads: nothing was saved"
    )


def _prompt_cache_savings(tokens: TokenCounts, price: ModelPrice) -> float:
    """Reads at full input price, less what they cost; writes' premium over input, less."""
    saved = tokens.cache_read * (price.input - price.read)
    premium = tokens.cache_write * (price.write - price.input)
    return (saved - premium) / 1_000_000


def scaffold_cost(
    records: Iterable[AttemptRecord], basis: CostBasis | None, prompt_tokens: int | None = None
) -> ScaffoldCost:
    """The cost of ``records`` (one scaffold's, or any set) at ``basis``'s price."""
    live = TokenCounts()
    batched = TokenCounts()
    cached = TokenCounts()
    live_calls = cached_answers = batch_calls = at_worst = 0
    # Each case's calls (every sample's) at what they were billed: a batch's at its share
    # of the list price.
    per_case: dict[str, tuple[TokenCounts, TokenCounts]] = {}
    for record in records:
        if record.source == "cache":
            cached_answers += 1
            cached += TokenCounts.from_usage(record.usage)
        elif record.source in ("live", "batch"):  # dry runs and failed calls cost nothing
            counts = TokenCounts.from_usage(record.usage)
            at_worst += WORST_CASE_USAGE in record.usage
            live += counts
            if record.source == "batch":
                batched += counts
                batch_calls += 1
            else:
                live_calls += 1
            key = record.case_id
            at_list, in_batch = per_case.get(key, (TokenCounts(), TokenCounts()))
            if record.source == "batch":
                in_batch += counts
            else:
                at_list += counts
            per_case[key] = (at_list, in_batch)
    basis = basis or CostBasis(model="unknown")
    price = basis.price
    most: tuple[str, float] | None = None
    if price is not None and per_case:
        billed = {
            key: price.cost(at_list) + BATCH_PRICE_SHARE * price.cost(in_batch)
            for key, (at_list, in_batch) in per_case.items()
        }
        most = max(billed.items(), key=lambda item: item[1])
    return ScaffoldCost(
        tokens=live,
        live_calls=live_calls,
        cached_answers=cached_answers,
        cases=len(per_case),
        usd=price.cost(live) - BATCH_DISCOUNT * price.cost(batched) if price else None,
        # What the prompt cache saved of what was billed: a batch's reads and writes at
        # its share of the list price.
        prompt_cache_savings_usd=_prompt_cache_savings(live, price)
        - BATCH_DISCOUNT * _prompt_cache_savings(batched, price)
        if price
        else None,
        response_cache_savings_usd=price.cost(cached) if price else None,
        batch_savings_usd=BATCH_DISCOUNT * price.cost(batched) if price and batch_calls else None,
        batch_answers=batch_calls,
        most_expensive_case=most,
        worst_case_calls=at_worst,
        prompt_cache=_verdict(live, live_calls + batch_calls, basis, prompt_tokens),
    )


def total_cost(costs: Mapping[str, ScaffoldCost], basis: CostBasis | None) -> ScaffoldCost:
    """A run's cost: the sum of its scaffolds'."""
    parts = list(costs.values())

    def added(values: Iterable[float | None]) -> float | None:
        known = list(values)
        return None if any(v is None for v in known) else sum(v or 0.0 for v in known)

    tokens = sum((c.tokens for c in parts), TokenCounts())
    expensive = [c.most_expensive_case for c in parts if c.most_expensive_case]
    live_calls = sum(c.live_calls for c in parts)
    batch_answers = sum(c.batch_answers for c in parts)
    states = Counter(c.prompt_cache.state for c in parts if c.prompt_cache.state)
    verdict = PromptCacheVerdict(
        next(iter(states)) if len(states) == 1 else None,
        ", ".join(f"{count} scaffold(s) {state}" for state, count in sorted(states.items()))
        or "no live call",
    )
    return ScaffoldCost(
        tokens=tokens,
        live_calls=live_calls,
        cached_answers=sum(c.cached_answers for c in parts),
        cases=sum(c.cases for c in parts),
        usd=added(c.usd for c in parts) if parts else (0.0 if basis and basis.price else None),
        prompt_cache_savings_usd=added(c.prompt_cache_savings_usd for c in parts),
        response_cache_savings_usd=added(c.response_cache_savings_usd for c in parts),
        batch_savings_usd=added(
            c.batch_savings_usd for c in parts if c.batch_savings_usd is not None
        )
        if any(c.batch_savings_usd is not None for c in parts)
        else None,
        batch_answers=batch_answers,
        most_expensive_case=max(expensive, key=lambda pair: pair[1]) if expensive else None,
        worst_case_calls=sum(c.worst_case_calls for c in parts),
        prompt_cache=verdict,
    )


def run_costs(manifest: RunManifest, records: Iterable[AttemptRecord]) -> dict[str, ScaffoldCost]:
    """Each scaffold's cost in a run."""
    mine: dict[str, list[AttemptRecord]] = {name: [] for name in manifest.scaffolds}
    for record in records:
        mine.setdefault(record.scaffold, []).append(record)
    return {
        name: scaffold_cost(mine[name], manifest.cost_basis, manifest.scaffolds[name].prompt_tokens)
        for name in manifest.scaffolds
    }
