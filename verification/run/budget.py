"""A run's spending limit (``--max-cost``) and the price facts a run records.

:class:`CostBudget` is asked before each case starts. It counts what the run has paid (its
journal's live calls, a resumed run's earlier ones included) and, for every case in
flight, the worst it could still cost: its prompt, estimated, billed as a cache write, and
the spec's whole output budget, for each attempt it may make. A case whose own worst case
would take the total past the limit is not started; cases in flight finish, and the run
ends with the rest missing, marked so that ``--resume`` with a larger budget goes on.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from verification.config import RunConfig
from verification.errors import ConfigurationError
from verification.store.manifests import CostBasis
from verification.store.pricing import (
    BATCH_PRICE_SHARE,
    ModelPrice,
    TokenCounts,
    free_price,
    min_cacheable_for,
    price_for,
)
from verification.store.records import AttemptRecord

__all__ = ["CostBudget", "cost_basis", "stopped_by_budget"]


def cost_basis(
    settings: RunConfig,
    model: str,
    *,
    prompt_caching: bool,
    recorded: CostBasis | None = None,
) -> CostBasis:
    """The price facts of a run asking ``model`` (a resumed run keeps the price it
    ``recorded``); with ``--max-cost``, a model with no known price is refused (a budget
    that cannot be counted is no budget)."""
    price = recorded.price if recorded and recorded.price else price_for(model, settings.prices)
    if settings.max_cost is not None and price is None:
        raise ConfigurationError(
            f"--max-cost needs a price for model {model!r}, and no table knows it: set "
            "VERIFY_PRICES to its USD per million tokens, e.g. VERIFY_PRICES="
            + shlex.quote(json.dumps({model: {"input": 3.0, "output": 15.0}}))
            + f" (a model on your own server costs nothing: {free_price(model)}),"
            " or leave out --max-cost"
        )
    return CostBasis(
        model=model,
        price=price,
        prompt_caching=prompt_caching,
        min_cacheable_tokens=min_cacheable_for(model, settings.min_cacheable_tokens),
        max_cost=settings.max_cost,
    )


@dataclass
class CostBudget:
    """What a run may still spend; one per run, used from one event loop."""

    limit: float
    price: ModelPrice
    spent: float = 0.0
    """USD paid for live calls so far."""
    reserved: float = 0.0
    """The worst case of the cases in flight."""
    refused: int = 0
    """Cases not started because of the budget."""
    _holds: dict[int, float] = field(default_factory=dict)

    @classmethod
    def for_run(
        cls, basis: CostBasis, paid: Iterable[AttemptRecord], *, unjournalled: float = 0.0
    ) -> CostBudget | None:
        """The budget of a run with ``basis`` that already made the calls in ``paid``, and
        calls a killed process never journalled whose worst cases sum to ``unjournalled``
        (``None`` without ``--max-cost``)."""
        if basis.max_cost is None or basis.price is None:
            return None
        budget = cls(limit=basis.max_cost, price=basis.price, spent=unjournalled)
        for record in paid:
            if record.source in ("live", "batch"):
                budget.record(
                    record.usage, share=BATCH_PRICE_SHARE if record.source == "batch" else 1
                )
        return budget

    def worst_case(self, prompt_tokens: Sequence[int], max_output_tokens: int) -> float:
        """The most one case could cost in an attempt per prompt of ``prompt_tokens``: each
        prompt at the dearer input price (a cache write's, at the list prices) and its whole
        output budget."""
        return sum(
            self.price.cost(self.price.dearest(tokens, max_output_tokens))
            for tokens in prompt_tokens
        )

    def start(self, key: int, worst_case: float) -> bool:
        """Hold ``worst_case`` for the case ``key`` and say yes, or say no when it would
        take the run past its limit."""
        if self.refused or self.spent + self.reserved + worst_case > self.limit:
            self.refused += 1  # once refused, the run starts nothing more: it has stopped
            return False
        self._holds[key] = worst_case
        self.reserved += worst_case
        return True

    def record(self, usage: dict[str, int], *, share: float = 1.0, worst_case: float = 0.0) -> None:
        """Count one live call's cost (``share`` of the list price: half in a batch); a
        call whose usage does not say what it was billed (:meth:`TokenCounts.readable`) is
        counted at ``worst_case``, the most it could have cost, rather than as free."""
        if TokenCounts.readable(usage):
            self.spent += share * self.price.cost(TokenCounts.from_usage(usage))
        else:
            self.spent += share * worst_case

    def settle(self, key: int, still_to_come: float) -> None:
        """Lower the case ``key``'s hold to ``still_to_come`` (the worst case of the attempts
        it may still make) once an attempt's cost is recorded: that attempt is no longer in
        flight, and counted both as paid and as held it would refuse cases the budget
        covers. A hold is never raised here, nor made for a key that holds none."""
        held = self._holds.get(key)
        if held is None or still_to_come >= held:
            return
        self._holds[key] = still_to_come
        self.reserved -= held - still_to_come

    def finish(self, key: int) -> None:
        """Release the case ``key``'s hold (what it cost is already recorded)."""
        self.reserved -= self._holds.pop(key, 0.0)


def stopped_by_budget(refused: int, scaffolds: Iterable[str], decided: Collection[str]) -> bool:
    """Whether the budget stopped the run short of what it needed: it refused a case or a
    repair (``refused``) while one of its ``scaffolds`` was not ``decided`` early, its level
    and every size it sweeps (:func:`~verification.run.stopping.settled_by`). A refusal
    once every scaffold's look had decided cost nothing the run needed: a resume that
    decided them all was told both "not missing" and "stopped at the cost budget, resume
    with a larger one" (hunt vv).

    Examples
    --------
    >>> stopped_by_budget(1, ["kmp"], {"kmp"}), stopped_by_budget(1, ["kmp", "lcs"], {"kmp"})
    (False, True)
    >>> stopped_by_budget(0, ["kmp"], ())
    False
    """
    return bool(refused) and any(name not in decided for name in scaffolds)
