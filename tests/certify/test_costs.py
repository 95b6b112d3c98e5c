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


@pytest.mark.parametrize(
    ("usage", "has_text", "kept"),
    [
        ({"prompt_tokens": 0, "completion_tokens": 0}, True, {}),
        ({"prompt_tokens": 12, "completion_tokens": 0}, True, {"prompt_tokens": 12}),
        (
            {"prompt_tokens": 12, "completion_tokens": 0},
            False,
            {"prompt_tokens": 12, "completion_tokens": 0},
        ),
        (
            {"input_tokens": 0, "output_tokens": 7, "cache_read_input_tokens": 900},
            True,
            {"input_tokens": 0, "output_tokens": 7, "cache_read_input_tokens": 900},
        ),
        ({"input_tokens": 0, "output_tokens": 7}, True, {"output_tokens": 7}),
        ({"input_tokens": 5, "output_tokens": 7}, True, {"input_tokens": 5, "output_tokens": 7}),
    ],
    ids=["zeros", "no-output", "empty-reply", "all-cached", "no-input", "plain"],
)
def test_token_counts_no_billed_call_has_are_left_out(
    usage: dict[str, int], has_text: bool, kept: dict[str, int]
) -> None:
    # Hunt r: a proxy's zeros for a priced model read as free calls, and --max-cost never bound.
    assert TokenCounts.credible(usage, has_text=has_text) == kept


def test_a_case_s_cost_is_every_sample_of_it() -> None:
    # Hunt ag: with --samples 3 "per case" was per sample, a third of a case's cost, and
    # "the dearest case" one sample of one case.
    samples = {"kmp-simple-001": [1, 1, 1], "kmp-simple-002": [2]}  # output, x 1,000 tokens
    records = [
        attempt_record(
            case, "passed", epoch=epoch, source="live", usage={"output_tokens": 1_000 * k}
        )
        for case, outputs in samples.items()
        for epoch, k in enumerate(outputs)
    ]
    cost = scaffold_cost(records, BASIS)
    each = {case: PRICE.output * 1_000 * sum(outputs) / 1e6 for case, outputs in samples.items()}
    assert cost.cases == len(samples)
    assert cost.usd_per_case == pytest.approx(sum(each.values()) / len(samples))
    assert cost.most_expensive_case == ("kmp-simple-001", pytest.approx(each["kmp-simple-001"]))
