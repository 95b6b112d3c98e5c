"""``--batch`` (issue 16 item 4): runs through the real ``anthropic`` SDK's batch methods
against the fake server's Message Batches endpoints on 127.0.0.1: custom ids, repairs in a
later batch, each result type, the response cache, half price, and a killed run that
resumes polling its batch instead of sending it again."""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from verification.cli import main
from verification.config import load_settings
from verification.run.batch_log import BATCH_FILE, BatchLog, custom_id, intent_token
from verification.runner import VerificationRunner
from verification.store.journal import read_journal
from verification.store.manifests import read_manifest_file
from verification.store.pricing import TokenCounts, price_for

if TYPE_CHECKING:
    from tests.support.fake_server import FakeBatchAPI, FakeModelServer

KEY = "sk-ant-batch-canary-7Jq2WcZ0"
SEED, CASES = 13, 6
MODEL = "claude-haiku-4-5"
CUSTOM_ID = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


@pytest.fixture
def server_env(anthropic_env: FakeModelServer, monkeypatch: pytest.MonkeyPatch) -> FakeModelServer:
    monkeypatch.setenv("VERIFY_BATCH_POLL_INTERVAL", "0.01")
    return anthropic_env


def _answering_right(server: FakeModelServer, *, polls: int | None = 1) -> FakeBatchAPI:
    """The server's batch API, answering every case right (after ``polls`` looks)."""
    right = _right(server)
    api = server.FakeBatchAPI(
        lambda cid, params: server.batch_succeeded(right[_prompt(params)]), polls=polls
    )
    server.batches = api
    return api


def _verify(output: Path, *extra: str) -> int:
    return main(
        [
            *("verify", "kmp", "--provider", "anthropic", "--model", MODEL, "--batch"),
            *("--cases", str(CASES), "--seed", str(SEED), "--output", str(output), *extra),
        ]
    )


def _run(output: Path) -> Path:
    (run,) = (output / "runs").iterdir()
    return run


def _right(server: FakeModelServer) -> dict[str, str]:
    return server.right_kmp_replies(SEED, CASES)


def _prompt(params: dict[str, Any]) -> str:
    return str(params["messages"][0]["content"])


def test_a_run_goes_in_one_batch_at_half_price(server_env: FakeModelServer, tmp_path: Path) -> None:
    right = _right(server_env)
    usage = {"input_tokens": 90, "output_tokens": 400, "cache_read_input_tokens": 1000}
    api = server_env.FakeBatchAPI(
        lambda cid, params: server_env.batch_succeeded(right[_prompt(params)], **usage), polls=3
    )
    server_env.batches = api
    assert _verify(tmp_path) == 0
    (requests,) = api.created  # one batch, every case, nothing sent one by one
    ids = [r["custom_id"] for r in requests]
    assert len(ids) == CASES and len(set(ids)) == CASES
    assert all(CUSTOM_ID.match(i) for i in ids)
    for request in requests:
        params = request["params"]
        assert params["model"] == MODEL and params["max_tokens"] > 0
        (block,) = params["system"]
        assert block["cache_control"] == {"type": "ephemeral"}
    assert not [r for r in server_env.requests if r.path.startswith("/v1/messages?")]
    assert sum(api.retrievals.values()) >= 3  # polled until it ended
    run = _run(tmp_path)
    records = read_journal(run / "results.jsonl")
    assert {r.source for r in records} == {"batch"} and len(records) == CASES
    # The intent was written down before the create call, then the batch's id and its custom
    # ids, then that it was collected.
    intent, submitted, collected = BatchLog(run / BATCH_FILE).read()
    assert (intent.event, submitted.event, collected.event) == ("intent", "submitted", "collected")
    assert sorted(intent.requests) == sorted(submitted.requests) == sorted(ids)
    assert intent.intent == submitted.intent and submitted.batch_id == collected.batch_id
    assert {(k.case_id, k.epoch, k.attempt) for k in submitted.requests.values()} == {
        (r.case_id, 0, 1) for r in records
    }
    price = price_for(MODEL)
    assert price is not None
    full = price.cost(sum((TokenCounts.from_usage(r.usage) for r in records), TokenCounts()))
    summary = json.loads((tmp_path / "reports" / "summary.json").read_text())
    assert summary["cost"]["usd"] == pytest.approx(full / 2)
    assert summary["cost"]["batch_savings_usd"] == pytest.approx(full / 2)
    assert "Saved by batches | $" in (tmp_path / "reports" / "kmp.md").read_text()


def test_repairs_go_in_a_later_batch(server_env: FakeModelServer, tmp_path: Path) -> None:
    right = _right(server_env)
    unreadable = set(list(right)[:2])  # two cases first answered with no JSON at all

    def case_prompt(params: dict[str, Any]) -> str:  # a repair prompt extends the case's
        return next(p for p in right if _prompt(params).startswith(p))

    def answer(cid: str, params: dict[str, Any]) -> dict[str, Any]:
        if _prompt(params) in unreadable:
            return server_env.batch_succeeded("I cannot format this.")
        return server_env.batch_succeeded(right[case_prompt(params)])

    api = server_env.FakeBatchAPI(answer)
    server_env.batches = api
    assert _verify(tmp_path, "--repair-attempts", "2") == 1  # first attempts certify: 4/6
    first, second = api.created
    assert len(first) == CASES and len(second) == 2
    assert all(r["custom_id"].endswith("_0_2") for r in second)
    assert {case_prompt(r["params"]) for r in second} == unreadable
    assert all("could not be read" in _prompt(r["params"]) for r in second)
    records = read_journal(_run(tmp_path) / "results.jsonl")
    assert sorted(r.attempt for r in records) == [1] * CASES + [2, 2]
    assert all(r.outcome == "passed" for r in records if r.attempt == 2)


def test_each_result_type_is_handled_and_the_rest_finished_synchronously(
    server_env: FakeModelServer, tmp_path: Path
) -> None:
    right = _right(server_env)
    prompts = list(right)
    kinds = {prompts[0]: "errored", prompts[1]: "canceled", prompts[2]: "expired"}

    def answer(cid: str, params: dict[str, Any]) -> dict[str, Any]:
        kind = kinds.get(_prompt(params))
        if kind == "errored":
            return server_env.batch_errored()
        if kind is not None:
            return {"type": kind}
        return server_env.batch_succeeded(right[_prompt(params)])

    server_env.batches = server_env.FakeBatchAPI(answer)
    server_env.script([server_env.kmp_messages(SEED, CASES)] * 3)  # the three, one by one
    assert _verify(tmp_path) == 0
    records = read_journal(_run(tmp_path) / "results.jsonl")
    failed = [r for r in records if r.outcome == "infra_error"]
    assert sorted(r.reason.split(": ", 1)[1] for r in failed) == [
        "the batch request failed: overloaded_error",
        "the batch request was canceled",
        "the batch request was expired",
    ]
    assert Counter(r.source for r in records if r.outcome == "passed") == {
        "batch": CASES - 3,
        "live": 3,
    }


def test_without_the_synchronous_finish_a_resume_sends_only_what_failed(
    server_env: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    right = _right(server_env)
    expired = next(iter(right))
    state = {"expire": True}

    def answer(cid: str, params: dict[str, Any]) -> dict[str, Any]:
        if state["expire"] and _prompt(params) == expired:
            return {"type": "expired"}
        return server_env.batch_succeeded(right[_prompt(params)])

    api = server_env.FakeBatchAPI(answer)
    server_env.batches = api
    monkeypatch.setenv("VERIFY_BATCH_SYNC_FINISH", "false")
    assert _verify(tmp_path) == 3  # an infrastructure error: INCOMPLETE
    state["expire"] = False
    run = _run(tmp_path)
    assert main(["verify", "--resume", run.name, "--output", str(tmp_path)]) == 0
    first, second = api.created
    assert len(first) == CASES and [_prompt(r["params"]) for r in second] == [expired]


def test_a_killed_run_resumes_polling_its_batch_instead_of_sending_it_again(
    server_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    api = _answering_right(server_env, polls=None)
    settings = load_settings(
        provider="anthropic",
        model=MODEL,
        batch=True,
        cases=CASES,
        seed=SEED,
        results_dir=tmp_path,
        cache=False,
    )

    async def killed_while_polling() -> str:
        runner = VerificationRunner(settings)
        task = asyncio.create_task(runner.run(["kmp"]))
        while not api.retrievals:  # submitted and written down, now polling
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert runner.run_id is not None
        return runner.run_id

    run_id = asyncio.run(killed_while_polling())
    manifest = read_manifest_file(tmp_path / "runs" / run_id / "manifest.json")
    assert manifest.interrupted and not read_journal(tmp_path / "runs" / run_id / "results.jsonl")
    api.polls = 1  # the batch ends
    capsys.readouterr()
    assert main(["verify", "--resume", run_id, "--output", str(tmp_path)]) == 0
    assert len(api.created) == 1  # polled again, never sent again
    records = read_journal(tmp_path / "runs" / run_id / "results.jsonl")
    assert len(records) == CASES and {r.source for r in records} == {"batch"}
    # Each of them this resume's (hunt ak: "0 of them by this resume").
    said = f"{CASES} batch answer(s) in the run's journal, {CASES} of them by this resume"
    assert said in capsys.readouterr().out


def test_answers_the_response_cache_holds_are_not_sent(
    server_env: FakeModelServer, tmp_path: Path
) -> None:
    api = _answering_right(server_env)
    assert _verify(tmp_path) == 0
    assert _verify(tmp_path) == 0
    assert len(api.created) == 1  # the second run found every answer in the cache
    runs = sorted(
        (tmp_path / "runs").iterdir(),
        key=lambda run: read_manifest_file(run / "manifest.json").created_at,
    )
    assert {r.source for r in read_journal(runs[-1] / "results.jsonl")} == {"cache"}


def test_custom_ids_fit_the_api_stay_unique_and_carry_the_run() -> None:
    long_case = "a_plugin_scaffold_with_a_very_long_name-standard-s1200-004"
    tokens = [
        intent_token(run, n) for run in ("20261126T080728Z-565137", "other-run") for n in (1, 2)
    ]
    assert len(set(tokens)) == len(tokens)  # each intent of each run its own
    ids = {
        custom_id(token, case, epoch, attempt)
        for token in tokens
        for case in ("kmp-edge-001", long_case)
        for epoch in range(20)
        for attempt in (1, 2, 3)
    }
    assert len(ids) == len(tokens) * 2 * 20 * 3 and all(CUSTOM_ID.match(i) for i in ids)
    assert all(any(i.startswith(f"{t}_") for t in tokens) for i in ids)
    token = tokens[0]
    assert custom_id(token, "kmp-edge-001", 3, 2) == f"{token}_kmp-edge-001_3_2"  # readable


def test_batch_is_refused_for_a_provider_without_batches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["verify", "kmp", "--provider", "reference", "--batch", "--output", str(tmp_path)])
    assert code == 2 and "Message Batches" in capsys.readouterr().err
    assert not (tmp_path / "runs").exists()


def test_a_batch_counts_whole_against_the_budget_when_it_is_sent(
    server_env: FakeModelServer, tmp_path: Path
) -> None:
    api = _answering_right(server_env)
    price = price_for(MODEL)
    assert price is not None
    one_case = price.cost(TokenCounts(output=1, cache_write=1))  # far below any case's worst
    assert _verify(tmp_path, "--max-cost", f"{CASES * one_case:.10f}") == 3
    assert api.created == []  # the whole batch would pass the budget: nothing sent
    manifest = read_manifest_file(_run(tmp_path) / "manifest.json")
    assert manifest.stopped_by_budget


def test_a_batch_past_its_deadline_is_canceled_and_its_cases_asked_one_by_one(
    server_env: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = _answering_right(server_env, polls=None)  # never ends
    monkeypatch.setenv("VERIFY_BATCH_DEADLINE", "0.3")
    server_env.script([server_env.kmp_messages(SEED, CASES)] * CASES)
    assert _verify(tmp_path) == 0
    assert len(api.created) == 1 and api.canceled == {"msgbatch_fake0"}
    records = read_journal(_run(tmp_path) / "results.jsonl")
    late = [r for r in records if r.outcome == "infra_error"]
    assert len(late) == CASES and all("did not end within 0.3 s" in r.reason for r in late)
    assert Counter(r.source for r in records if r.outcome == "passed") == {"live": CASES}


def test_the_estimate_of_a_batch_run_is_at_half_price(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def estimate(*extra: str) -> float:
        argv = ["verify", "kmp", "--model", MODEL, "--cases", "40", "--estimate", *extra]
        assert main([*argv, "--output", str(tmp_path)]) == 0
        (usd,) = re.findall(r"at most \$([0-9.]+) for", capsys.readouterr().out)
        return float(usd)

    # At half the list price, every request's prompt priced as a cache write (a batch has
    # no warm-up: tests/run/test_budget_holds.py holds it to what its budget needs), which
    # costs more than a live run's one write and reads after.
    assert estimate() / 2 < estimate("--batch") < estimate()


def test_a_batch_answer_with_no_billed_counts_is_counted_at_its_worst_case(
    server_env: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Hunt al: answers whose token counts were all zeros (as some proxies send) were counted
    # as free by the budget, though journalled at their worst case, and the repairs' batch
    # was sent past --max-cost.
    from verification.run.budget import CostBudget

    zeros = {"input_tokens": 0, "output_tokens": 0}
    api = server_env.FakeBatchAPI(
        lambda cid, params: server_env.batch_succeeded("I cannot format this.", **zeros)
    )
    server_env.batches = api
    sent: list[float] = []
    reserve = CostBudget.start

    def start(budget: CostBudget, key: int, worst_case: float) -> bool:
        sent.append(worst_case)
        return reserve(budget, key, worst_case)

    monkeypatch.setattr(CostBudget, "start", start)
    _verify(tmp_path / "probe", "--repair-attempts", "2", "--no-cache", "--max-cost", "1000")
    first = sent[0]  # what the first batch holds: every first attempt's worst case
    limit = 1.5 * first
    _verify(tmp_path / "out", "--repair-attempts", "2", "--no-cache", "--max-cost", f"{limit:.6f}")
    assert len(api.created) == 2 + 1  # the probe's two batches, then the first alone
    spent = json.loads((tmp_path / "out" / "reports" / "summary.json").read_text())
    assert spent["cost"]["usd"] <= limit
