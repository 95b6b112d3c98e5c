"""Choosing a new run's cases (issue 27 item 10): ``-k EXPR`` by id as pytest's ``-k``, and
``--rerun-failed RUN_ID`` asking only an earlier run's failures, with today's options, as a
new run its manifest links."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from verification.cli import main
from verification.errors import ConfigurationError
from verification.run.selection import parse_keyword
from verification.store.journal import read_journal

if TYPE_CHECKING:
    from tests.support.fake_server import FakeModelServer, RecordedRequest, Reply

KEY = "sk-ant-selection-canary-Lp40"
IDS = [
    "kmp-simple-000",
    "kmp-standard-001",
    "kmp-edge-s12-002",
    "dijkstra-edge-003",
    "Dijkstra-Standard-010",
]


@pytest.mark.parametrize(
    ("expression", "oracle"),
    [
        ("kmp", lambda i: "kmp" in i),
        ("KMP", lambda i: "kmp" in i),  # case-insensitive, as pytest's
        ("not simple", lambda i: "simple" not in i),
        ("kmp and not edge", lambda i: "kmp" in i and "edge" not in i),
        ("edge or simple and kmp", lambda i: "edge" in i or ("simple" in i and "kmp" in i)),
        ("(edge or simple) and kmp", lambda i: ("edge" in i or "simple" in i) and "kmp" in i),
        ("not not s12", lambda i: "s12" in i),
        ("dijkstra-standard-0", lambda i: "dijkstra-standard-0" in i),
        ("not (kmp or edge)", lambda i: not ("kmp" in i or "edge" in i)),
    ],
)
def test_a_keyword_expression_selects_as_pytest_s_k_does(expression: str, oracle: Any) -> None:
    matches = parse_keyword(expression)
    assert [i for i in IDS if matches(i)] == [i for i in IDS if oracle(i.lower())]


@pytest.mark.parametrize(
    ("expression", "why"),
    [
        ("", "empty"),
        ("kmp and", "ends where a word was expected"),
        ("(kmp or edge", "never closed"),
        ("kmp edge", "unexpected 'edge'"),
        ("kmp)", "unexpected ')'"),
        ("or kmp", "'or' where a word was expected"),
        ("__import__('os')", '"\'" is no part'),
        ("kmp; rm", "';' is no part"),
    ],
)
def test_a_bad_keyword_expression_is_refused_saying_why(expression: str, why: str) -> None:
    with pytest.raises(ConfigurationError, match="bad -k expression") as caught:
        parse_keyword(expression)
    assert why in str(caught.value)


def _ids(output: Path) -> list[str]:
    manifest = json.loads(next((output / "runs").glob("*/manifest.json")).read_text("utf-8"))
    return [i for entry in manifest["scaffolds"].values() for i in entry["case_ids"]]


def test_k_keeps_only_the_planned_cases_it_selects(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["verify", "kmp", "rabin_karp", "--provider", "reference", "--cases", "6"]
    assert main([*argv, "--output", str(tmp_path / "all")]) == 0
    everything = _ids(tmp_path / "all")
    expression = "(rabin or simple) and not 001"
    matches = lambda i: ("rabin" in i or "simple" in i) and "001" not in i  # noqa: E731
    assert main([*argv, "--output", str(tmp_path / "k"), "-k", expression]) == 0
    assert _ids(tmp_path / "k") == [i for i in everything if matches(i)]
    assert 0 < len(_ids(tmp_path / "k")) < len(everything)
    capsys.readouterr()
    assert main([*argv, "--output", str(tmp_path / "none"), "-k", "nothing_has_this"]) == 2
    assert "selects none of the" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:  # a usage error, never a traceback
        main([*argv, "-k", "kmp and (simple or"])
    assert exited.value.code == 2
    assert "bad -k expression" in capsys.readouterr().err


def test_k_selecting_every_case_of_a_scaffold_runs_it_as_if_named(tmp_path: Path) -> None:
    named = ["verify", "rabin_karp", "--provider", "reference", "--level", "quick"]
    assert main([*named, "--output", str(tmp_path / "named")]) == 0
    both = ["verify", "kmp", "rabin_karp", "--provider", "reference", "--level", "quick"]
    assert main([*both, "--output", str(tmp_path / "k"), "-k", "rabin"]) == 0
    manifests = [
        json.loads(next((tmp_path / d / "runs").glob("*/manifest.json")).read_text("utf-8"))
        for d in ("named", "k")
    ]
    # Under the level's own plan, not as chosen cases (a fixed plan of every case).
    for key in ("scaffolds", "plan", "case_filter", "level"):
        assert manifests[0][key] == manifests[1][key], key


@pytest.mark.slow
def test_rerun_failed_asks_only_the_failures_as_a_new_linked_run_with_today_s_options(
    anthropic_env: FakeModelServer, tmp_path: Path
) -> None:
    cases, seed = 8, 11
    replies = anthropic_env.right_kmp_replies(seed, cases)
    wrong = set(sorted(replies)[::3])  # these prompts get a reply that cannot be read
    asked: list[tuple[str, str]] = []
    lock = threading.Lock()

    def answer(sent: RecordedRequest) -> Reply:
        prompt = sent.json["messages"][0]["content"]
        with lock:
            asked.append((sent.json["model"], prompt))
        if prompt in wrong and sent.json["model"] == "claude-first":
            return anthropic_env.message("no answer here")
        return anthropic_env.message(replies[prompt])

    anthropic_env.script([answer] * 200)
    common = ["--provider", "anthropic", "--no-cache", "--output", str(tmp_path)]
    first = ["verify", "kmp", "--model", "claude-first", "--cases", str(cases)]
    assert main([*first, "--seed", str(seed), *common]) == 1
    (first_run,) = (tmp_path / "runs").iterdir()
    failed = sorted(
        {r.case_id for r in read_journal(first_run / "results.jsonl") if r.outcome != "passed"}
    )
    assert failed and len(failed) < cases
    asked.clear()

    # Another model, no seed and no scaffold named: the run's own seed and failures.
    argv = ["verify", "--rerun-failed", first_run.name, "--model", "claude-second", *common]
    assert main(argv) == 0
    (second_run,) = (p for p in (tmp_path / "runs").iterdir() if p != first_run)
    manifest = json.loads((second_run / "manifest.json").read_text("utf-8"))
    assert manifest["reruns"] == first_run.name
    assert manifest["model_requested"] == "claude-second"
    assert sorted(manifest["scaffolds"]["kmp"]["case_ids"]) == failed
    assert {model for model, _ in asked} == {"claude-second"}
    assert {prompt for _, prompt in asked} == wrong  # the same cases: the first run's seed
    assert {r.outcome for r in read_journal(second_run / "results.jsonl")} == {"passed"}
    # A seed that would draw other cases under the same ids is refused.
    assert main([*argv, "--seed", str(seed + 1)]) == 2


@pytest.mark.slow
def test_rerun_failed_alone_asks_the_run_s_own_local_server_and_model(
    anthropic_env: FakeModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Before: with no --provider the failures of a run at a local server went to Anthropic,
    # "no Anthropic API key", whatever the run had asked.
    cases, seed, model = 6, 5, "local-qwen"
    replies = anthropic_env.right_kmp_replies(seed, cases)
    wrong = set(sorted(replies)[::2])
    asked: list[str] = []  # the models the rerun asked
    rerun = threading.Event()

    def answer(sent: RecordedRequest) -> Reply:
        prompt = sent.json["messages"][-1]["content"]
        if rerun.is_set():
            asked.append(sent.json["model"])
            return anthropic_env.chat_completion(replies[prompt])
        return anthropic_env.chat_completion("no answer" if prompt in wrong else replies[prompt])

    anthropic_env.script([anthropic_env.models(model), *[answer] * cases])
    monkeypatch.setenv("VERIFY_OPENAI_BASE_URL", anthropic_env.openai_base_url)
    common = ["--no-cache", "--concurrency", "1", "--output", str(tmp_path)]
    first = ["verify", "kmp", "--provider", "openai", "--model", model, "--seed", str(seed)]
    assert main([*first, "--cases", str(cases), *common]) == 1
    (first_run,) = (tmp_path / "runs").iterdir()
    monkeypatch.delenv("VERIFY_OPENAI_BASE_URL")
    rerun.set()
    anthropic_env.script([anthropic_env.models(model), *[answer] * len(wrong)])
    capsys.readouterr()

    assert main(["verify", "--rerun-failed", first_run.name, *common]) == 0, capsys.readouterr()
    (second_run,) = (p for p in (tmp_path / "runs").iterdir() if p != first_run)
    manifest = json.loads((second_run / "manifest.json").read_text("utf-8"))
    assert (manifest["provider"]["provider"], manifest["model_requested"]) == ("openai", model)
    assert asked == [model] * len(wrong)
    # A provider named today holds: the failures asked of the reference, a dry run.
    dry = ["verify", "--rerun-failed", first_run.name, "--provider", "reference"]
    assert main([*dry, *common]) == 0
    assert len(asked) == len(wrong), "the server was asked again"


def test_rerun_failed_of_a_code_mode_run_says_its_programs_are_not_rerun(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt w: a code-mode run whose programs all failed got "has no failed or errored case
    # to ask again", exit 0. The run here is a dry run whose manifest says code mode: the
    # refusal reads no more of it (a real one needs the sandbox).
    argv = ["verify", "kmp", "--provider", "reference", "--cases", "2", "--output", str(tmp_path)]
    assert main(argv) == 0
    (run,) = (tmp_path / "runs").iterdir()
    manifest = json.loads((run / "manifest.json").read_text("utf-8"))
    manifest["settings"]["answer"] = "code"
    (run / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    capsys.readouterr()
    rerun = ["verify", "--rerun-failed", run.name, "--provider", "reference"]
    assert main([*rerun, "--output", str(tmp_path)]) == 2
    assert "a code-mode run's programs are not asked again by id" in capsys.readouterr().err
