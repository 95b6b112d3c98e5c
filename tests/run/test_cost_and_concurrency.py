"""Cost from recorded usage, the prompt cache judged from its counters, ``--estimate``,
``--max-cost``, the prompt cache warm-up and adaptive concurrency: runs through the real
``anthropic`` SDK against the fake server on 127.0.0.1, reports read back."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.support.draws import draw_each_case_once
from verification.catalog import default_catalog
from verification.cli import main
from verification.config import load_settings, packaged_scaffolds_dir, resolve_settings
from verification.errors import RateLimitError, TransientLLMError
from verification.llm.claude import parse_ratelimit_reset
from verification.llm.limiter import AdaptiveLimiter
from verification.llm.prompt_builder import PromptBuilder
from verification.registry import get_spec
from verification.run.estimate import envelope_paths, estimate_run
from verification.run.plan import new_cases
from verification.runner import VerificationRunner, plan_cases
from verification.store.journal import read_journal
from verification.store.manifests import read_manifest_file
from verification.store.paths import RunPaths
from verification.store.pricing import (
    PRICES,
    ModelPrice,
    TokenCounts,
    estimate_tokens,
    family_of,
    min_cacheable_for,
    price_for,
)

if TYPE_CHECKING:
    from tests.support.fake_server import FakeModelServer, RecordedRequest, Reply

KEY = "sk-ant-costs-canary-Hq27XbW9"
SCAFFOLD = "kmp"
SEED = 11


def _right_answers(
    server: FakeModelServer,
    cases: int,
    usage: Callable[[int], dict[str, int]] = lambda call: {},
    *,
    delay: float = 0.0,
) -> tuple[Callable[[RecordedRequest], Reply], list[dict[str, int]]]:
    """A step answering each planned case right after ``delay`` seconds, reporting
    ``usage(call number)``; and the usages it reported, in order."""
    builder = PromptBuilder(packaged_scaffolds_dir())
    spec = get_spec(SCAFFOLD)
    answers = {
        builder.build(SCAFFOLD, case.input).user: spec.render_answer(case.expected)
        for case in plan_cases([SCAFFOLD], seed=SEED, cases=cases)[SCAFFOLD]
    }
    sent: list[dict[str, int]] = []
    lock = threading.Lock()

    def answer(request: RecordedRequest) -> Reply:
        time.sleep(delay)
        with lock:
            counts = usage(len(sent))
            sent.append(counts)
        return server.message(answers[request.json["messages"][0]["content"]], **counts)

    return answer, sent


@pytest.fixture
def server_env(anthropic_env: FakeModelServer) -> FakeModelServer:
    return anthropic_env


def _verify(output: Path, model: str, cases: int, *extra: str) -> int:
    return main(
        [
            *("verify", SCAFFOLD, "--provider", "anthropic", "--model", model, "--no-cache"),
            *("--cases", str(cases), "--seed", str(SEED), "--output", str(output), *extra),
        ]
    )


def _summary(output: Path) -> dict[str, Any]:
    return json.loads((output / "reports" / "summary.json").read_text())


def _run(output: Path) -> Path:
    (run,) = (output / "runs").iterdir()
    return run


def test_cost_is_the_recorded_usage_priced_and_the_prompt_cache_judged_from_its_counters(
    server_env: FakeModelServer, tmp_path: Path
) -> None:
    model, cases = "claude-sonnet-4-5-20991231", 4
    scaffold_tokens = 1500

    def usage(call: int) -> dict[str, int]:  # the first call writes the cache, later ones read
        cached = {"cache_read_input_tokens": scaffold_tokens} if call else {}
        written = {} if call else {"cache_creation_input_tokens": scaffold_tokens}
        return {"input_tokens": 60 + call, "output_tokens": 300 + 10 * call, **cached, **written}

    answer, sent = _right_answers(server_env, cases, usage)
    server_env.script([answer] * cases)
    assert _verify(tmp_path, model, cases, "--concurrency", "1") == 0

    price = price_for(model)
    assert price is not None
    paid = sum((TokenCounts.from_usage(u) for u in sent), TokenCounts())
    expected = (
        paid.input * price.input
        + paid.output * price.output
        + paid.cache_write * price.input * 1.25
        + paid.cache_read * price.input * 0.1
    ) / 1e6
    summary = _summary(tmp_path)
    for cost in (summary["cost"], summary["scaffolds"][SCAFFOLD]["cost"]):
        assert cost["usd"] == pytest.approx(expected)
        assert cost["usd_per_case"] == pytest.approx(expected / cases)
        assert cost["live_calls"] == cases
        assert (cost["cache_write_tokens"], cost["cache_read_tokens"]) == (
            paid.cache_write,
            paid.cache_read,
        )
        uncached = (paid.input + paid.cache_write + paid.cache_read) * price.input / 1e6
        actual_input = expected - paid.output * price.output / 1e6
        assert cost["prompt_cache_savings_usd"] == pytest.approx(uncached - actual_input)
        assert cost["response_cache_savings_usd"] == 0
        assert cost["batch_savings_usd"] is None
    assert summary["scaffolds"][SCAFFOLD]["cost"]["prompt_cache"] == "worked"
    report = (tmp_path / "reports" / f"{SCAFFOLD}.md").read_text()
    assert "## Cost" in report and f"${expected:.4f}" in report
    per_scaffold = f"| {SCAFFOLD} | ${expected:.4f} | ${expected / cases:.5f} | {cases} |"
    assert per_scaffold in (tmp_path / "reports" / "summary.md").read_text()
    for request in server_env.requests:  # the scaffold is one cached system block
        (block,) = request.json["system"]
        assert block["cache_control"] == {"type": "ephemeral"}


def test_a_scaffold_below_the_models_minimum_is_reported_so_rather_than_as_a_saving(
    server_env: FakeModelServer, tmp_path: Path
) -> None:
    model, cases = "claude-haiku-4-5", 2
    minimum = min_cacheable_for(model)
    scaffold = PromptBuilder(packaged_scaffolds_dir()).get_scaffold_content(SCAFFOLD)
    assert minimum is not None and estimate_tokens(scaffold) < minimum
    answer, _ = _right_answers(server_env, cases, lambda call: {"input_tokens": 1400})
    server_env.script([answer] * cases)
    assert _verify(tmp_path, model, cases) == 0

    cost = _summary(tmp_path)["scaffolds"][SCAFFOLD]["cost"]
    assert cost["prompt_cache"] == "below-minimum"
    assert cost["prompt_cache_savings_usd"] == 0
    assert f"below the {minimum:,}-token minimum" in cost["prompt_cache_detail"]
    report = (tmp_path / "reports" / f"{SCAFFOLD}.md").read_text()
    assert f"below the {minimum:,}-token minimum" in report


def test_estimate_prints_the_plan_and_sends_nothing(
    server_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _verify(tmp_path, "claude-sonnet-4-5", 6, "--estimate", "--samples", "2") == 0
    printed = capsys.readouterr().out
    assert server_env.requests == []
    assert not (tmp_path / "runs").exists()
    spec = get_spec(SCAFFOLD)
    assert "total: 12 requests" in printed
    assert f"at most {12 * spec.max_output_tokens:,} output tokens" in printed


@pytest.mark.parametrize("model", ["my-local-model", "claude-opus-4-6"])
def test_max_cost_with_a_model_of_no_known_price_exits_2_naming_the_setting(
    server_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str], model: str
) -> None:
    # A hunt: a newer version (claude-opus-4-6) was priced as an older family (claude-opus-4),
    # whose price a budget then held, though the newer one may cost more.
    assert _verify(tmp_path, model, 2, "--max-cost", "5") == 2
    assert "VERIFY_PRICES" in capsys.readouterr().err
    assert server_env.requests == []


def test_max_cost_stops_starting_cases_writes_a_partial_report_and_resumes(
    server_env: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Output is all that is priced, and every reply uses its whole output budget: each case
    # then costs exactly its worst case, so a budget of 3.5 cases allows three.
    model, cases = "claude-test-model", 6
    price = ModelPrice(input=0.0, output=2.0)
    monkeypatch.setenv("VERIFY_PRICES", json.dumps({model: {"input": 0.0, "output": 2.0}}))
    budget = get_spec(SCAFFOLD).max_output_tokens
    per_case = price.cost(TokenCounts(output=budget))
    answer, sent = _right_answers(server_env, cases, lambda call: {"output_tokens": budget})
    server_env.script([answer] * cases)

    limit = f"{3.5 * per_case:.6f}"
    assert _verify(tmp_path, model, cases, "--concurrency", "1", "--max-cost", limit) == 3
    run = _run(tmp_path)
    assert len(read_journal(run / "results.jsonl")) == len(sent) == 3
    assert read_manifest_file(run / "manifest.json").stopped_by_budget
    summary = _summary(tmp_path)
    assert summary["stopped_by_budget"] and summary["cost"]["usd"] == pytest.approx(3 * per_case)
    assert "Stopped at the cost budget" in (tmp_path / "reports" / "summary.md").read_text()

    # What the run paid counts on resume: a budget of five cases allows two more.
    argv = ["verify", "--resume", run.name, "--provider", "anthropic", "--model", model]
    more = f"{5.5 * per_case:.6f}"
    assert main([*argv, "--output", str(tmp_path), "--max-cost", more, "--no-cache"]) == 3
    assert len(read_journal(run / "results.jsonl")) == 5
    assert main([*argv, "--output", str(tmp_path), "--max-cost", "100", "--no-cache"]) == 0
    assert len(sent) == cases
    manifest = RunPaths(tmp_path, run.name).read_manifest()
    assert not manifest.stopped_by_budget


def test_price_table_matches_the_longest_family_and_settings_override_it() -> None:
    table = {"claude-opus-4": 1, "claude-opus-4-5": 2}
    assert family_of("claude-opus-4-5-20251101", table) == "claude-opus-4-5"
    assert family_of("claude-opus-4-20250514", table) == "claude-opus-4"
    assert family_of("claude-opus-40", table) is None
    assert family_of("claude-opus-4-5@20251101", table) == "claude-opus-4-5"  # Vertex AI's
    # A price is a release's of its family (a date or -latest after its id), never a newer
    # version's: claude-opus-4-6 has none until VERIFY_PRICES gives one.
    assert price_for("claude-opus-4-6") is None and price_for("claude-sonnet-4-5-x") is None
    for family, price in PRICES.items():
        for model in (family, f"{family}-20991231", f"{family}@20991231", f"{family}-latest"):
            assert price_for(model) == price, model
    # Anthropic's aliases of a family's first version, and a dated id of a family a user
    # prices (OpenAI writes the date with dashes), as the hunt of that rule found unpriced.
    assert price_for("claude-sonnet-4-0") == PRICES["claude-sonnet-4"]
    assert price_for("claude-opus-4-0") == PRICES["claude-opus-4"]
    override = ModelPrice(input=9.0, output=9.0)
    assert price_for("gpt-4o-2024-08-06", {"gpt-4o": override}) == override
    assert price_for("claude-opus-4-10") is None
    assert price_for("claude-haiku-4-5", {"claude-haiku-4-5": override}) == override
    assert price_for("nobody-knows") is None
    with pytest.raises(ValueError, match="input price"):
        ModelPrice(input=float("nan"), output=1.0)


# -- the prompt cache warm-up --------------------------------------------------------------


def _timed(step: Callable[[RecordedRequest], Reply]) -> tuple[Callable[..., Reply], list[Any]]:
    """``step``, recording each request's (arrival, finish) times."""
    spans: list[tuple[float, float]] = []
    lock = threading.Lock()

    def timed(request: RecordedRequest) -> Reply:
        arrived = time.monotonic()
        reply = step(request)
        with lock:
            spans.append((arrived, time.monotonic()))
        return reply

    return timed, spans


@pytest.mark.parametrize("model", ["claude-sonnet-4-5-20991231", "claude-haiku-4-5"])
def test_the_first_case_warms_the_prompt_cache_alone_where_the_scaffold_can_be_cached(
    server_env: FakeModelServer, tmp_path: Path, model: str
) -> None:
    cases = 4
    minimum = min_cacheable_for(model)
    scaffold = PromptBuilder(packaged_scaffolds_dir()).get_scaffold_content(SCAFFOLD)
    cacheable = minimum is not None and estimate_tokens(scaffold) >= minimum
    answer, _ = _right_answers(server_env, cases, delay=0.3)
    timed, spans = _timed(answer)
    server_env.script([timed] * cases)
    assert _verify(tmp_path, model, cases, "--concurrency", str(cases)) == 0

    spans.sort()
    first_finished = spans[0][1]
    others_arrived = [arrived for arrived, _ in spans[1:]]
    if cacheable:  # sonnet 4.5 caches from 1,024 tokens: the others wait for the first
        assert first_finished <= min(others_arrived)
    else:  # haiku 4.5 needs 4,096: no warm-up, the cases go at once
        assert min(others_arrived) < first_finished


# -- adaptive concurrency ------------------------------------------------------------------


def test_a_limiter_never_starts_past_its_limit_cuts_on_429_only_and_grows_back_on_demand() -> None:
    async def scenario() -> None:
        limiter = AdaptiveLimiter(6, start=6)  # no slow start: the cuts and growth alone
        slots = [limiter.slot() for _ in range(6)]
        for slot in slots:
            await slot.__aenter__()
        late = asyncio.create_task(limiter.acquire())
        await asyncio.sleep(0)
        assert not late.done() and limiter.in_flight == 6  # full: the seventh waits

        async def fails(error: Exception) -> None:
            raise error

        with pytest.raises(TransientLLMError):  # overload backs off without cutting
            await slots[0].call(fails, TransientLLMError("529"))
        await asyncio.sleep(0)
        assert limiter.limit == 6 and late.done()  # the freed slot went to the waiter
        with pytest.raises(RateLimitError):  # a 429 cuts to what is still in flight
            await slots[1].call(fails, RateLimitError("429"))
        assert limiter.limit == limiter.in_flight == 5
        with pytest.raises(RateLimitError):
            await slots[2].call(fails, RateLimitError("429"))
        assert limiter.limit == 4 and limiter.in_flight == 4

        async def answers(value: int) -> int:
            return value

        # Growth needs demand: tries waiting for a slot while the limit holds them back.
        waiting = [asyncio.create_task(limiter.acquire()) for _ in range(3)]
        await asyncio.sleep(0)
        for _ in range(2 * 4 - 1):
            limiter.succeeded()
        assert limiter.limit == 4 and not any(task.done() for task in waiting)
        limiter.succeeded()  # twice the limit in a row: one more slot, to the first waiter
        await asyncio.sleep(0)
        assert limiter.limit == 5 and [task.done() for task in waiting] == [True, False, False]
        for _ in range(100):
            limiter.succeeded()
        await asyncio.sleep(0)
        assert limiter.limit == limiter.ceiling == 6  # never past where it started
        assert [task.done() for task in waiting] == [True, True, False]  # six in flight
        assert limiter.in_flight == 6
        for slot in slots[3:]:
            assert await slot.call(answers, 1) == 1  # each try gives its slot back
        await asyncio.sleep(0)
        assert waiting[2].done() and limiter.in_flight == 4
        for _ in range(4):
            limiter.release()  # the late acquirer's and the waiters'
        assert limiter.in_flight == 0 and limiter.peak == 6
        limiter.rate_limited(None)  # nothing in flight: down to one
        for _ in range(100):  # successes with nobody waiting: no growth
            await limiter.slot().call(answers, 1)
        assert limiter.limit == 1

    asyncio.run(scenario())


def test_a_limiter_starts_at_a_quarter_and_doubles_each_round_until_the_first_429() -> None:
    async def scenario() -> None:
        limiter = AdaptiveLimiter(64)
        assert limiter.limit == 16 and limiter.in_slow_start
        tasks = [asyncio.create_task(limiter.acquire()) for _ in range(64)]
        await asyncio.sleep(0)
        assert sum(task.done() for task in tasks) == 16  # the first burst: a quarter
        for _ in range(16):  # one round trip: each answer frees its slot and adds one
            limiter.release()
            limiter.succeeded()
        await asyncio.sleep(0)
        assert limiter.limit == 32 and limiter.in_flight == 32
        assert sum(task.done() for task in tasks) == 48
        limiter.release()  # refused: its slot went to a waiter; the slow start ends and the
        limiter.rate_limited(None)  # limit is cut to what is in flight
        assert limiter.limit == limiter.lowest == 32 and not limiter.in_slow_start
        limiter.release()
        limiter.succeeded()  # from now on one more only after twice the limit in a row
        assert limiter.limit == 32
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(scenario())
    # Never below four (a small --concurrency starts whole), nor past the ceiling.
    assert [AdaptiveLimiter(n).limit for n in (1, 3, 4, 16, 17, 256)] == [1, 3, 4, 4, 5, 64]


def test_a_429_cuts_the_limit_before_its_slot_is_given_back_so_no_waiter_takes_it() -> None:
    async def scenario() -> None:
        limiter = AdaptiveLimiter(4)
        slots = [limiter.slot() for _ in range(4)]
        for slot in slots:
            await slot.__aenter__()
        waiter = asyncio.create_task(limiter.acquire())
        await asyncio.sleep(0)

        async def refused(_: None) -> None:
            raise RateLimitError("429")  # no retry-after: nothing else holds the waiter

        with pytest.raises(RateLimitError):
            await slots[0].call(refused, None)
        await asyncio.sleep(0)
        # Given back first, the slot would have sent the waiter to the server at the old
        # limit of 4: one more request it refuses.
        assert limiter.limit == limiter.in_flight == 3 and not waiter.done()
        waiter.cancel()
        await asyncio.gather(waiter, return_exceptions=True)

    asyncio.run(scenario())


def test_a_waiter_cancelled_as_a_slot_is_given_back_leaves_quietly() -> None:
    """Ctrl-C cancels every waiting case at once. A waiter's future is cancelled before its
    task runs again; a slot given back in that instant skips the cancelled future and drops
    it from the queue. The cancelled task must then leave with its CancelledError, not
    fail to find its future in the queue (an internal error that a clean-clone run met)."""

    async def scenario() -> None:
        limiter = AdaptiveLimiter(1)
        await limiter.acquire()
        waiter = asyncio.create_task(limiter.acquire())
        await asyncio.sleep(0)  # it waits in the queue
        waiter.cancel()  # its future is cancelled now; the task has not run again yet
        limiter.release()  # the queue's cancelled future is dropped, no slot taken
        with pytest.raises(asyncio.CancelledError):
            await waiter
        assert limiter.in_flight == 0
        await asyncio.wait_for(limiter.acquire(), timeout=5)  # the slot is free again
        assert limiter.in_flight == 1

    asyncio.run(scenario())


def test_retry_after_holds_every_new_start_until_it_has_passed() -> None:
    now = [100.0]

    async def scenario() -> None:
        limiter = AdaptiveLimiter(4, clock=lambda: now[0])
        holder = limiter.slot()
        await holder.__aenter__()
        limiter.rate_limited(retry_after=30.0)
        waiting = asyncio.create_task(limiter.acquire())
        for _ in range(3):
            await asyncio.sleep(0)
        assert not waiting.done()  # a free slot, but the server said to wait 30 s
        now[0] += 30.0
        await holder.__aexit__(None, None, None)  # any release looks again
        await asyncio.sleep(0)
        assert waiting.done()
        limiter.release()

    asyncio.run(scenario())


def test_the_anthropic_rate_limit_headers_say_how_long_to_wait() -> None:
    soon = (datetime.now(UTC) + timedelta(seconds=30)).isoformat().replace("+00:00", "Z")
    later = (datetime.now(UTC) + timedelta(seconds=50)).isoformat()
    exhausted = {
        "anthropic-ratelimit-requests-remaining": "0",
        "anthropic-ratelimit-requests-reset": soon,
        "anthropic-ratelimit-tokens-remaining": "0",
        "anthropic-ratelimit-tokens-reset": later,
        "anthropic-ratelimit-input-tokens-remaining": "1000",
        "anthropic-ratelimit-input-tokens-reset": "2000-01-01T00:00:00Z",
    }
    assert 45 < (parse_ratelimit_reset(exhausted) or 0) <= 50  # the latest exhausted one
    assert parse_ratelimit_reset({"anthropic-ratelimit-requests-remaining": "3"}) is None
    broken = {
        "anthropic-ratelimit-requests-remaining": "0",
        "anthropic-ratelimit-requests-reset": "soon",
    }
    assert parse_ratelimit_reset(broken) is None


@pytest.mark.slow
def test_a_run_asking_64_of_a_server_allowing_8_starts_slow_meets_few_429s_and_answers_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.support.fake_server import FakeModelServer

    allowed, cases = 8, 60
    in_flight, most, lock, answered = [0], [0], threading.Lock(), Counter[str]()
    with FakeModelServer(max_requests=1000) as server:
        answer, _ = _right_answers(server, cases, delay=0.2)
        busy = server.anthropic_error(429, "rate_limit_error", headers={"retry-after": "0.2"})

        def at_most_eight(sent: RecordedRequest) -> Reply:
            with lock:
                if in_flight[0] >= allowed:
                    answered["429"] += 1
                    return busy
                in_flight[0] += 1
                most[0] = max(most[0], in_flight[0])
            try:
                return answer(sent)
            finally:
                with lock:
                    in_flight[0] -= 1

        server.script([at_most_eight] * 1000)
        settings = load_settings(
            anthropic_api_key=KEY,
            anthropic_base_url=server.base_url,
            provider="anthropic",
            model="claude-test-model",
            cases=cases,
            seed=SEED,
            concurrency=64,
            cache=False,
            retry_initial_wait=0.2,
            max_retries=10,
            results_dir=tmp_path,
        )
        runner = VerificationRunner(settings)
        result = asyncio.run(runner.run([SCAFFOLD]))
        sent = len(server.requests)
    limiter = runner.scheduler.limiter_for("claude-test-model")
    outcomes = Counter(r.outcome for r in read_journal(result.paths.journal))
    print(
        f"\n--concurrency 64 against a server allowing {allowed}: {sent} requests, "
        f"{answered['429']} answered 429, limit settled at {limiter.limit} "
        f"(lowest {limiter.lowest})"
    )
    assert outcomes == {"passed": cases}  # every case answered, none an infra error
    # Near 8: never cut below half of it, and grown back at most two past it (a probe above
    # 8 meets a 429 only when the server really holds 8 at that moment).
    assert allowed // 2 <= limiter.lowest and limiter.limit <= allowed + 2
    # Slow start: the first burst is a quarter of 64 (16 asked, 8 refused), not 64 (56
    # refused); after it each probe above the settled limit costs one 429, once per 16
    # answers at most.
    assert answered["429"] <= 15


@pytest.mark.parametrize(("level", "envelope"), [("quick", None), ("thorough", False)])
def test_estimate_plans_the_requests_a_run_of_the_same_level_sends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, level: str, envelope: bool | None
) -> None:
    draw_each_case_once(monkeypatch)  # the run plans the cases the estimate drew
    settings = load_settings(
        provider="reference", level=level, results_dir=tmp_path, envelope=envelope
    )
    estimates, _ = estimate_run(settings, [SCAFFOLD])
    result = asyncio.run(VerificationRunner(settings).run([SCAFFOLD]))
    planned = result.manifest.scaffolds[SCAFFOLD].case_ids
    assert sum(e.requests for e in estimates) == len(planned) * settings.samples


@pytest.mark.slow  # about a second
def test_the_estimate_of_an_envelope_search_prices_its_costliest_course(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The estimate, the planner asked again and the run plan the same costliest course:
    # each of its cases is drawn once (tests/support/draws.py), not three times.
    draw_each_case_once(monkeypatch)
    settings = load_settings(provider="reference", level="thorough", results_dir=tmp_path)
    estimates, _ = estimate_run(settings, [SCAFFOLD])
    paths = envelope_paths(resolve_settings(settings), [SCAFFOLD], catalog=default_catalog())
    assert paths is not None
    priced = new_cases(
        resolve_settings(settings), [SCAFFOLD], catalog=default_catalog(), sweep=paths
    )
    assert sum(e.requests for e in estimates) == len(priced[SCAFFOLD])
    result = asyncio.run(VerificationRunner(settings).run([SCAFFOLD]))
    assert result.manifest.envelope is not None  # the run searched, and planned no more
    planned = result.manifest.scaffolds[SCAFFOLD].case_ids
    assert result.manifest.envelope[SCAFFOLD].tried
    assert len(planned) <= len(priced[SCAFFOLD])


def test_a_limiter_paused_as_one_event_loop_ends_wakes_waiters_in_the_next() -> None:
    limiter = AdaptiveLimiter(1)

    async def paused_with_a_waiter() -> None:
        await limiter.acquire()
        limiter.rate_limited(retry_after=0.05)  # one in flight: the limit stays 1
        waiter = asyncio.create_task(limiter.acquire())
        await asyncio.sleep(0)
        limiter.release()  # still paused: the waiter stays, a timer of this loop is set
        waiter.cancel()

    async def later_run() -> None:
        limiter.rate_limited(retry_after=0.05)
        await asyncio.wait_for(limiter.acquire(), timeout=5)  # woken by this loop's timer
        limiter.release()

    asyncio.run(paused_with_a_waiter())
    asyncio.run(later_run())


def test_an_estimate_for_an_openai_server_with_no_model_named_prices_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Hunt t: it quoted "at most $5.8162 for claude-haiku-4-5" for a local server, whose own
    # model a run asks when none is named. Nothing is sent: port 9 has no server.
    monkeypatch.setenv("VERIFY_OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    argv = ["verify", SCAFFOLD, "--provider", "openai", "--estimate", "--output", str(tmp_path)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "at most unknown (no price) for the server's model (name it with --model" in printed
    assert "claude" not in printed and "$" not in printed.split("total:")[1].split("\n")[0]
