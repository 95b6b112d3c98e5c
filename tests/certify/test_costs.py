"""A run's cost figures at what was billed: a batch's answers at the batch's share of the
list price in every figure, not only the total (hunt h, F9: the most expensive case and
the prompt cache's saving were at list price, twice what a batch paid)."""

from __future__ import annotations

import pytest

from tests.support.records import attempt_record
from verification.certify.costs import scaffold_cost
from verification.store.manifests import CostBasis
from verification.store.pricing import BATCH_PRICE_SHARE, ModelPrice, TokenCounts

PRICE = ModelPrice(input=3.0, output=15.0)
BASIS = CostBasis(model="m", price=PRICE)
USAGE = {
    "input_tokens": 1_000,
    "output_tokens": 2_000,
    "cache_creation_input_tokens": 4_000,
    "cache_read_input_tokens": 0,
}


def _cost(source: str) -> tuple[float | None, float | None, float | None]:
    records = [
        attempt_record(f"kmp-simple-{index:03d}", "passed", source=source, usage=USAGE)
        for index in range(3)
    ]
    cost = scaffold_cost(records, BASIS)
    assert cost.most_expensive_case is not None
    return cost.usd, cost.most_expensive_case[1], cost.prompt_cache_savings_usd


def test_a_batch_s_answers_are_at_its_share_in_every_figure() -> None:
    live_usd, live_most, live_saved = _cost("live")
    batch_usd, batch_most, batch_saved = _cost("batch")
    per_call = PRICE.cost(TokenCounts.from_usage(USAGE))
    assert live_most == pytest.approx(per_call)
    assert batch_usd == pytest.approx(BATCH_PRICE_SHARE * live_usd)  # type: ignore[operator]
    assert batch_most == pytest.approx(BATCH_PRICE_SHARE * per_call)
    assert live_saved is not None and live_saved < 0  # written, never read: a loss
    assert batch_saved == pytest.approx(BATCH_PRICE_SHARE * live_saved)
