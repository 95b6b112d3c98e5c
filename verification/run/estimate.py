"""What a run would ask and cost, before it asks anything (``verify ... --estimate``).

The cases are planned and their prompts built exactly as the run would; no provider is
built and nothing is sent. Prompt tokens are estimated from the prompts' text (no tokenizer
is at hand offline); output is counted at the spec's whole output budget, and every repair
``--repair-attempts`` allows is asked of every case (its prompt with the longest reason a
repair states), so the cost is an upper bound on what the run's calls may cost. Where the
provider caches prompts and the scaffold reaches the model's minimum cacheable length, the
first request of a scaffold writes the cache and the rest read it.

A sequential certification plan asks a scaffold's cases only until a look decides: the
requests above are its maximum (its cap), and :func:`plan_cases_line` says how many it asks
on average, from the plan's exact operating characteristic.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from verification.cases import TIERS, TestCase, Tier
from verification.catalog import Catalog, default_catalog
from verification.certify.envelope import CASES_PER_SIZE, size_plan
from verification.certify.envelope_search import search_for
from verification.certify.operating import operating_characteristic
from verification.certify.sequential import CertificationPlan
from verification.config import RunConfig
from verification.llm.prompt_builder import PromptBuilder
from verification.run.budget import cost_basis
from verification.run.code_answers import code_prompt
from verification.run.plan import new_cases, planned_sweep, searches_envelope
from verification.store.pricing import BATCH_PRICE_SHARE, TokenCounts, estimate_tokens
from verification.store.thinking import max_tokens_with

__all__ = [
    "SERVER_S_MODEL",
    "ScaffoldEstimate",
    "envelope_paths",
    "estimate_run",
    "format_estimate",
    "pair_total",
    "plan_cases_line",
    "sweep_estimate",
]

CACHING_PROVIDERS = frozenset({"anthropic"})
"""Providers whose requests mark the scaffold for prompt caching."""
UNPAID_PROVIDERS = frozenset({"reference", "replay"})
"""Providers that ask no model: a run of theirs pays nothing."""


@dataclass(frozen=True)
class ScaffoldEstimate:
    """One scaffold's planned requests and tokens."""

    scaffold: str
    requests: int
    scaffold_tokens: int
    tokens: TokenCounts
    """Input split as it would be billed; output at the whole output budget."""
    cached: bool
    """The scaffold would be read from the prompt cache after the first request."""
    usd: float | None
    no_cache_reason: str = ""
    """Why the scaffold would not be read from the prompt cache (empty when it would)."""


SERVER_S_MODEL = "the server's model (name it with --model to price it)"
"""What an estimate prices for the openai provider with no model named: nothing."""


def estimate_run(
    settings: RunConfig,
    scaffold_names: Sequence[str],
    *,
    tiers: Sequence[Tier] = TIERS,
    case_ids: Sequence[str] = (),
    size: int | None = None,
    catalog: Catalog | None = None,
    prompt_builder: PromptBuilder | None = None,
) -> tuple[list[ScaffoldEstimate], str]:
    """Each scaffold's estimate, and the model it prices."""
    catalog = catalog or default_catalog()
    builder = prompt_builder or PromptBuilder(settings.scaffolds_dir, catalog=catalog)
    model = settings.model_name
    if settings.provider == "openai" and not settings.model:
        # The server's own model is asked (its only one), which nothing sent cannot know:
        # priced as unknown, not as the default Anthropic model.
        model = SERVER_S_MODEL
    caching = settings.provider in CACHING_PROVIDERS
    basis = cost_basis(settings, model, prompt_caching=caching)
    # Planned as the run plans them: the level's tiers and size sweep, the cert seed.
    # An envelope search is priced at its costliest course, every size at its cap.
    worst = envelope_paths(
        settings, scaffold_names, catalog=catalog, narrowed=bool(case_ids) or size is not None
    )
    planned: dict[str, list[TestCase]] = (
        # Code mode asks programs, each with the same prompt: only their number matters.
        {name: [] for name in scaffold_names}
        if settings.answer == "code"
        else new_cases(
            settings,
            scaffold_names,
            catalog=catalog,
            tiers=tiers,
            case_ids=case_ids,
            size=size,
            sweep=worst,
        )
    )
    share = BATCH_PRICE_SHARE if settings.batch else 1.0  # --batch: Message Batches' price
    estimates = []
    for name, cases in planned.items():
        spec = catalog.get_spec(name)
        system = estimate_tokens(builder.get_scaffold_content(spec))
        # Every repair --repair-attempts allows is priced too: "at most" is a bound only so.
        repairs = settings.repair_attempts - 1
        repair = builder.repair
        if settings.answer == "code":  # a program per request: the plan's cap of them
            repair = builder.repair_program
            prompts = [code_prompt(builder, spec)] * settings.certification_plan.cap
            budgets = [spec.max_output_tokens] * len(prompts)
            asked = 1
        else:
            prompts = [builder.build(spec, case.input) for case in cases]
            budgets = [spec.max_output_tokens_at(case.size) for case in cases]
            asked = settings.samples
        requests = len(prompts) * asked * (1 + repairs)
        user = asked * sum(
            estimate_tokens(attempt.user)
            for prompt in prompts
            for attempt in builder.longest_attempts(prompt, 1 + repairs, repair)
        )
        output = (
            asked
            * (1 + repairs)
            * sum(max_tokens_with(settings.thinking_budget, budget) for budget in budgets)
        )
        minimum = basis.min_cacheable_tokens
        cached = caching and requests > 1 and minimum is not None and system >= minimum
        tokens = TokenCounts(
            input=user + (0 if cached else system * requests),
            output=output,
            cache_write=system if cached else 0,
            cache_read=system * (requests - 1) if cached else 0,
        )
        price = basis.price
        if settings.provider in UNPAID_PROVIDERS:
            price = None
        if settings.batch:
            # A batch sends its requests at once, with no warm-up: any may write the
            # scaffold, and the budget holds each whole prompt at its dearest. Priced so, the
            # "at most" is a bound, and a budget of it sends the batch (hunts ak and al: the
            # batch cost more than its "at most", and a budget of it sent nothing).
            prompts_total = system * requests + user
            tokens = (
                basis.price.dearest(prompts_total, output)
                if basis.price is not None
                else TokenCounts(output=output, cache_write=prompts_total)
            )
            cached, why = False, "a batch has no warm-up: any request may write the scaffold"
        elif cached:
            why = ""
        elif not caching:
            why = f"the {settings.provider} provider marks no prompt for caching"
        elif minimum is not None and system < minimum:
            why = (
                f"{name}'s scaffold ({system:,} tokens) is shorter than the {minimum:,} "
                f"tokens {model} caches at least"
            )
        else:
            why = "one request has nothing to read from the cache"
        estimates.append(
            ScaffoldEstimate(
                scaffold=name,
                requests=requests,
                scaffold_tokens=system,
                tokens=tokens,
                cached=cached,
                usd=share * price.cost(tokens) if price else None,
                no_cache_reason=why,
            )
        )
    return estimates, model


EXPECTED_AT = (1.0, 0.9)
"""The true pass rates ``--estimate`` states a plan's average cases at: a perfect scaffold
(the cheapest), and one at the 0.90 threshold (about the slowest to decide: the most
cases are asked just above it, 93.5 at 0.91 against 91.3 at standard)."""


def _at_most(usd: float) -> str:
    """``usd`` to the cent's hundredth, rounded up: an "at most" printed below its bound
    read as the bound, and a budget of it refused the run's first batch (hunt al).

    Examples
    --------
    >>> _at_most(0.033613), _at_most(0.5)
    ('0.0337', '0.5000')
    """
    return f"{math.ceil(round(usd * 10_000, 6)) / 10_000:.4f}"


def plan_cases_line(plan: CertificationPlan, *, samples: int = 1, programs: bool = False) -> str:
    """How many of each scaffold's level cases (``programs``: its programs, which code mode's
    plan counts) ``plan`` asks: at most its cap (what the table prices), and on average at
    the rates of :data:`EXPECTED_AT`."""
    unit, answered = ("programs", "programs") if programs else ("level cases", "cases")
    if not plan.sequential:
        return (
            f"plan {plan.name}: every one of the {plan.cap} {unit} of a scaffold is asked "
            "(the table prices them all)"
        )
    perfect, threshold = (operating_characteristic(plan, p) for p in EXPECTED_AT)
    times = f" (x {samples} samples)" if samples > 1 else ""
    every = plan.looks[1] - plan.looks[0]
    return (
        f"plan {plan.name}: a look every {every} answered {answered} "
        f"from {plan.looks[0]} stops a scaffold once decided; it asks at most {plan.cap} "
        f"{unit}{times} (the table prices that maximum), on average "
        f"{perfect.expected_cases:.0f} when every answer is right (p = 1.00) and "
        f"{threshold.expected_cases:.0f} at a true pass rate of 0.90 (about the slowest to "
        "decide)"
    )


def format_estimate(
    estimates: Sequence[ScaffoldEstimate],
    model: str,
    *,
    batch: bool = False,
    unpaid: str | None = None,
    repairs: bool = False,
) -> str:
    """The estimate as the terminal shows it (``batch``: priced as Message Batches;
    ``unpaid``: the provider that asks no model, so nothing is paid; ``repairs``: the
    run may repair, and every repair is priced)."""
    width = max([len(e.scaffold) for e in estimates] + [8])
    lines = [
        f"{'SCAFFOLD':<{width}}  {'REQUESTS':>8}  {'SCAFFOLD TOK':>12}  {'INPUT TOK':>10}  "
        f"{'OUTPUT TOK (MAX)':>16}  {'PROMPT CACHE':<12}  {'USD (AT MOST)':>13}"
    ]
    for e in estimates:
        usd = "0 (unpaid)" if unpaid else "unknown" if e.usd is None else _at_most(e.usd)
        lines.append(
            f"{e.scaffold:<{width}}  {e.requests:>8}  {e.scaffold_tokens:>12,}  "
            f"{e.tokens.prompt:>10,}  {e.tokens.output:>16,}  "
            f"{'read' if e.cached else 'none':<12}  {usd:>13}"
        )
    total = sum((e.tokens for e in estimates), TokenCounts())
    known = [e.usd for e in estimates if e.usd is not None]
    usd = f"${_at_most(sum(known))}" if len(known) == len(estimates) else "unknown (no price)"
    paid = (
        f"nothing is paid: the {unpaid} provider asks no model (the tokens are what a model "
        "would be sent)"
        if unpaid
        else f"at most {usd} for {model} "
        f"{'at the Message Batches price (half) ' if batch else ''}"
        + (
            "(every repair included)"
            if repairs
            else "(first attempts: --repair-attempts 1 asks no repair)"
        )
    )
    lines.append(
        f"total: {sum(e.requests for e in estimates)} requests, {total.prompt:,} input tokens "
        f"(estimated), at most {total.output:,} output tokens; {paid}; nothing was sent"
    )
    reasons = list(dict.fromkeys(e.no_cache_reason for e in estimates if e.no_cache_reason))
    legend = []  # what the column's values in the table mean, those it shows alone
    if any(not e.no_cache_reason for e in estimates):
        legend.append(
            "read: a scaffold's first request writes its scaffold to the prompt cache and the "
            "rest read it (a tenth of the input price)"
        )
    if reasons:
        legend.append("none: " + "; ".join(reasons))
    lines.append("PROMPT CACHE: " + "; ".join(legend))
    return "\n".join(lines)


def pair_total(priced: Sequence[float | None], model: str) -> str:
    """The line under a ``--baseline`` pair's two estimates: what both runs cost at most
    (``priced``: every scaffold's price in both arms, ``None`` where unknown)."""
    known = [usd for usd in priced if usd is not None]
    usd = f"${_at_most(sum(known))}" if len(known) == len(priced) else "unknown (no price)"
    return f"the pair: two runs, at most {usd} for {model} in all"


def envelope_paths(
    settings: RunConfig,
    scaffold_names: Sequence[str],
    *,
    catalog: Catalog,
    narrowed: bool = False,
) -> dict[str, list[int]] | None:
    """Per scaffold, the costliest course its envelope search could take (the sizes it
    would decide if every verdict fell the dearest way), when the run searches one; ``None``
    otherwise. A size's cost is its output budget (the bulk of a case's price, and what
    grows with the size), its cases at the plan's cap at each size alike."""
    if settings.answer == "code" or not searches_envelope(settings, narrowed=narrowed):
        return None
    return {
        name: search_for(spec).worst_path(spec.max_output_tokens_at)
        for name, spec in ((name, catalog.get_spec(name)) for name in scaffold_names)
    }


def sweep_estimate(
    settings: RunConfig,
    scaffold_names: Sequence[str],
    *,
    narrowed: bool = False,
    catalog: Catalog | None = None,
) -> str | None:
    """What a size sweep asks, in one line: each size decided by its own plan, which may
    need more cases than the sweep's old 35 (its cap, and the expected count at a few true
    pass rates); ``None`` when the run sweeps no sizes (``narrowed``: to cases or a size)."""
    catalog = catalog or default_catalog()
    paths = envelope_paths(settings, scaffold_names, catalog=catalog, narrowed=narrowed)
    sweep = paths or planned_sweep(settings, scaffold_names, catalog=catalog, narrowed=narrowed)
    if not sweep:
        return None
    plan = size_plan(settings.level)
    sizes = sum(len(at) for at in sweep.values())
    if paths is not None:
        courses = "; ".join(f"{name} {', '.join(map(str, at))}" for name, at in paths.items())
        return (
            f"envelope search: each scaffold decides its standard maximum, climbs by doubling "
            f"while sizes certify and bisects to the boundary; at worst {sizes} size(s) "
            f"({courses}), each decided by its own {plan.name} plan: at most {plan.cap} cases "
            f"a size (the requests above count every one of them at its cap)"
        )
    if not plan.sequential:
        return f"size sweep: {sizes} size(s), {plan.cap} cases at each (the point cut decides)"
    first, *rest = (
        f"{operating_characteristic(plan, p).expected_cases:.0f} at {p:.2f}"
        for p in (1.0, 0.95, 0.9, 0.85)
    )
    return (
        f"size sweep: {sizes} size(s), each decided by its own {plan.name} plan (a look every "
        f"{plan.looks[1] - plan.looks[0]} cases from {plan.looks[0]}): at most {plan.cap} "
        f"cases a size (more than the {CASES_PER_SIZE} a sweep once asked), on average "
        f"{first.replace(' at ', ' when the true pass rate is ')}, {', '.join(rest)}; the "
        "requests above count every size at its cap"
    )
