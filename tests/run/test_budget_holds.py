"""What ``--max-cost`` holds while a run answers: nothing for an answer the response cache
holds (it costs nothing), the worst case of every live attempt still to come, and never more
than the budget spent. Runs through the real ``anthropic`` SDK against the fake server on
127.0.0.1, output alone priced and every reply using its whole output budget, so that each
live attempt costs exactly what the budget holds for it."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from verification.cli import main
from verification.registry import get_spec
from verification.store.journal import read_journal
from verification.store.manifests import read_manifest_file
from verification.store.pricing import WORST_CASE_USAGE, ModelPrice, TokenCounts
from verification.store.records import MAX_TOKEN_COUNT

if TYPE_CHECKING:
    from tests.support.fake_server import FakeModelServer, RecordedRequest, Reply

KEY = "sk-ant-budget-holds-canary-Zq41"
MODEL = "claude-test-model"
SEED = 11
PRICE = ModelPrice(input=0.0, output=2.0)
OUTPUT = get_spec("kmp").max_output_tokens
PER_ATTEMPT = PRICE.cost(TokenCounts(output=OUTPUT))
"""What one attempt costs here, and the most the budget holds for it."""


@pytest.fixture
def server(
    anthropic_env: FakeModelServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> FakeModelServer:
    prices = {MODEL: {"input": PRICE.input, "output": PRICE.output}}
    monkeypatch.setenv("VERIFY_PRICES", json.dumps(prices))
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path / "cache"))
    return anthropic_env


def _replies(
    server: FakeModelServer,
    count: int,
    text: Callable[[str], str] | None = None,
    *,
    model: str = MODEL,
    output_tokens: int = OUTPUT,
) -> None:
    """Script ``count`` replies: the right answer to each kmp case of the plan (or
    ``text(user prompt)``), each using the whole output budget (or saying it used
    ``output_tokens``)."""
    right = server.right_kmp_replies(SEED, 12)

    def reply(request: RecordedRequest) -> Reply:
        user = request.json["messages"][-1]["content"]
        # A repair's prompt is its case's, with why the reply before could not be read.
        (case,) = [prompt for prompt in right if user.startswith(prompt)]
        said = text(user) if text is not None else right[case]
        return server.message(said, model=model, output_tokens=output_tokens)

    server.script([reply] * count)


def _verify(output: Path, cases: int, *extra: str) -> int:
    argv = ["verify", "kmp", "--provider", "anthropic", "--model", MODEL, "--seed", str(SEED)]
    return main([*argv, "--cases", str(cases), "--output", str(output), *extra])


def _newest(output: Path) -> Path:
    return max((output / "runs").iterdir(), key=lambda run: run.stat().st_mtime_ns)


def _spent(output: Path) -> Any:
    return json.loads((output / "reports" / "summary.json").read_text())["cost"]["usd"]


def test_a_repeat_answered_by_the_response_cache_is_not_stopped_by_a_small_budget(
    server: FakeModelServer, tmp_path: Path
) -> None:
    _replies(server, 3)
    assert _verify(tmp_path, 3) == 0
    asked = len(server.requests)

    # Less than one case's worst case: the budget could start no live case, and needs none.
    assert _verify(tmp_path, 3, "--max-cost", f"{PER_ATTEMPT / 2:.6f}") == 0
    assert len(server.requests) == asked
    lines = read_journal(_newest(tmp_path) / "results.jsonl")
    assert len(lines) == 3 and {line.source for line in lines} == {"cache"}
    assert _spent(tmp_path) == 0


def test_cached_answers_leave_the_budget_to_live_ones_and_spend_stays_within_it(
    server: FakeModelServer, tmp_path: Path
) -> None:
    _replies(server, 3)
    assert _verify(tmp_path, 3) == 0
    asked = len(server.requests)

    # Six cases, three of them cached; a budget for one and a half live cases allows one.
    _replies(server, 3)
    limit = 1.5 * PER_ATTEMPT
    code = _verify(tmp_path, 6, "--concurrency", "4", "--max-cost", f"{limit:.6f}")
    assert code == 3
    assert len(server.requests) - asked == 1
    lines = read_journal(_newest(tmp_path) / "results.jsonl")
    assert sorted(line.source or "" for line in lines) == ["cache", "cache", "cache", "live"]
    assert _spent(tmp_path) == pytest.approx(PER_ATTEMPT) and _spent(tmp_path) <= limit


def test_a_cached_reply_that_needs_repair_holds_the_repair_before_it_is_asked(
    server: FakeModelServer, tmp_path: Path
) -> None:
    _replies(server, 1, lambda user: "no answer here")
    assert _verify(tmp_path, 1) != 2
    asked = len(server.requests)
    (first,) = read_journal(_newest(tmp_path) / "results.jsonl")
    assert first.source == "live" and first.outcome != "passed"

    # The unreadable reply comes from the cache for free; its repair is live, and a budget
    # below its worst case asks nothing and journals nothing (hunt j: journalled with its
    # repair refused, the cached reply stood as the case's answer, and a resume never
    # repaired it). A resume with a larger budget answers it, repair and all.
    repairs = ("--repair-attempts", "2")
    assert _verify(tmp_path, 1, *repairs, "--max-cost", f"{PER_ATTEMPT / 2:.6f}") != 2
    assert len(server.requests) == asked
    run = _newest(tmp_path)
    assert read_journal(run / "results.jsonl") == []
    assert read_manifest_file(run / "manifest.json").stopped_by_budget

    _replies(server, 1)
    limit = 1.5 * PER_ATTEMPT
    resume = ["verify", "--resume", run.name, "--output", str(tmp_path)]
    assert main([*resume, *repairs, "--max-cost", f"{limit:.6f}"]) != 2
    assert len(server.requests) == asked + 1
    lines = read_journal(run / "results.jsonl")
    assert [(r.source, r.attempt) for r in lines] == [("cache", 1), ("live", 2)]
    assert lines[-1].outcome == "passed"
    assert not read_manifest_file(run / "manifest.json").stopped_by_budget
    assert _spent(tmp_path) == pytest.approx(PER_ATTEMPT) and _spent(tmp_path) <= limit


def test_an_answered_case_is_not_held_while_it_is_kept_so_the_budget_covers_every_case(
    server: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The cache write is slow: the third case starts (in the slot the first try gave back)
    # while the first two, paid, are kept. Holds kept until those cases ended would count
    # them twice (paid and held) and refuse the third, though the budget covers all three.
    from verification.llm.cache.provider import CachingProvider

    keep = CachingProvider.keep

    async def slow_keep(self: CachingProvider, request: Any, response: Any) -> None:
        await asyncio.sleep(0.3)
        await keep(self, request, response)

    monkeypatch.setattr(CachingProvider, "keep", slow_keep)
    model = "claude-haiku-4-5"  # its minimum is above kmp's prompt: no cache warm-up first
    prices = {model: {"input": PRICE.input, "output": PRICE.output}}
    monkeypatch.setenv("VERIFY_PRICES", json.dumps(prices))
    _replies(server, 3, model=model)
    limit = 3.5 * PER_ATTEMPT
    argv = ["verify", "kmp", "--provider", "anthropic", "--model", model, "--seed", str(SEED)]
    extra = ["--cases", "3", "--concurrency", "2", "--max-cost", f"{limit:.6f}"]
    assert main([*argv, *extra, "--output", str(tmp_path)]) != 3
    assert len(server.requests) == 3
    assert not read_manifest_file(_newest(tmp_path) / "manifest.json").stopped_by_budget
    assert _spent(tmp_path) == pytest.approx(3 * PER_ATTEMPT) and _spent(tmp_path) <= limit


def test_a_reply_whose_token_counts_cannot_be_read_is_counted_at_its_worst_case(
    server: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt h, F5: a count the reader refuses (here past MAX_TOKEN_COUNT) left the call
    # priced at $0: the budget never saw it, every case was asked, and the cost read $0.
    _replies(server, 6, output_tokens=MAX_TOKEN_COUNT + 1)  # refused: past a billion
    budget = 1.5 * PER_ATTEMPT
    code = _verify(tmp_path, 6, "--max-cost", str(budget), "--concurrency", "1", "--no-cache")
    out = capsys.readouterr().out
    assert code == 3 and len(server.requests) == 1  # the second case's worst case is refused
    assert "1 call(s) came back with no readable token counts" in out
    (line,) = read_journal(_newest(tmp_path) / "results.jsonl")
    assert line.usage["output_tokens"] == OUTPUT  # at its most: the whole output budget
    report = (tmp_path / "reports" / "summary.md").read_text(encoding="utf-8")
    assert "| Calls with no readable token counts | 1:" in report
    summary = json.loads((tmp_path / "reports" / "summary.json").read_text())
    assert summary["cost"]["worst_case_calls"] == 1
    assert summary["cost"]["usd"] == pytest.approx(PER_ATTEMPT)
    # Hunt j: a resume read that call's usage afresh, as free, and asked one case more each
    # time under the same budget.
    resume = ["verify", "--resume", _newest(tmp_path).name, "--output", str(tmp_path)]
    assert main([*resume, "--max-cost", str(budget)]) == 3
    assert len(server.requests) == 1


def test_a_resume_goes_on_with_the_budget_the_run_last_had(
    server: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt h, F11: a second resume with no --max-cost fell back to the first run's budget,
    # reporting "$0.29 of $0.2 spent" and offering the budget already used as a larger one.
    _replies(server, 6)
    first = 1.5 * PER_ATTEMPT
    assert _verify(tmp_path, 6, "--max-cost", str(first), "--concurrency", "1") == 3
    run = _newest(tmp_path).name
    raised = 3.5 * PER_ATTEMPT
    resume = ["verify", "--resume", run, "--output", str(tmp_path)]
    assert main([*resume, "--max-cost", str(raised)]) == 3
    asked = len(server.requests)
    assert asked == 3
    capsys.readouterr()
    assert main(resume) == 3
    said = "".join(capsys.readouterr())
    assert len(server.requests) == asked  # the next case's worst case passes the budget
    assert f"of ${raised:g} spent" in said and f"of ${first:g} spent" not in said
    basis = read_manifest_file(_newest(tmp_path) / "manifest.json").cost_basis
    assert basis is not None and basis.max_cost == raised
    # A resume given less than the run has spent asks nothing, and says so of the budget,
    # not of the answers' token counts (hunt ak).
    assert main([*resume, "--max-cost", str(PER_ATTEMPT / 2)]) == 3
    said = "".join(capsys.readouterr())
    assert len(server.requests) == asked
    assert "the run had spent that before this resume, more than the budget given" in said
    assert "reported more tokens" not in said


def _at_most(capsys: pytest.CaptureFixture[str], tmp_path: Path, *extra: str) -> float:
    capsys.readouterr()
    assert _verify(tmp_path, 1, "--estimate", *extra) == 0
    (said,) = re.findall(r"at most \$([0-9.]+) for", capsys.readouterr().out)
    return float(said)


def test_the_estimate_s_at_most_bounds_a_run_that_asks_every_repair(
    server: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt h, F8: with --repair-attempts 3 the estimate's "at most" priced first attempts
    # only, and a run whose replies could not be read spent three times as much.
    repairs = ("--repair-attempts", "3")
    first_only, every = _at_most(capsys, tmp_path), _at_most(capsys, tmp_path, *repairs)
    _replies(server, 3, lambda user: "no answer here")
    assert _verify(tmp_path, 1, *repairs) == 1
    assert len(server.requests) == 3
    assert first_only < _spent(tmp_path) <= every


def test_the_response_cache_keeps_the_usage_the_server_gave(
    server: FakeModelServer, tmp_path: Path
) -> None:
    # The journal counts a reply with no readable counts at its worst case; the cache keeps
    # what the server said, so a repeat's answer is not priced at an estimate as if billed.
    _replies(server, 1, output_tokens=MAX_TOKEN_COUNT + 1)
    assert _verify(tmp_path, 1) == 0
    (live,) = read_journal(_newest(tmp_path) / "results.jsonl")
    assert live.source == "live" and WORST_CASE_USAGE in live.usage
    assert _verify(tmp_path, 1) == 0
    (cached,) = read_journal(_newest(tmp_path) / "results.jsonl")
    assert cached.source == "cache" and WORST_CASE_USAGE not in cached.usage
    assert "output_tokens" not in cached.usage  # the count the reader refused


def test_a_manifest_that_records_no_budget_is_refused_as_the_manifest_s_fault(
    server: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A hunt: a manifest edited to a budget of 0 made --resume say "bad setting: --max-cost",
    # an option nobody gave. No run records 0 (the option refuses it), so the file is bad.
    _replies(server, 6)
    assert _verify(tmp_path, 6, "--max-cost", str(1.5 * PER_ATTEMPT), "--concurrency", "1") == 3
    manifest = _newest(tmp_path) / "manifest.json"
    data = json.loads(manifest.read_text())
    data["cost_basis"]["max_cost"] = 0
    manifest.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["verify", "--resume", _newest(tmp_path).name, "--output", str(tmp_path)]) == 2
    said = capsys.readouterr().err
    assert "manifest" in said and "max_cost" in said and "--max-cost" not in said
    assert len(server.requests) == 1


class _CtrlCWhenHeld:
    """Replies that wait until the block ends (:meth:`held`), and a Ctrl-C this process
    sends itself once ``held`` of them have arrived and ``journalled`` answers are in the
    run's journal (flushed as written): a run stopped with calls in flight."""

    def __init__(
        self, reply: Callable[[RecordedRequest], Reply], folder: Path, *, held: int, journalled: int
    ) -> None:
        self._reply, self._folder = reply, folder
        self._held, self._journalled = held, journalled
        self._arrived, self._release = threading.Semaphore(0), threading.Event()
        self._stopper = threading.Thread(target=self._stop, daemon=True)

    def held(self, request: RecordedRequest) -> Reply:
        self._arrived.release()
        self._release.wait(60)
        return self._reply(request)

    def _stop(self) -> None:
        for _ in range(self._held):
            assert self._arrived.acquire(timeout=60), "a held call never arrived"
        deadline = time.monotonic() + 60
        while self._lines() < self._journalled:
            assert time.monotonic() < deadline, "the answers were never journalled"
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGINT)

    def _lines(self) -> int:
        journals = self._folder.glob("runs/*/results.jsonl")
        return sum(len(journal.read_bytes().splitlines()) for journal in journals)

    def __enter__(self) -> _CtrlCWhenHeld:
        self._stopper.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._release.set()  # the held replies come after the run, billed, never journalled
        self._stopper.join(5)


@pytest.mark.usefixtures("sigint_heard")
def test_calls_in_flight_when_a_run_stops_count_against_the_budget_of_its_resume(
    server: FakeModelServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Hunt k, 27 November: each kill left out of the budget every call in flight (the
    # server answered and billed it; the journal never saw it), so a run killed and resumed
    # a few times spent $1.02 under --max-cost 0.6. Here two calls are in flight when the
    # run is stopped; their replies come after it, billed and never journalled.
    right = server.right_kmp_replies(SEED, 12)

    def answer(request: RecordedRequest) -> Reply:
        (case,) = [p for p in right if request.json["messages"][-1]["content"].startswith(p)]
        return server.message(right[case], model=MODEL, output_tokens=OUTPUT)

    with _CtrlCWhenHeld(answer, tmp_path, held=2, journalled=2) as stop:
        server.script([answer, answer, stop.held, stop.held])
        code = _verify(tmp_path, 4, "--concurrency", "8", "--max-cost", str(100 * PER_ATTEMPT))
    assert code == 130
    run = _newest(tmp_path)
    assert len(read_journal(run / "results.jsonl")) == 2

    # Paid: two journalled, two in flight at their worst. A budget of five and a half
    # attempts leaves room for one more case, not two (without the two in flight: both).
    server.settled()
    asked = len(server.requests)
    server.script([answer, answer])
    resume = ["verify", "--resume", run.name, "--output", str(tmp_path)]
    assert main([*resume, "--max-cost", str(5.5 * PER_ATTEMPT)]) == 3
    assert len(server.requests) - asked == 1
    said = caplog.text
    assert "2 call(s) were in flight" in said and f"${2 * PER_ATTEMPT:.4f} in all" in said
    assert read_manifest_file(run / "manifest.json").stopped_by_budget


@pytest.mark.usefixtures("sigint_heard")
def test_the_resume_command_after_ctrl_c_is_one_line_beside_a_progress_bar(
    server: FakeModelServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Hunt t: with the bar live, the printed resume command was wrapped at the terminal's
    # width with real line breaks, so pasted it ran `verify --resume` alone.
    monkeypatch.setenv("COLUMNS", "80")  # a terminal narrower than the command
    with _CtrlCWhenHeld(lambda _: server.message("late"), tmp_path, held=1, journalled=0) as stop:
        server.script([stop.held] * 4)
        code = _verify(tmp_path, 4, "--progress", "--concurrency", "1")
    assert code == 130
    err = capsys.readouterr().err
    (run,) = (tmp_path / "runs").iterdir()
    (said,) = [line for line in err.splitlines() if "continue with:" in line]
    assert said.rstrip().endswith(f"--output {tmp_path}"), said
    assert f"--resume {run.name}" in said


def test_a_budget_that_refuses_a_swept_size_after_its_level_decided_says_it_stopped(
    server: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt ww: the level decided at its second look (30 right answers) while the swept size,
    # 2 of its first 20 answers wrong, went on; the budget refused the size's next cases,
    # and the run read "not stopped by the budget" (no hint to resume with a larger one).
    from verification.config import packaged_scaffolds_dir
    from verification.llm.prompt_builder import PromptBuilder

    sweep = ("--sizes", "40")
    dry = tmp_path / "dry"
    argv = ["verify", "kmp", "--provider", "reference", "--seed", str(SEED), *sweep]
    assert main([*argv, "--output", str(dry)]) == 0
    (run,) = (dry / "runs").iterdir()
    builder = PromptBuilder(packaged_scaffolds_dir())
    right = {
        builder.build("kmp", r.input).user: r.raw_response or ""
        for r in read_journal(run / "results.jsonl")
    }
    ids = read_manifest_file(run / "manifest.json").scaffolds["kmp"].case_ids
    wrong_ids = [i for i in ids if "-s40-" in i][:2]
    records = {r.case_id: r for r in read_journal(run / "results.jsonl")}
    wrong = {builder.build("kmp", records[i].input).user for i in wrong_ids if i in records}
    assert len(wrong) == 2

    def reply(request: RecordedRequest) -> Reply:
        user = request.json["messages"][-1]["content"]
        said = "```json\n{}\n```" if user in wrong else right[user]
        return server.message(said, model=MODEL, output_tokens=OUTPUT)

    server.script([reply] * 60)
    argv = ["verify", "kmp", "--provider", "anthropic", "--model", MODEL, "--seed", str(SEED)]
    budget = ("--max-cost", f"{60.5 * PER_ATTEMPT:.6f}", "--no-cache")
    assert main([*argv, *sweep, *budget, "--output", str(tmp_path / "live")]) == 3
    assert len(server.requests) == 60
    live = _newest(tmp_path / "live")
    manifest = read_manifest_file(live / "manifest.json")
    assert manifest.early_stops and "kmp" in manifest.early_stops  # the level decided
    assert manifest.stopped_by_budget
    said = "".join(capsys.readouterr())
    assert f"--resume {live.name}" in said and "--max-cost" in said


def test_each_repair_is_held_at_its_own_longer_prompt(
    anthropic_env: FakeModelServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Hunt ak: every repair was held at the first prompt's size, but each repair's prompt
    is its predecessor's with why it failed: a budget just over three first prompts started
    a case whose three attempts spent past it ("$0.2024 of $0.2017"). The server bills each
    prompt as the harness estimates it, as a cache write, and the whole output budget."""
    from verification.store.pricing import estimate_tokens

    price = ModelPrice(input=3.0, output=15.0)
    monkeypatch.setenv("VERIFY_PRICES", json.dumps({MODEL: {"input": 3.0, "output": 15.0}}))
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path / "cache"))
    first: list[int] = []

    def unreadable(request: RecordedRequest) -> Reply:
        system = "".join(block["text"] for block in request.json["system"])
        sent = estimate_tokens(system) + estimate_tokens(request.json["messages"][-1]["content"])
        first.append(sent)
        return anthropic_env.message(
            "no answer here", input_tokens=0, cache_creation_input_tokens=sent, output_tokens=OUTPUT
        )

    anthropic_env.script([unreadable] * 3)
    _verify(tmp_path / "probe", 1, "--repair-attempts", "3")  # what the three prompts are
    assert len(first) == 3 and first[0] < first[1] < first[2]
    one_prompt = price.cost(TokenCounts(output=OUTPUT, cache_write=first[0]))
    limit = 3 * one_prompt + 1e-6  # the first prompt three times: less than they cost
    anthropic_env.script([unreadable] * 3)
    _verify(
        tmp_path / "out", 1, "--repair-attempts", "3", "--no-cache", "--max-cost", f"{limit:.6f}"
    )
    assert _spent(tmp_path / "out") <= limit


def test_a_batch_s_estimate_bounds_every_request_writing_the_scaffold(tmp_path: Path) -> None:
    """Hunt ak: ``--estimate --batch`` priced the scaffold as written once and read after,
    but a batch sends its requests at once: each may write it. The batch cost more than its
    "at most", and a budget of it was refused the batch's first send."""
    from verification.config import load_settings, resolve_settings
    from verification.llm.prompt_builder import PromptBuilder
    from verification.run.estimate import estimate_run
    from verification.runner import plan_cases
    from verification.store.pricing import BATCH_PRICE_SHARE, estimate_tokens, price_for

    model = "claude-sonnet-4-5"
    settings = resolve_settings(
        load_settings(provider="anthropic", model=model, batch=True, cases=12, results_dir=tmp_path)
    )
    (estimate,), _ = estimate_run(settings, ["kmp"])
    price = price_for(model)
    assert price is not None and estimate.usd is not None
    builder, spec = PromptBuilder(settings.scaffolds_dir), get_spec("kmp")
    first_batch = 0.0  # what a budget needs to send the plan's first requests at once
    for case in plan_cases(["kmp"], seed=settings.seed, cases=12)["kmp"]:
        prompt = builder.build(spec, case.input)
        tokens = estimate_tokens(prompt.system) + estimate_tokens(prompt.user)
        first_batch += price.cost(
            TokenCounts(output=spec.max_output_tokens_at(case.size), cache_write=tokens)
        )
    assert estimate.usd >= BATCH_PRICE_SHARE * first_batch


def test_a_price_whose_cache_write_is_below_input_holds_the_dearer(
    server: FakeModelServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Hunt ak: a VERIFY_PRICES cache write below input made the holds (prompts as writes)
    # less than a call billed at input could cost, and the spend passed the budget.
    from verification.store.pricing import estimate_tokens

    price = ModelPrice(input=3.0, output=15.0, cache_write=0.3)
    prices = {MODEL: {"input": 3.0, "output": 15.0, "cache_write": 0.3}}
    monkeypatch.setenv("VERIFY_PRICES", json.dumps(prices))
    sent: list[int] = []

    def billed_at_input(request: RecordedRequest) -> Reply:
        system = "".join(block["text"] for block in request.json["system"])
        tokens = estimate_tokens(system) + estimate_tokens(request.json["messages"][-1]["content"])
        sent.append(tokens)
        return server.message("no answer here", input_tokens=tokens, output_tokens=OUTPUT)

    server.script([billed_at_input])
    _verify(tmp_path / "probe", 1)
    as_write = price.cost(TokenCounts(output=OUTPUT, cache_write=sent[0]))
    limit = as_write + 1e-6  # holds one call priced as a write: less than it costs
    server.script([billed_at_input])
    _verify(tmp_path / "out", 1, "--no-cache", "--max-cost", f"{limit:.6f}")
    assert _spent(tmp_path / "out") <= limit
