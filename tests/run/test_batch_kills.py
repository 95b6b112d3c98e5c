"""A ``--batch`` run SIGKILLed at each bad moment, then resumed (issue 24's done-when): the
run is a ``python -m verification`` process (forked from an interpreter that has imported
the harness and the SDK once: tests/support/preloaded.py) talking through the real
``anthropic`` SDK to the stand-in Batches server in this process, killed during the create
call (SIGKILL, and SIGTERM), after it, while the results stream in, and after part of them
is journalled. However it was killed, the resumed run keeps every answer the server billed
exactly once, pays for none twice, and its cost is what was billed."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from verification.cli import main
from verification.run.batch_log import BATCH_FILE, BatchLog
from verification.store.journal import read_journal
from verification.store.pricing import TokenCounts, price_for

if TYPE_CHECKING:
    from tests.support.fake_server import FakeBatchAPI, FakeModelServer
    from tests.support.preloaded import ForkServer, Process

pytestmark = pytest.mark.slow

KEY = "sk-ant-kills-canary-Hf83kd"
SEED = 13
MODEL = "claude-haiku-4-5"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def server_env(anthropic_env: FakeModelServer, monkeypatch: pytest.MonkeyPatch) -> FakeModelServer:
    monkeypatch.setenv("VERIFY_BATCH_POLL_INTERVAL", "0.05")
    monkeypatch.setenv("VERIFY_CACHE", "false")
    return anthropic_env


def _answering_right(server: FakeModelServer, cases: int) -> FakeBatchAPI:
    right = server.right_kmp_replies(SEED, cases)
    api = server.FakeBatchAPI(
        lambda cid, params: server.batch_succeeded(right[str(params["messages"][0]["content"])]),
        polls=None,  # under way until the test lets it end
    )
    server.batches = api
    return api


def _started(forks: ForkServer, output: Path, cases: int) -> Process:
    argv = ["verify", "kmp", "--provider", "anthropic"]
    argv += ["--model", MODEL, "--batch", "--cases", str(cases), "--seed", str(SEED)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return forks.start(
        [*argv, "--output", str(output)],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _until(condition: Callable[[], bool], process: Process) -> None:
    deadline = time.monotonic() + 120
    while not condition():
        assert process.poll() is None, process.stderr.read() if process.stderr else b""
        assert time.monotonic() < deadline, "the kill point never came"
        time.sleep(0.002)


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def _run(output: Path) -> Path:
    (run,) = (output / "runs").iterdir()
    return run


def _run_made(output: Path) -> bool:
    """Whether the run's folder is there (``runs/`` is made a moment before it)."""
    runs = output / "runs"
    return runs.exists() and any(runs.iterdir())


def _events(output: Path) -> list[str]:
    if not _run_made(output):
        return []
    return [line.event for line in BatchLog(_run(output) / BATCH_FILE).read()]


def _during_create(api: FakeBatchAPI, server: FakeModelServer, output: Path) -> Callable[[], bool]:
    api.create_delay = 30.0  # the batch is made; its id never comes back to the killed run
    return lambda: bool(api.created)


def _after_create(api: FakeBatchAPI, server: FakeModelServer, output: Path) -> Callable[[], bool]:
    return lambda: "submitted" in _events(output) and bool(api.retrievals)


def _during_results(api: FakeBatchAPI, server: FakeModelServer, output: Path) -> Callable[[], bool]:
    api.polls = 1
    api.results_drip = 0.0002  # the body takes seconds to arrive

    def reading() -> bool:
        return any(r.path.endswith("/results") for r in server.requests)

    return reading


def _after_some_journalled(
    api: FakeBatchAPI, server: FakeModelServer, output: Path
) -> Callable[[], bool]:
    api.polls = 1
    return lambda: _run_made(output) and _lines(_run(output) / "results.jsonl") >= 3


KILL_POINTS = {
    "during the create call": (_during_create, signal.SIGKILL),
    "SIGTERM during the create call": (_during_create, signal.SIGTERM),
    "after the create call": (_after_create, signal.SIGKILL),
    "while the results stream in": (_during_results, signal.SIGKILL),
    "after part of the results is journalled": (_after_some_journalled, signal.SIGKILL),
}


@pytest.mark.parametrize(("kill_point", "kill"), KILL_POINTS.values(), ids=KILL_POINTS)
def test_a_batch_run_killed_at_any_point_keeps_every_paid_answer_once(
    server_env: FakeModelServer,
    fork_server: ForkServer,
    tmp_path: Path,
    kill_point: Callable[[FakeBatchAPI, FakeModelServer, Path], Callable[[], bool]],
    kill: signal.Signals,
) -> None:
    # A window wide enough: the run journals a batch's results in one loop once they are
    # read, a fraction of a millisecond each in memory, so the kill must land while 3 of
    # them are written and the rest are not (40 once were enough; a loaded CI was not).
    cases = 240 if kill_point is _after_some_journalled else 16
    api = _answering_right(server_env, cases)
    process = _started(fork_server, tmp_path, cases)
    try:
        _until(kill_point(api, server_env, tmp_path), process)
        process.send_signal(kill)
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
        if process.stderr:
            process.stderr.close()
    run = _run(tmp_path)
    killed_with = _lines(run / "results.jsonl")
    assert "collected" not in _events(tmp_path)  # killed before the batch was done with
    api.polls, api.results_drip, api.create_delay = 1, 0.0, 0.0
    assert main(["verify", "--resume", run.name, "--output", str(tmp_path)]) == 0
    records = read_journal(run / "results.jsonl")
    assert len(records) >= killed_with
    # Every answer the server billed is in the journal once, from the batch that gave it.
    kept = Counter((r.batch_id, r.case_id, r.epoch, r.attempt) for r in records if r.batch_id)
    assert set(kept.values()) == {1}
    billed = [(batch, *_key(cid)) for batch, cid in api.billed]
    assert sorted(kept) == sorted(billed)
    # None paid twice: each attempt billed in one batch only, and nothing asked one by one.
    assert len({key[1:] for key in billed}) == len(billed) == cases
    assert not [r for r in server_env.requests if r.path.startswith("/v1/messages?")]
    assert len(api.created) == 1
    # What the run says it cost is what was billed (half the list price).
    price = price_for(MODEL)
    assert price is not None
    usage = sum((TokenCounts.from_usage(r.usage) for r in records if r.batch_id), TokenCounts())
    import json

    summary = json.loads((tmp_path / "reports" / "summary.json").read_text())
    assert summary["cost"]["usd"] == pytest.approx(price.cost(usage) / 2)
    assert summary["cost"]["batch_answers"] == cases and summary["cost"]["live_calls"] == 0


def _key(custom_id: str) -> tuple[str, int, int]:
    """(case id, sample, attempt) of a readable custom id (``<token>_<case>_<s>_<a>``)."""
    _, case_id, epoch, attempt = custom_id.split("_")
    return case_id, int(epoch), int(attempt)
