"""Extended thinking (``verify --thinking-budget N``): who may be asked to think, and what
such a request asks for.

Thinking is a field of the Messages API request (``thinking: {"type": "enabled",
"budget_tokens": N}``). The budget is spent inside ``max_tokens``, so a request with
thinking asks for the budget plus the scaffold's own output budget: the answer keeps all
the room it has without thinking. The API refuses a temperature other than 1 beside it, so
none is sent. Which model families take it is a dated table beside the price tables
(:data:`verification.store.pricing.THINKING_FAMILIES`); any other model is refused before the
first request.

The ``openai`` provider sends no thinking field (chat completions have none): its budget is
an allowance added to ``max_tokens`` for a reasoning model that thinks in its reply (in
``reasoning_content`` or ``<think>`` tags: vLLM, llama.cpp and Ollama count that against
``max_tokens``), whatever the model, and no temperature is sent beside it either.
"""

from __future__ import annotations

from verification.errors import ConfigurationError
from verification.store.pricing import TABLES_DATED, THINKING_FAMILIES, supports_thinking

__all__ = [
    "ALLOWANCE_PROVIDERS",
    "MIN_THINKING_BUDGET",
    "THINKING_PROVIDERS",
    "check_thinking",
    "check_thinking_provider",
    "max_tokens_with",
    "thinking_field",
]

MIN_THINKING_BUDGET = 1024
"""The smallest ``budget_tokens`` the Messages API accepts."""
THINKING_PROVIDERS = frozenset({"anthropic", "openai"})
"""Providers that take a thinking budget: ``anthropic`` sends it as the thinking field,
``openai`` as room in ``max_tokens`` (dry runs answer without a model, so they take any
budget a real run would)."""
ALLOWANCE_PROVIDERS = frozenset({"openai"})
"""Providers whose budget is only room in ``max_tokens``, for any model."""


def check_thinking_provider(budget: int | None, provider: str, *, dry_run: bool) -> None:
    """Refuse a thinking budget that ``provider`` cannot send (a dry run takes any): what
    :func:`check_thinking` checks first, and all it can check before the model is known."""
    if budget is not None and not dry_run and provider not in THINKING_PROVIDERS:
        raise ConfigurationError(
            f"--thinking-budget is taken by the anthropic and openai providers; the "
            f"{provider} provider cannot send it: leave out --thinking-budget "
            "(VERIFY_THINKING_BUDGET)"
        )


def check_thinking(
    budget: int | None,
    *,
    model: str,
    provider: str,
    dry_run: bool,
    temperature: float | None,
) -> None:
    """Refuse, naming the fix, a thinking budget that ``model`` through ``provider`` cannot
    take. Nothing to check without a budget."""
    if budget is None:
        return
    check_thinking_provider(budget, provider, dry_run=dry_run)
    if provider not in ALLOWANCE_PROVIDERS and not supports_thinking(model):
        families = ", ".join(sorted(THINKING_FAMILIES))
        raise ConfigurationError(
            f"model {model!r} does not support extended thinking (the families that do, as "
            f"of {TABLES_DATED}: {families}): leave out --thinking-budget or choose one of "
            "them with --model"
        )
    if temperature is not None:
        raise ConfigurationError(
            "extended thinking is sent without a temperature (the Messages API refuses one "
            "beside it, and the openai provider sends none either): leave out --temperature "
            "(VERIFY_TEMPERATURE) or --thinking-budget"
        )


def max_tokens_with(budget: int | None, output_budget: int) -> int:
    """``max_tokens`` of a request: the thinking budget (if any) plus the spec's output
    budget, since thinking is spent inside ``max_tokens``."""
    return output_budget + (budget or 0)


def thinking_field(budget: int) -> dict[str, object]:
    """The request's ``thinking`` field for ``budget`` tokens."""
    return {"type": "enabled", "budget_tokens": budget}
