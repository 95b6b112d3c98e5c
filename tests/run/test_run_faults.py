"""Runs that survive: injected faults, kill -9, Ctrl-C and SIGTERM, two owners of one run,
run ids that are paths, a manifest at odds with its journal, bidirectional controls from a
server. Everything goes through the real ``anthropic`` SDK against the fake server on
127.0.0.1; the runs that must be killed run as real processes (``python -m verification``,
forked from an interpreter that has imported the harness and the SDK once:
tests/support/preloaded.py).
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from verification.catalog import default_catalog
from verification.certify.results import results_from_journal
from verification.cli import main
from verification.config import packaged_scaffolds_dir
from verification.llm.prompt_builder import PromptBuilder
from verification.registry import get_spec
from verification.runner import plan_cases
from verification.store.journal import JournalWriter, read_journal
from verification.store.manifests import read_manifest_file
from verification.store.paths import RunPaths

if TYPE_CHECKING:
    from tests.support.fake_server import FakeModelServer, RecordedRequest, Reply, Step
    from tests.support.preloaded import ForkServer, Process

KEY = "sk-ant-faults-canary-Zq81LmX3"
MODEL = "claude-test-model"
SEED = 5
POSIX = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def _answers(server: FakeModelServer, cases: int, *, delay: float = 0.0) -> Callable[..., Reply]:
    """A step answering each ``kmp`` case (found by its prompt): right, except every fifth
    case, answered with another case's answer (so outcomes are not all "passed")."""
    builder = PromptBuilder(packaged_scaffolds_dir())
    spec = get_spec("kmp")
    planned = plan_cases(["kmp"], seed=SEED, cases=cases)["kmp"]
    answers = {}
    for index, case in enumerate(planned):
        source = planned[(index + 1) % len(planned)] if index % 5 == 0 else case
        answers[builder.build("kmp", case.input).user] = spec.render_answer(source.expected)

    def answer(sent: RecordedRequest) -> Reply:
        time.sleep(delay)
        return server.message(answers[sent.json["messages"][0]["content"]])

    return answer


def _env(server: FakeModelServer, **settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VERIFY_", "ANTHROPIC_"))}
    env.update(ANTHROPIC_API_KEY=KEY, ANTHROPIC_BASE_URL=server.base_url)
    env.update({f"VERIFY_{name.upper()}": value for name, value in settings.items()})
    return env


def _verify_argv(output: Path, cases: int) -> list[str]:
    return [
        *("verify", "kmp", "--provider", "anthropic", "--model", MODEL),
        *("--cases", str(cases), "--seed", str(SEED), "--output", str(output)),
    ]


def _resume(run: Path, output: Path) -> int:
    argv = ["verify", "--resume", run.name, "--provider", "anthropic", "--model", MODEL]
    return main([*argv, "--output", str(output)])


@pytest.fixture
def server_env(
    fake_server: FakeModelServer, monkeypatch: pytest.MonkeyPatch
) -> Iterator[FakeModelServer]:
    """The fake server, and this process's settings pointed at it."""
    for name, value in _env(fake_server, retry_initial_wait="0.01").items():
        if name.startswith(("VERIFY_", "ANTHROPIC_")):
            monkeypatch.setenv(name, value)
    yield fake_server


def _start(forks: ForkServer, server: FakeModelServer, output: Path, cases: int) -> Process:
    # The child hears Ctrl-C even where this suite runs with SIGINT ignored (a shell's
    # background job: CI, `pytest &`): the fork server gives it Python's default handler.
    return forks.start(
        _verify_argv(output, cases),
        env=_env(server, concurrency="2", retry_initial_wait="0.01"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for_lines(output: Path, lines: int, process: Process) -> Path:
    """The run folder once its journal holds ``lines`` lines (the process still running)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for journal in (output / "runs").glob("*/results.jsonl"):
            if journal.read_text().count("\n") >= lines:
                return journal.parent
        assert process.poll() is None, process.communicate()
        time.sleep(0.02)
    raise AssertionError("the run wrote no journal lines in time")


def _from_cache(run: Path) -> int:
    return sum(r.source == "cache" for r in read_journal(run / "results.jsonl"))


def _first_attempts(run: Path) -> Counter[str]:
    return Counter(r.case_id for r in read_journal(run / "results.jsonl") if r.attempt == 1)


# --- injected faults: the same outcomes as a clean run ---------------------------------------


def _outcomes(output: Path) -> dict[str, str]:
    (run,) = (output / "runs").iterdir()
    return {r.case_id: r.outcome for r in read_journal(run / "results.jsonl")}


@pytest.mark.slow
def test_thirty_percent_injected_faults_give_the_clean_runs_outcomes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.support.fake_server import DROP, FakeModelServer

    cases = 20
    with FakeModelServer(max_requests=400) as server:
        answer = _answers(server, cases)
        faults: list[Step] = [
            server.anthropic_error(429, "rate_limit_error", headers={"retry-after": "0"}),
            server.anthropic_error(529, "overloaded_error", "Overloaded"),
            server.anthropic_error(500, "api_error", "Internal"),
            DROP,
        ]
        rng, lock, injected = random.Random(7), threading.Lock(), Counter[str]()

        def faulty(sent: RecordedRequest) -> Reply | str:
            with lock:
                fault = rng.choice(faults) if rng.random() < 0.3 else None
            if fault is None:
                return answer(sent)
            injected[fault if fault == DROP else str(fault.status)] += 1  # type: ignore[union-attr]
            return fault  # type: ignore[return-value]

        for name, value in _env(server, max_retries="8", retry_initial_wait="0.01").items():
            monkeypatch.setenv(name, value)
        server.script([answer] * cases)
        clean_code = main([*_verify_argv(tmp_path / "clean", cases), "--concurrency", "4"])
        clean_requests = len(server.requests)
        server.script([faulty] * 300)
        # --no-cache: the clean run's answers are in the shared cache, and these must be asked.
        faulty_argv = [*_verify_argv(tmp_path / "faulty", cases), "--concurrency", "4"]
        faulty_code = main([*faulty_argv, "--no-cache"])
        faulty_requests = len(server.requests) - clean_requests
    assert clean_requests == cases
    assert faulty_code == clean_code == 1  # every fifth answer is wrong: PARTIAL, not INCOMPLETE
    assert _outcomes(tmp_path / "faulty") == _outcomes(tmp_path / "clean")
    assert sum(injected.values()) == faulty_requests - cases > 0
    print(
        f"\nfaulty run: {faulty_requests} requests for {cases} cases, "
        f"{sum(injected.values())} faults injected ({dict(injected)}), "
        f"{faulty_requests - cases} retries; outcomes equal to the clean run's: "
        f"{dict(Counter(_outcomes(tmp_path / 'faulty').values()))}"
    )


# --- kill -9, Ctrl-C and SIGTERM -----------------------------------------------------------


@pytest.mark.slow
@POSIX
def test_kill_9_then_resume_loses_nothing_and_repays_only_the_calls_in_flight(
    fake_server: FakeModelServer,
    fork_server: ForkServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cases = 10
    fake_server.script([_answers(fake_server, cases, delay=0.15)] * 16)
    process = _start(fork_server, fake_server, tmp_path, cases)
    run = _wait_for_lines(tmp_path, 3, process)
    process.kill()
    process.communicate()
    # A request the killed run had sent may still be read (and recorded) after its death.
    fake_server.settled()
    sent_before = len(fake_server.requests)
    kept = sum(_first_attempts(run).values())
    in_flight = sent_before - kept
    assert 0 <= in_flight <= 2  # --concurrency 2
    for name, value in _env(fake_server).items():
        monkeypatch.setenv(name, value)
    assert _resume(run, tmp_path) == 1
    counted = _first_attempts(run)
    assert sorted(counted) == sorted(
        c.id for c in plan_cases(["kmp"], seed=SEED, cases=cases)["kmp"]
    )
    assert set(counted.values()) == {1}, "no case answered twice"
    # The unanswered, once: asked again, or served by the response cache when the killed run
    # had its answer stored but not yet journalled.
    cached = _from_cache(run)
    assert len(fake_server.requests) - sent_before + cached == cases - kept


@pytest.mark.slow
@POSIX
@pytest.mark.parametrize(
    ("sent", "code", "said"),
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "SIGTERM")],
)
def test_ctrl_c_and_sigterm_stop_cleanly_with_a_resume_hint(
    fake_server: FakeModelServer,
    fork_server: ForkServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    sent: signal.Signals,
    code: int,
    said: str,
) -> None:
    cases = 8
    fake_server.script([_answers(fake_server, cases, delay=0.15)] * 14)
    process = _start(fork_server, fake_server, tmp_path, cases)
    run = _wait_for_lines(tmp_path, 2, process)
    process.send_signal(sent)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == code, stderr
    assert said in stderr and f"--resume {run.name}" in stderr
    assert "Traceback" not in stderr
    assert read_manifest_file(run / "manifest.json").interrupted
    for name, value in _env(fake_server).items():
        monkeypatch.setenv(name, value)
    assert _resume(run, tmp_path) == 1
    assert set(_first_attempts(run).values()) == {1} and sum(_first_attempts(run).values()) == 8
    assert not read_manifest_file(run / "manifest.json").interrupted


@pytest.mark.slow
@POSIX
@pytest.mark.parametrize(("sent", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_dry_run_stops_when_asked_not_at_its_end(
    fork_server: ForkServer, tmp_path: Path, sent: signal.Signals, code: int
) -> None:
    # A helper's hunt: the reference and replay providers never wait, so the event loop
    # never turned and SIGTERM was handled when the run had ended: exit 0, every case asked.
    cases = 150
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERIFY_")}
    argv = ["verify", "--category", "graph", "--cases", str(cases), "--provider", "reference"]
    process = fork_server.start(
        [*argv, "--output", str(tmp_path)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    run = _wait_for_lines(tmp_path, 20, process)
    process.send_signal(sent)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == code, stderr
    assert f"--resume {run.name}" in stderr and "Traceback" not in stderr
    catalog = default_catalog()
    graph = [name for name in catalog if catalog[name].category == "graph"]
    assert len(read_journal(run / "results.jsonl")) < cases * len(graph)  # stopped before
    assert read_manifest_file(run / "manifest.json").interrupted


# --- one owner per run -----------------------------------------------------------------------


def _interrupted_run(output: Path, cases: int) -> Path:
    """A dry run whose journal is then cut to its first line: a run left to resume."""
    assert (
        main(
            [
                "verify",
                "kmp",
                "--provider",
                "reference",
                "--cases",
                str(cases),
                "--output",
                str(output),
            ]
        )
        == 0
    )
    (run,) = (output / "runs").iterdir()
    journal = run / "results.jsonl"
    journal.write_text(journal.read_text().splitlines(keepends=True)[0])
    return run


def test_a_second_owner_of_a_run_exits_2_naming_the_owner_and_sends_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _interrupted_run(tmp_path, 4)
    capsys.readouterr()
    with RunPaths(tmp_path, run.name).lock():
        argv = [
            "verify",
            "--resume",
            run.name,
            "--provider",
            "reference",
            "--output",
            str(tmp_path),
        ]
        assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"run {run.name} is in use by process {os.getpid()}" in err
    assert len(read_journal(run / "results.jsonl")) == 1, "nothing was answered"
    argv = ["verify", "--resume", run.name, "--provider", "reference", "--output", str(tmp_path)]
    assert main(argv) == 0, "the lock is gone with its owner"
    assert sum(_first_attempts(run).values()) == 4


@pytest.mark.slow
@POSIX
def test_two_resumes_at_once_answer_each_case_once(
    fake_server: FakeModelServer,
    fork_server: ForkServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cases = 6
    answer, resuming, release = _answers(fake_server, cases, delay=0.2), False, threading.Event()

    def step(sent: RecordedRequest) -> Reply:
        if resuming:  # the first resume's question waits until the second one has tried
            release.wait(60)
        return answer(sent)

    fake_server.script([step] * 12)
    process = _start(fork_server, fake_server, tmp_path, cases)
    run = _wait_for_lines(tmp_path, 1, process)
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=30)
    # A question the interrupted run had sent may be read and recorded after its death.
    fake_server.settled()
    sent = len(fake_server.requests)
    kept = sum(_first_attempts(run).values())
    resume = ["verify", "--resume", run.name]
    resume += ["--provider", "anthropic", "--model", MODEL, "--output", str(tmp_path)]
    resuming = True
    first = fork_server.start(
        resume, env=_env(fake_server, concurrency="1"), text=True, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 60
    while len(fake_server.requests) == sent and time.monotonic() < deadline:
        time.sleep(0.01)  # the first resume owns the run once it asks its first question
    assert len(fake_server.requests) > sent, "the first resume asked nothing within 60 s"
    # The second owner is this process (another process than the first resume's, which is
    # what the run's lock tells apart): the command line in process, not a third interpreter.
    for name, value in _env(fake_server).items():
        monkeypatch.setenv(name, value)
    capsys.readouterr()
    second_code = main(resume)
    second_err = capsys.readouterr().err
    release.set()
    first.communicate(timeout=60)
    assert second_code == 2, second_err
    assert f"run {run.name} is in use by process {first.pid}" in second_err
    assert first.returncode == 1
    assert set(_first_attempts(run).values()) == {1} and sum(_first_attempts(run).values()) == cases
    assert len(fake_server.requests) - sent + _from_cache(run) == cases - kept


# --- run ids, manifests and journals that disagree, bidi controls ------------------------


@pytest.mark.parametrize("run_id", ["../elsewhere", "/tmp/some-run", "a/b", "..", ".hidden/x"])
def test_a_run_id_is_a_name_never_a_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], run_id: str
) -> None:
    output = tmp_path / "results"
    assert main(["report", run_id, "--output", str(output)]) == 2
    assert (
        main(["verify", "--resume", run_id, "--provider", "reference", "--output", str(output)])
        == 2
    )
    assert "is not a run id" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == [], "nothing was written anywhere"


def test_a_manifest_at_odds_with_its_journal_gets_no_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(
            ["verify", "kmp", "--provider", "reference", "--cases", "4", "--output", str(tmp_path)]
        )
        == 0
    )
    (run,) = (tmp_path / "runs").iterdir()
    manifest = json.loads((run / "manifest.json").read_text())
    dropped = manifest["scaffolds"]["kmp"]["case_ids"].pop()
    (run / "manifest.json").write_text(json.dumps(manifest))
    capsys.readouterr()
    assert main(["report", run.name, "--output", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "disagree" in err and dropped in err


def test_bidi_controls_from_the_server_never_reach_a_report(
    server_env: FakeModelServer, tmp_path: Path
) -> None:
    override = "\u202e"
    answer = _answers(server_env, 2)

    def reversed_everything(sent: RecordedRequest) -> Reply:
        body = answer(sent).body
        body["model"] = f"claude{override}live-model"
        body["content"][0]["text"] = (
            f"Result{override}\u2067 reversed\n" + body["content"][0]["text"]
        )
        return server_env.Reply(200, body)

    server_env.script(
        [reversed_everything, lambda sent: server_env.message(f"no answer {override}")]
    )
    main(_verify_argv(tmp_path, 2))
    written = [p for p in (tmp_path / "runs").rglob("*.md")]
    assert written
    for report in written:
        text = report.read_text(encoding="utf-8")
        assert override not in text and "\u2067" not in text, report
    assert any("\\u202e" in report.read_text() for report in written), "shown, as an escape"


# --- a server that takes two at a time; eight runs publishing into one folder ---------------


@pytest.mark.slow
def test_a_server_that_takes_two_at_a_time_still_answers_every_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.support.fake_server import FakeModelServer

    cases, in_flight, lock, limited = 16, [0], threading.Lock(), Counter[str]()
    with FakeModelServer(max_requests=400) as server:
        answer = _answers(server, cases, delay=0.1)
        busy = server.anthropic_error(429, "rate_limit_error", headers={"retry-after": "0.3"})

        def two_at_a_time(sent: RecordedRequest) -> Reply:
            with lock:
                if in_flight[0] >= 2:
                    limited["429"] += 1
                    return busy
                in_flight[0] += 1
            try:
                return answer(sent)
            finally:
                with lock:
                    in_flight[0] -= 1

        server.script([two_at_a_time] * 400)
        settings = {"max_retries": "10", "retry_initial_wait": "0.3", "concurrency": "8"}
        for name, value in _env(server, **settings).items():
            monkeypatch.setenv(name, value)
        code = main([*_verify_argv(tmp_path, cases), "--no-cache"])
        sent = len(server.requests)
    assert code == 1  # every fifth answer is wrong; none is missing (INCOMPLETE would be 3)
    assert len(_outcomes(tmp_path)) == cases and "infra_error" not in _outcomes(tmp_path).values()
    print(f"\ntwo at a time, --concurrency 8: {sent} requests, {limited['429']} answered 429")


@pytest.mark.slow
def test_eight_runs_publishing_into_one_output_at_once_all_finish(
    fake_server: FakeModelServer,
    fork_server: ForkServer,
    tmp_path: Path,
) -> None:
    fake_server.script([_answers(fake_server, 3)] * 24)
    runs = [
        fork_server.start(
            [*_verify_argv(tmp_path, 3), "--no-cache"],
            env=_env(fake_server, retry_initial_wait="0.01"),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(8)
    ]
    # communicate, not wait: a run whose pipes filled would never end. The bound is only
    # there to fail loudly: eight interpreters on a loaded two-core machine took 120 s.
    errors = [run.communicate(timeout=600)[1] for run in runs]
    outcomes = [(run.returncode, error) for run, error in zip(runs, errors, strict=True)]
    assert [code for code, _ in outcomes] == [1] * 8, [err for _, err in outcomes]
    assert len(fake_server.requests) == 24, "every run paid for its own answers, once"
    published = tmp_path / "reports"
    assert published.is_symlink()
    assert (published / "summary.md").is_file() and (published / "kmp.md").is_file()
    run_ids = {p.name for p in (tmp_path / "runs").iterdir()}
    assert len(run_ids) == 8
    assert any(run_id in (published / "summary.md").read_text() for run_id in run_ids)
    # Besides the runs and the published reports: the results folder's index of runs, and
    # the lock its writers share.
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".index.lock",
        ".published",
        "index.html",
        "reports",
        "runs",
    ]
    copies = [p for p in (tmp_path / ".published").iterdir() if p.name != ".lock"]
    assert copies == [published.resolve()], "older copies are swept"


@POSIX
@pytest.mark.parametrize(
    ("sent", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)], ids=["SIGTERM", "Ctrl-C"]
)
@pytest.mark.usefixtures("sigint_heard")
def test_a_signal_while_a_finished_run_writes_its_reports_names_the_command_that_writes_them(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    sent: signal.Signals,
    code: int,
) -> None:
    # A helper's hunt: SIGTERM there killed the process without a word (no handler was left),
    # and Ctrl-C named no run; the run was left without its summary.json.
    from verification.reports import generator

    writing = generator.write_run_reports

    def signalled(*args: Any, **kwargs: Any) -> Any:
        os.kill(os.getpid(), sent)  # as the user's signal arrives, mid-way
        return writing(*args, **kwargs)

    monkeypatch.setattr(generator, "write_run_reports", signalled)
    argv = ["verify", "kmp", "--provider", "reference", "--cases", "4", "--output", str(tmp_path)]
    assert main(argv) == code
    err = capsys.readouterr().err
    (run,) = (tmp_path / "runs").iterdir()
    said = f"report {run.name} --output {tmp_path}"
    assert "while its reports were written" in err and said in err
    monkeypatch.setattr(generator, "write_run_reports", writing)
    assert main(["report", run.name, "--output", str(tmp_path)]) == 0
    assert (run / "reports" / "summary.json").is_file()


def test_a_full_disk_while_a_finished_run_writes_its_reports_names_the_command_that_writes_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt o: the run ended with only "index.html: cannot be written (No space left on
    # device)", no word that every answer was kept nor how to finish. The disk fills here
    # once the journal is written: no file of the process may pass a few KiB.
    import resource

    argv = ["verify", "kmp", "--provider", "reference", "--cases", "2", "--output", str(tmp_path)]
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    before = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails, no signal
    resource.setrlimit(resource.RLIMIT_FSIZE, (12 * 1024, hard))
    try:
        code = main(argv)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, before)
    assert code == 2
    err = capsys.readouterr().err
    (run,) = (tmp_path / "runs").iterdir()
    said = f"report {run.name} --output {tmp_path}"
    assert "could not all be written" in err and "every answer is in its journal" in err
    assert said in err
    assert main(["report", run.name, "--output", str(tmp_path)]) == 0
    assert (run / "reports" / "summary.json").is_file()


@pytest.mark.parametrize("as_json", [False, True])
def test_a_report_that_cannot_be_written_still_shows_the_run_s_statuses(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    as_json: bool,
) -> None:
    # Hunt ii 2: a report that failed to write after the run hid every status the run had
    # decided; they are known before any report is written, so they are shown.
    from verification.reports import generator

    def failing(*args: Any, **kwargs: Any) -> Any:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(generator, "write_run_reports", failing)
    argv = ["verify", "kmp", "--provider", "reference", "--cases", "4", "--output", str(tmp_path)]
    assert main([*argv, "--json"] if as_json else argv) == 2
    out, err = capsys.readouterr()
    people = err if as_json else out
    (run,) = (tmp_path / "runs").iterdir()
    manifest = read_manifest_file(run / "manifest.json")
    results = results_from_journal(manifest, read_journal(run / "results.jsonl"))
    status = results["kmp"].shown_status
    assert re.search(rf"^kmp +{status} ", people, re.M), people
    assert "report: not written" in people
    assert not (out if as_json else "")  # --json's standard output holds no line for people
    assert f"report {run.name} --output {tmp_path}" in err


@pytest.mark.slow
def test_a_disk_that_fills_mid_run_loses_no_answer_already_asked(
    server_env: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Hunt o: the journal's disk filling mid-run cancelled the calls in flight and dropped
    # the answer whose line could not be written: each was bought again by the resume. Now
    # the calls asked finish, and the response cache keeps what the journal cannot.
    cases = 10
    server_env.script([_answers(server_env, cases, delay=0.3)] * cases)
    append = _journal_full_after(monkeypatch, 2)
    assert main([*_verify_argv(tmp_path, cases), "--concurrency", "4"]) == 2
    (run,) = (tmp_path / "runs").iterdir()
    server_env.settled()
    asked = len(server_env.requests)
    assert len(_first_attempts(run)) == 2 < asked < cases, "calls were in flight at the fault"
    monkeypatch.setattr(JournalWriter, "append", append)  # room again
    server_env.script([_answers(server_env, cases)] * cases)
    assert _resume(run, tmp_path) == 1  # every fifth answer is wrong
    assert sorted(_first_attempts(run)) == sorted(
        c.id for c in plan_cases(["kmp"], seed=SEED, cases=cases)["kmp"]
    )
    assert len(server_env.requests) == cases, "an answer asked before the fault was bought again"
    assert _from_cache(run) == asked - 2


def _journal_full_after(monkeypatch: pytest.MonkeyPatch, lines: int) -> Callable[..., None]:
    """Every journal's disk full once it holds ``lines`` lines (a write past them fails
    with ENOSPC, as on a full disk); the real ``append``, to put back."""
    import errno

    from verification.store.paths import write_error

    append = JournalWriter.append

    def full(journal: JournalWriter, record: Any) -> None:
        if len(journal.written) >= lines:
            no_space = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            raise write_error(journal.path, journal.run_id, no_space)
        append(journal, record)

    monkeypatch.setattr(JournalWriter, "append", full)
    return append


@pytest.mark.slow
def test_a_disk_full_at_the_first_answer_starts_no_other_case(
    server_env: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Hunt w: a case waiting for a slot took the one the failed case gave up, and asked.
    # The first case goes alone (it writes the scaffold to the prompt cache): its answer
    # finds the journal's disk full, and nothing else may go out.
    cases = 10
    server_env.script([_answers(server_env, cases)] * cases)
    _journal_full_after(monkeypatch, 0)
    assert main([*_verify_argv(tmp_path, cases), "--concurrency", "4"]) == 2
    server_env.settled()
    assert len(server_env.requests) == 1


@pytest.mark.slow
def test_a_disk_that_fills_mid_run_stops_retries_of_the_calls_in_flight(
    server_env: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Hunt w: the calls out when the journal's disk filled went through every retry of
    # the server's errors, for a run that had stopped: a minute of calls, each paid.
    cases = 10
    right = _answers(server_env, cases)

    def failing_late(sent: RecordedRequest) -> Reply:
        time.sleep(0.3)
        return server_env.anthropic_error(500, "api_error", "overloaded")

    # The first case alone (line 1), then up to four at once: the first of them answered
    # at once, its line past the disk's room; the others' servers fail a moment later.
    server_env.script([right, right, *[failing_late] * 60])
    monkeypatch.setenv("VERIFY_MAX_RETRIES", "4")
    _journal_full_after(monkeypatch, 1)
    assert main([*_verify_argv(tmp_path, cases), "--concurrency", "4"]) == 2
    server_env.settled()
    # Every 500 came after the fault: a prompt sent twice is a retry of a stopped run.
    prompts = [sent.json["messages"][0]["content"] for sent in server_env.requests]
    assert len(prompts) == len(set(prompts)), "a call was retried after the journal's disk filled"
