"""Every command the CLI prints for the user to run works as printed (issue 27 items 1-2): a
resumed run keeps the settings it was started with (``--no-cache`` included), the resume
hint of a stopped run and the ``--max-cost`` stop hint are followed word for word here."""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.fake_server import (
    FakeModelServer,
    RecordedRequest,
    Reply,
    Step,
    anthropic_error,
    kmp_messages,
)
from verification.cli import main
from verification.registry import get_spec
from verification.store.journal import read_journal
from verification.store.pricing import ModelPrice, TokenCounts

MODEL, SEED, CASES = "claude-hint-model", 11, 4


def _argv(output: Path, *extra: str) -> list[str]:
    return [
        *("verify", "kmp", "--provider", "anthropic", "--model", MODEL, "--seed", str(SEED)),
        *("--cases", str(CASES), "--concurrency", "1", "--output", str(output), *extra),
    ]


def _hint(err: str, lead: str) -> list[str]:
    """The command of the one line of ``err`` holding ``lead``, from its ``verify`` on (the
    words before it name the program, which the test calls in process)."""
    (line,) = [line for line in err.splitlines() if lead in line]
    words = shlex.split(line.split(lead, 1)[1])
    return words[words.index("verify") :]


def _run(output: Path) -> Path:
    (run,) = (output / "runs").iterdir()
    return run


def _cache_filled(anthropic_env: FakeModelServer, tmp_path: Path) -> None:
    """A run of the same cases with the cache on, in another results folder: every answer a
    later run could take from the cache is there."""
    anthropic_env.script([kmp_messages(SEED, CASES)] * CASES)
    assert main(_argv(tmp_path / "cached")) == 0
    assert len(anthropic_env.requests) == CASES


def test_the_max_cost_hint_works_as_printed_and_keeps_no_cache(
    anthropic_env: FakeModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _cache_filled(anthropic_env, tmp_path)
    # Output is all that is priced and each reply spends its whole output budget: each case
    # costs its worst case, so 1.5 cases' budget allows one.
    monkeypatch.setenv("VERIFY_PRICES", json.dumps({MODEL: {"input": 0.0, "output": 2.0}}))
    budget = get_spec("kmp").max_output_tokens
    per_case = ModelPrice(input=0.0, output=2.0).cost(TokenCounts(output=budget))
    anthropic_env.script([kmp_messages(SEED, CASES, output_tokens=budget)] * (2 * CASES))
    capsys.readouterr()
    output = tmp_path / "results"
    limit = f"{1.5 * per_case:.6f}"
    assert main(_argv(output, "--no-cache", "--max-cost", limit)) == 3
    err = capsys.readouterr().err
    assert f"${per_case:.4f} of ${float(limit):g} spent" in err
    assert "worst case" in err
    command = _hint(err, "continue with a larger budget: ")
    assert "--no-cache" in command and "--output" in command
    assert main(command) in (0, 3)  # followed as printed: no exit 2
    while "--max-cost" in (command := _hint(capsys.readouterr().err or "", "budget: ")):
        if main(command) == 0:
            break
    records = read_journal(_run(output) / "results.jsonl")
    assert len({r.case_id for r in records}) == CASES
    assert {r.source for r in records} == {"live"}, "a --no-cache run takes nothing cached"
    assert len(anthropic_env.requests) == 2 * CASES


def test_a_no_cache_run_resumed_with_its_id_alone_asks_the_model(
    anthropic_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _cache_filled(anthropic_env, tmp_path)
    refused = anthropic_error(401, "authentication_error", "invalid x-api-key")
    anthropic_env.script([kmp_messages(SEED, CASES), refused])
    output = tmp_path / "results"
    assert main(_argv(output, "--no-cache")) == 2
    command = _hint(capsys.readouterr().err, "continue with: ")
    assert "--no-cache" in command, "the resume hint keeps the run's --no-cache"
    anthropic_env.script([kmp_messages(SEED, CASES)] * CASES)
    # Without the option the run still keeps its own setting: the cache is not read.
    without = [word for word in command if word != "--no-cache"]
    assert main(without) == 0
    records = read_journal(_run(output) / "results.jsonl")
    answered = [r for r in records if r.outcome != "infra_error"]
    assert len({r.case_id for r in answered}) == CASES
    assert {r.source for r in answered} == {"live"}
    manifest = json.loads((_run(output) / "manifest.json").read_text("utf-8"))
    assert manifest["settings"]["cache"] is False


OPENAI_MODEL = "fake-model"
VARIABLES = {"openai": "VERIFY_OPENAI_BASE_URL", "anthropic": "ANTHROPIC_BASE_URL"}


def _openai_argv(output: Path, *extra: str) -> list[str]:
    return [
        *("verify", "kmp", "--provider", "openai", "--model", OPENAI_MODEL, "--seed", str(SEED)),
        *("--cases", str(CASES), "--concurrency", "1", "--no-cache", "--output", str(output)),
        *extra,
    ]


def _chat_answers(server: FakeModelServer) -> Callable[[RecordedRequest], Reply]:
    """A step answering any ``kmp`` case of the run right through chat completions."""
    replies = server.right_kmp_replies(SEED, CASES)

    def answer(sent: RecordedRequest) -> Reply:
        return server.chat_completion(replies[sent.json["messages"][-1]["content"]])

    return answer


def _answers(provider: str, server: FakeModelServer) -> list[Step]:
    """The steps a resumed run of ``provider`` takes to answer the cases a run stopped by
    :func:`_stopped_by_a_refused_key` left (all but one)."""
    if provider == "openai":
        return [server.models(OPENAI_MODEL), *[_chat_answers(server)] * (CASES - 1)]
    return [kmp_messages(SEED, CASES)] * (CASES - 1)


def _stopped_by_a_refused_key(
    provider: str,
    server: FakeModelServer,
    monkeypatch: pytest.MonkeyPatch,
    output: Path,
    capsys: pytest.CaptureFixture[str],
) -> list[str]:
    """A run of ``provider`` at the fake server, named by its variable, stopped after one
    answer by a refused key: the resume hint it printed. The variable is unset then."""
    if provider == "openai":
        monkeypatch.setenv("VERIFY_OPENAI_BASE_URL", server.openai_base_url)
        refused = server.openai_error(401, "invalid_request_error", "bad key")
        server.script([server.models(OPENAI_MODEL), _chat_answers(server), refused])
        assert main(_openai_argv(output)) == 2
    else:
        refused = anthropic_error(401, "authentication_error", "invalid x-api-key")
        server.script([kmp_messages(SEED, CASES), refused])
        assert main(_argv(output, "--no-cache")) == 2
    monkeypatch.delenv(VARIABLES[provider])
    return _hint(capsys.readouterr().err, "continue with: ")


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_resume_hint_works_without_the_server_variable(
    anthropic_env: FakeModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    provider: str,
) -> None:
    # Before: the hint, followed in a shell without the variable, went to the default
    # server (openai: "cannot reach ... 127.0.0.1:8000", exit 2) and was refused.
    command = _stopped_by_a_refused_key(provider, anthropic_env, monkeypatch, tmp_path, capsys)
    anthropic_env.script(_answers(provider, anthropic_env))
    assert main(command) == 0, capsys.readouterr().err
    records = read_journal(_run(tmp_path) / "results.jsonl")
    assert len({r.case_id for r in records if r.outcome != "infra_error"}) == CASES
    assert anthropic_env.remaining == 0


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_resume_at_another_server_is_refused_saying_how_to_go_on(
    anthropic_env: FakeModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    provider: str,
) -> None:
    command = _stopped_by_a_refused_key(provider, anthropic_env, monkeypatch, tmp_path, capsys)
    asked = len(anthropic_env.requests)
    recorded = anthropic_env.openai_base_url if provider == "openai" else anthropic_env.base_url
    # Another server, given with a password: refused before any request, the password unsaid.
    monkeypatch.setenv(VARIABLES[provider], "http://me:pw-canary-77@127.0.0.1:9/v1")
    assert main(command) == 2
    err = capsys.readouterr().err
    assert VARIABLES[provider] in err and "unset it" in err and recorded in err
    assert "http://127.0.0.1:9/v1" in err
    assert "new run" not in err and "pw-canary-77" not in err
    assert len(anthropic_env.requests) == asked, "nothing was sent"
    # The same server, with a password the manifest never kept and a trailing slash: the
    # run goes on.
    monkeypatch.setenv(VARIABLES[provider], recorded.replace("//", "//me:pw-canary-77@") + "/")
    anthropic_env.script(_answers(provider, anthropic_env))
    assert main(command) == 0, capsys.readouterr().err
    manifest = (_run(tmp_path) / "manifest.json").read_text("utf-8")
    assert "pw-canary-77" not in manifest


def test_a_spend_already_past_the_budget_is_offered_a_budget_past_what_was_spent(
    anthropic_env: FakeModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Hunt qq: usage past the worst case a run reserved left $7,350 spent of $1, and the
    # hint offered --max-cost 2, whose resume stopped at once, then 4, 8, ...
    monkeypatch.setenv("VERIFY_PRICES", json.dumps({MODEL: {"input": 0.0, "output": 2.0}}))
    budget = get_spec("kmp").max_output_tokens
    per_case = ModelPrice(input=0.0, output=2.0).cost(TokenCounts(output=budget))
    lying = kmp_messages(SEED, CASES, output_tokens=20 * budget)  # 20 worst cases, said spent
    anthropic_env.script([lying] + [kmp_messages(SEED, CASES)] * CASES)
    output = tmp_path / "results"
    capsys.readouterr()
    assert main(_argv(output, "--no-cache", "--max-cost", f"{1.5 * per_case:.6f}")) == 3
    err = capsys.readouterr().err
    assert "is already past the budget" in err
    command = _hint(err, "continue with a larger budget: ")
    offered = float(command[command.index("--max-cost") + 1])
    assert offered >= 2 * 20 * per_case
    asked = len(anthropic_env.requests)
    assert main(command) == 0  # followed once, as printed: every case answered
    assert len(anthropic_env.requests) == asked + CASES - 1
    # The cost is the run's, and says what this resume asked (hunt vv: read as its own).
    (line,) = [x for x in capsys.readouterr().out.splitlines() if x.startswith("cost: $")]
    said = f"for {CASES} live call(s) in the run's journal, {CASES - 1} of them by this resume"
    assert said in line
