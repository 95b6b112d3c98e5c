"""Code mode end to end: programs replayed by request id, run in the bubblewrap sandbox on
every case of the suite and its size ladder, judged at three levels, reported from the
journal alone."""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.support.draws import drawing_each_case_once
from verification.cases import program_id
from verification.catalog import default_catalog
from verification.catalog.code_format import CODE_FORMAT_VERSION
from verification.cli import main
from verification.errors import SandboxUnavailableError
from verification.registry import DEFAULT_SEED
from verification.reports.programs import program_views
from verification.run import code_answers
from verification.run.sandbox import Engine, Limits, available_engine
from verification.runner import plan_cases
from verification.store.journal import read_journal
from verification.store.manifests import read_manifest_file
from verification.store.records import AttemptRecord

if TYPE_CHECKING:
    from tests.support.fake_server import FakeModelServer
    from verification.config import RunConfig

pytestmark = pytest.mark.slow  # every test here starts sandboxed interpreters


@pytest.fixture(scope="module", autouse=True)
def _drawn_once() -> Iterator[None]:
    """The runs here draw the same dijkstra suite again and again: each case is drawn once
    (tests/support/draws.py)."""
    with drawing_each_case_once():
        yield


@pytest.fixture(autouse=True, scope="module")
def sandbox() -> Engine:
    """The engine code mode will find; without one these tests are skipped, saying why
    (and fail under CI, which installs bubblewrap), as the sandbox's own tests are."""
    try:
        return available_engine()
    except SandboxUnavailableError as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"code mode cannot run in CI: {error}")
        pytest.skip(f"no sandbox here: {error}")


DIJKSTRA = """
import heapq


def solve(input):
    out = {v: [] for v in input["vertices"]}
    for u, v, w in input["edges"]:
        out[u].append((v, w))
        if not input["directed"]:
            out[v].append((u, w))
    best = {input["source"]: 0}
    heap = [(0, input["source"])]
    done = set()
    while heap:
        d, u = heapq.heappop(heap)
        if u in done:
            continue
        done.add(u)
        for v, w in out[u]:
            if d + w < best.get(v, d + w + 1):
                best[v] = d + w
                heapq.heappush(heap, (d + w, v))
    distances = {v: best.get(v) for v in input["vertices"]}
"""
CORRECT = DIJKSTRA + "    return {'distances': distances}\n"
WRONG_FROM_50 = (
    DIJKSTRA
    + """    if len(input["vertices"]) >= 50:
        far = max((v for v in distances if distances[v]), key=distances.get)
        distances[far] += 1
    return {"distances": distances}
"""
)
SLOW_FROM_100 = (
    DIJKSTRA
    + """    while len(input["vertices"]) >= 100:
        pass
    return {"distances": distances}
"""
)


def _reply(source: str) -> str:
    return f"Here is the program.\n\n```python\n{source}```\n"


def _replay(path: Path, replies: dict[str, str]) -> Path:
    lines = [json.dumps({"case_id": key, "raw_response": text}) for key, text in replies.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _verify(tmp_path: Path, replies: dict[str, str], *more: str) -> tuple[int, list[AttemptRecord]]:
    replay = _replay(tmp_path / "replay.jsonl", replies)
    output = tmp_path / "out"
    code = main(
        [
            "verify", "dijkstra", "--provider", "replay", "--replay-file", str(replay),
            "--answer", "code", "--level", "quick", "--cases", str(len(replies)),
            "--output", str(output), *more,
        ]
    )  # fmt: skip
    (run_dir,) = (output / "runs").iterdir()
    return code, read_journal(run_dir / "results.jsonl")


def _report(tmp_path: Path) -> str:
    (run_dir,) = (tmp_path / "out" / "runs").iterdir()
    return (run_dir / "reports" / "dijkstra.md").read_text(encoding="utf-8")


def test_a_replayed_correct_dijkstra_program_passes_every_case(tmp_path: Path) -> None:
    code, records = _verify(tmp_path, {program_id("dijkstra", 0): _reply(CORRECT)})
    (record,) = records
    assert code == 0
    assert record.case_id == "dijkstra-program-000" and record.tier == "program"
    assert record.outcome == "passed", record.reason
    assert record.program is not None and record.program.first_failure is None
    runs = record.program.cases
    assert {c.tier for c in runs} == {"simple", "standard", "edge"}
    spec = default_catalog().get_spec("dijkstra")
    assert max(c.size or 0 for c in runs) == max(spec.code_ladder) > spec.size.ranges["standard"][1]
    assert all(c.outcome == "passed" and c.seconds is not None for c in runs)
    report = _report(tmp_path)
    assert "pass@1: 100.0%" in report and "Code mode: n counts programs" in report
    summary = (tmp_path / "out" / "reports" / "summary.md").read_text(encoding="utf-8")
    assert "Code mode (`--answer code`)" in summary
    # The harness's own time per case, from the journal (issue 26 item 7).
    assert "| harness per case |" in report
    (run_dir,) = (tmp_path / "out" / "runs").iterdir()
    figures = json.loads((run_dir / "reports" / "summary.json").read_text(encoding="utf-8"))
    per_case = figures["scaffolds"]["dijkstra"]["programs"]["harness_seconds_per_case"]
    ran = sum(c.outcome != "not_run" for c in runs)
    assert per_case == {record.case_id: round(record.program.harness_seconds / ran, 9)}
    assert 0 < per_case[record.case_id] < 1


def test_a_program_wrong_from_50_vertices_fails_there_and_the_report_names_the_size(
    tmp_path: Path,
) -> None:
    code, records = _verify(tmp_path, {program_id("dijkstra", 0): _reply(WRONG_FROM_50)})
    (record,) = records
    assert code == 0  # the quick level is a smoke test: a failed program is no error
    assert record.outcome == "failed" and record.level == 3
    assert record.program is not None
    failure = record.program.first_failure
    assert failure is not None
    failing = {c.case_id: c for c in record.program.cases if c.outcome == "failed"}
    assert min(c.size or 0 for c in failing.values()) == 50
    assert failing[failure.case_id].size == 50
    assert all(c.outcome == "passed" for c in record.program.cases if (c.size or 0) < 50)
    assert "(size 50)" in record.reason
    report = _report(tmp_path)
    assert f"`{failure.case_id}` (size 50, level 3)" in report
    (run_dir,) = (tmp_path / "out" / "runs").iterdir()
    summary = json.loads((run_dir / "reports" / "summary.json").read_text(encoding="utf-8"))
    programs = summary["scaffolds"]["dijkstra"]["programs"]
    assert programs["first_failing_sizes"] == {record.case_id: 50}
    assert programs["handled_up_to"] == {record.case_id: 25}
    assert (programs["programs"], programs["passing"], programs["pass_at_k"]) == (1, 0, {"1": 0.0})
    assert "handled up to size" in report and "| 25 |" in report
    # Hunt jj 8: the Failures section showed the program's record's own empty input,
    # expected and actual, read as its failing case's; it points where the case is.
    failures = report.split("## Failures (1)", 1)[1].split("## Programs (code mode)", 1)[0]
    assert "under **Programs (code mode)** below" in failures
    assert "Input:" not in failures and "Actual (parsed answer):" not in failures


def test_identical_programs_run_once_and_share_their_results(tmp_path: Path) -> None:
    replies = {program_id("dijkstra", k): _reply(WRONG_FROM_50) for k in range(2)}
    _, records = _verify(tmp_path, replies)
    first, second = sorted(records, key=lambda r: r.case_id)
    assert first.program is not None and second.program is not None
    assert first.program.shared_with is None
    assert second.program.shared_with == first.case_id
    assert second.program.cases == [] and second.program.source is None
    assert second.outcome == first.outcome == "failed"
    assert second.program.first_failure == first.program.first_failure
    # Told by the cases run once: not "0 of 0 cases" (its record holds none of its own).
    assert second.reason == f"{first.reason} (the same source as {first.case_id})"
    assert f"of {len(first.program.cases)} cases not passed" in second.reason
    views = {view.program_id: view for view in program_views(records, "dijkstra")}
    assert views[second.case_id].sizes == views[first.case_id].sizes
    assert views[second.case_id].first_failing_size == 50


def test_levels_one_and_two_and_a_time_out_skip_larger_sizes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The slow program spins at 100 vertices until its case's CPU limit, which is the floor
    # of a limit scaled from the reference's milliseconds: a quarter of a second ends it as
    # surely as the default second does (every other case here takes milliseconds).
    quarter = Limits(cpu_floor_seconds=0.25)
    suite = functools.partial(code_answers.execute_suite, limits=quarter)
    monkeypatch.setattr(code_answers, "execute_suite", suite)
    replies = {
        program_id("dijkstra", 0): "I would rather explain it in words.",
        program_id("dijkstra", 1): _reply("def solve(input):\n    return {\n"),
        program_id("dijkstra", 2): _reply(CORRECT.replace("best.get(v)", "float(best.get(v, 0))")),
        program_id("dijkstra", 3): _reply(SLOW_FROM_100),
    }
    _, records = _verify(tmp_path, replies)
    by_id = {r.case_id: r for r in records}
    none, syntax, floats, slow = (by_id[program_id("dijkstra", k)] for k in range(4))
    assert (none.outcome, none.level) == ("failed", 1) and "python" in none.reason
    assert (syntax.outcome, syntax.level) == ("failed", 1) and "compile" in syntax.reason
    assert (floats.outcome, floats.level) == ("failed", 2) and "schema" in floats.reason
    assert slow.program is not None
    standard = [c for c in slow.program.cases if c.tier == "standard"]
    assert all(c.outcome == "passed" for c in standard if (c.size or 0) == 50)
    # One case at 100 times out; the rest of size 100 and every larger one are not run.
    at_100 = [c.outcome for c in standard if c.size == 100]
    assert at_100.count("failed") == 1 and at_100.count("not_run") == len(at_100) - 1 >= 1
    skipped = [c for c in standard if (c.size or 0) >= 100 and c.outcome != "failed"]
    assert skipped and all(c.outcome == "not_run" for c in skipped)
    assert all(c.reason == "not run: over the time limit at size 100" for c in skipped)
    assert (slow.level, slow.outcome) == (2, "failed") and "timeout" in slow.reason


def test_a_resumed_run_asks_only_the_programs_it_lacks_and_reports_from_the_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replies = {program_id("dijkstra", 0): _reply(CORRECT)}
    replay = _replay(tmp_path / "replay.jsonl", replies)
    output = tmp_path / "out"
    argv = ["verify", "dijkstra", "--provider", "replay", "--replay-file", str(replay)]
    main([*argv, "--answer", "code", "--level", "quick", "--cases", "2", "--output", str(output)])
    (run_dir,) = (output / "runs").iterdir()
    first = read_journal(run_dir / "results.jsonl")
    assert {r.outcome for r in first if r.case_id.endswith("001")} == {"infra_error"}
    _replay(tmp_path / "replay.jsonl", {program_id("dijkstra", 1): _reply(CORRECT + "\n")})
    main(["verify", "--resume", run_dir.name, "--output", str(output)])
    records = read_journal(run_dir / "results.jsonl")
    asked = [r.case_id for r in records if r.outcome != "infra_error"]
    assert sorted(asked) == [program_id("dijkstra", 0), program_id("dijkstra", 1)]
    capsys.readouterr()
    (run_dir / "reports" / "dijkstra.md").unlink()
    assert main(["report", run_dir.name, "--output", str(output)]) == 0
    report = (run_dir / "reports" / "dijkstra.md").read_text(encoding="utf-8")
    assert "2 of 2 programs pass every case" in report and "pass@2: 100.0%" in report


def test_the_page_shows_a_hostile_program_as_text(tmp_path: Path) -> None:
    hostile = "# </pre><script>alert(1)</script>\n" + CORRECT
    _verify(tmp_path, {program_id("dijkstra", 0): _reply(hostile)})
    (run_dir,) = (tmp_path / "out" / "runs").iterdir()
    page = (run_dir / "reports" / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script>alert(1)" not in page


def test_a_resume_runs_a_journalled_program_again_without_asking(tmp_path: Path) -> None:
    """A program whose run did not end (the sandbox failed: an infrastructure error) is run
    again from the reply the journal holds; the model is not asked again."""
    _verify(tmp_path, {program_id("dijkstra", 0): _reply(CORRECT)})
    (run_dir,) = (tmp_path / "out" / "runs").iterdir()
    journal = run_dir / "results.jsonl"
    (line,) = journal.read_text(encoding="utf-8").splitlines()
    data = json.loads(line)
    data.update(outcome="infra_error", reason="the sandbox failed: simulated", program=None)
    journal.write_text(json.dumps(data) + "\n", encoding="utf-8")
    _replay(tmp_path / "replay.jsonl", {program_id("dijkstra", 9): _reply("# never asked\n")})
    main(["verify", "--resume", run_dir.name, "--output", str(tmp_path / "out")])
    first, again = read_journal(journal)
    assert first.outcome == "infra_error"
    assert (again.case_id, again.outcome, again.source) == (first.case_id, "passed", "journal")
    assert again.raw_response == first.raw_response


def test_programs_written_cold_from_the_prompts_pass_their_whole_suites(tmp_path: Path) -> None:
    """The helper programs (fixtures/helper_programs/README.md): each passes every case of
    its scaffold's suite and ladder, judged as a model's program is."""
    replies = {
        path.stem: path.read_text(encoding="utf-8")
        for path in sorted((Path(__file__).parent / "fixtures" / "helper_programs").glob("*.txt"))
    }
    scaffolds = [name.split("-program-")[0] for name in replies]
    replay = _replay(tmp_path / "replay.jsonl", replies)
    argv = ["verify", *scaffolds, "--provider", "replay", "--replay-file", str(replay)]
    code = main([*argv, "--answer", "code", "--level", "quick", "--cases", "1",
                 "--output", str(tmp_path / "out")])  # fmt: skip
    (run_dir,) = (tmp_path / "out" / "runs").iterdir()
    manifest = read_manifest_file(run_dir / "manifest.json")
    assert manifest.code_format_version == CODE_FORMAT_VERSION  # the words they are judged by
    records = read_journal(run_dir / "results.jsonl")
    assert {r.case_id: r.outcome for r in records} == dict.fromkeys(replies, "passed"), [
        r.reason for r in records if r.outcome != "passed"
    ]
    assert code == 0


def test_a_dry_run_of_every_scaffold_in_code_mode_passes_inside_the_sandbox(
    tmp_path: Path, sandbox: Engine
) -> None:
    """Each reference, made a program, passes its whole suite and ladder in bubblewrap (a
    dry run certifies no model, but checks the whole path)."""
    output = tmp_path / "out"
    argv = ["verify", "--all", "--provider", "reference", "--answer", "code"]
    assert main([*argv, "--level", "quick", "--cases", "1", "--output", str(output)]) == 0
    (run_dir,) = (output / "runs").iterdir()
    records = read_journal(run_dir / "results.jsonl")
    assert {r.scaffold for r in records} == set(default_catalog())
    failed = {r.scaffold: r.reason for r in records if r.outcome != "passed"}
    assert not failed
    assert all(r.program and r.program.engine == sandbox.name for r in records)


def test_a_code_run_is_never_a_trace_runs_previous_comparable_run(tmp_path: Path) -> None:
    # Before: trace run A CERTIFIED, code run B FAILED, then trace run C all wrong with
    # --fail-on-regression exited 1 against B, its regression hidden; without B, 5.
    spec = default_catalog().get_spec("dijkstra")
    cases = plan_cases(["dijkstra"], seed=DEFAULT_SEED, cases=6)["dijkstra"]
    output = tmp_path / "out"

    def verify(replies: dict[str, str], *more: str) -> tuple[int, str]:
        """A replay run of six dijkstra cases answered ``replies``: its exit code and id."""
        replay = _replay(tmp_path / f"replay-{len(list(tmp_path.iterdir()))}.jsonl", replies)
        before = set((output / "runs").iterdir()) if (output / "runs").is_dir() else set()
        argv = ["verify", "dijkstra", "--provider", "replay", "--replay-file", str(replay)]
        code = main([*argv, "--cases", "6", "--output", str(output), *more])
        (run,) = set((output / "runs").iterdir()) - before
        return code, run.name

    right = {case.id: spec.render_answer(case.expected) for case in cases}
    code, first = verify(right)
    assert code == 0
    wrong = 'def solve(input):\n    return {"distances": {v: 0 for v in input["vertices"]}}\n'
    programs = {program_id("dijkstra", index): _reply(wrong) for index in range(6)}
    assert verify(programs, "--answer", "code")[0] == 1
    code, last = verify(dict.fromkeys(right, "```json\n{}\n```\n"), "--fail-on-regression")
    summary = json.loads((output / "runs" / last / "reports" / "summary.json").read_text())
    assert summary["previous_run_id"] == first and summary["regressions"] == ["dijkstra"]
    assert code == 5


def _stopped_while_a_program_runs(settings: RunConfig, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run dijkstra by ``settings`` and stop it (cancel it, as Ctrl-C does) while its first
    program's suite runs; the suite's runner is put back after."""
    import asyncio

    from verification.runner import VerificationRunner

    running = asyncio.Event()

    async def never_ends(*args: object, **kwargs: object) -> list[object]:
        running.set()
        await asyncio.Event().wait()
        return []

    suite = code_answers.execute_suite
    monkeypatch.setattr(code_answers, "execute_suite", never_ends)

    async def stopped() -> None:
        run = asyncio.create_task(VerificationRunner(settings).run(["dijkstra"]))
        await running.wait()
        run.cancel()
        with pytest.raises(asyncio.CancelledError):
            await run

    asyncio.run(stopped())
    monkeypatch.setattr(code_answers, "execute_suite", suite)  # the environment stays


@pytest.mark.parametrize("repaired", [False, True], ids=["first attempt", "its repair"])
def test_a_run_stopped_while_a_program_runs_keeps_its_reply_for_the_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, repaired: bool
) -> None:
    # Hunt vv: a program's reply reached the journal only once its suite had run; a stop
    # in between lost every paid program of the look, and the resume bought them again.

    from verification.config import load_settings
    from verification.run.attempts import PROGRAM_NOT_RUN

    # The repair's too (hunt ww: a stopped repair was never run again, the case FAILED).
    pid = program_id("dijkstra", 0)
    replay = tmp_path / "replay.jsonl"
    replies = ["No program, sorry.", _reply(CORRECT)] if repaired else [_reply(CORRECT)]
    replay.write_text(
        "".join(json.dumps({"case_id": pid, "raw_response": text}) + "\n" for text in replies),
        encoding="utf-8",
    )
    output = tmp_path / "out"
    settings = load_settings(
        provider="replay", replay_file=replay, answer="code", level="quick", cases=1,
        results_dir=output, repair_attempts=2,
    )  # fmt: skip
    _stopped_while_a_program_runs(settings, monkeypatch)
    (run_dir,) = (output / "runs").iterdir()
    *before, kept = read_journal(run_dir / "results.jsonl")
    assert [r.outcome for r in before] == (["failed"] if repaired else [])
    assert (kept.attempt, kept.outcome, kept.reason) == (
        len(replies),
        "infra_error",
        PROGRAM_NOT_RUN,
    )
    assert kept.raw_response == _reply(CORRECT)
    _replay(replay, {program_id("dijkstra", 9): _reply("# never asked\n")})  # none to ask
    main(["verify", "--resume", run_dir.name, "--output", str(output)])
    journalled = read_journal(run_dir / "results.jsonl")
    assert journalled[: len(before) + 1] == [*before, kept]
    (again,) = journalled[len(before) + 1 :]
    assert (again.case_id, again.attempt, again.outcome, again.source) == (
        pid,
        kept.attempt,
        "passed",
        "journal",
    )


@pytest.mark.slow  # the fake server
def test_a_program_stopped_on_a_full_disk_keeps_its_reply_in_the_response_cache(
    anthropic_env: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Hunt ww: a stop while the program ran, with the journal's disk full, kept its paid reply
    # neither in the journal nor in the response cache (the normal path keeps it there), and
    # the disk's error took the place of the stop.
    import errno

    from verification.config import load_settings
    from verification.store.journal import JournalWriter
    from verification.store.paths import write_error

    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path / "cache"))
    anthropic_env.script([anthropic_env.message(_reply(CORRECT))])
    output = tmp_path / "out"
    settings = load_settings(
        provider="anthropic", model=["claude-test-model"], answer="code", level="quick",
        cases=1, results_dir=output,
    )  # fmt: skip

    def full(journal: JournalWriter, record: object) -> None:
        raise write_error(
            journal.path, journal.run_id, OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        )

    append = JournalWriter.append
    monkeypatch.setattr(JournalWriter, "append", full)
    _stopped_while_a_program_runs(settings, monkeypatch)
    monkeypatch.setattr(JournalWriter, "append", append)  # the environment stays
    (run_dir,) = (output / "runs").iterdir()
    assert read_journal(run_dir / "results.jsonl") == []
    assert main(["verify", "--resume", run_dir.name, "--output", str(output)]) == 0
    (record,) = read_journal(run_dir / "results.jsonl")
    assert (record.outcome, record.source) == ("passed", "cache")
    assert len(anthropic_env.requests) == 1


@pytest.mark.slow  # the fake server
@pytest.mark.parametrize("stop", ["pause_turn", "abort"])
def test_a_program_the_server_did_not_finish_is_asked_again_on_resume(
    anthropic_env: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop: str
) -> None:
    # Hunt zz: a resume ran every journalled reply of an infrastructure error again, as a
    # program whose suite a stop cut short; a reply the server did not finish was judged
    # again from the journal on each resume, asking nothing, the case INCOMPLETE for ever.
    monkeypatch.setenv("VERIFY_MAX_RETRIES", "1")
    anthropic_env.script([anthropic_env.message(_reply(CORRECT), stop_reason=stop)])
    output = tmp_path / "out"
    argv = ["verify", "dijkstra", "--provider", "anthropic", "--model", "claude-test-model"]
    argv += ["--answer", "code", "--level", "quick", "--cases", "1", "--no-cache"]
    assert main([*argv, "--output", str(output)]) == 3
    (run_dir,) = (output / "runs").iterdir()
    (cut,) = read_journal(run_dir / "results.jsonl")
    assert (cut.outcome, cut.stop_reason) == ("infra_error", stop)
    anthropic_env.script([anthropic_env.message(_reply(CORRECT))])
    assert main(["verify", "--resume", run_dir.name, "--output", str(output)]) == 0
    *_, again = read_journal(run_dir / "results.jsonl")
    assert (again.outcome, again.source) == ("passed", "live")
    assert len(anthropic_env.requests) == 2


@pytest.mark.slow  # the fake server and the sandbox
def test_a_code_mode_repair_asks_for_the_program_again(
    anthropic_env: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Hunt al: code mode's repair was trace mode's, asking for the ```json block the Code
    # Format above it says a program takes the place of; every paid repair failed again.
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path / "cache"))
    anthropic_env.script(
        [anthropic_env.message("No program, sorry."), anthropic_env.message(_reply(CORRECT))]
    )
    argv = ["verify", "dijkstra", "--provider", "anthropic", "--model", "claude-test-model"]
    argv += ["--answer", "code", "--level", "quick", "--cases", "1", "--repair-attempts", "2"]
    main([*argv, "--output", str(tmp_path / "out")])
    first, repair = (sent.json["messages"][-1]["content"] for sent in anthropic_env.requests)
    asked = repair.removeprefix(first)
    assert "```python block" in asked and "```json" not in asked
    (run,) = (tmp_path / "out" / "runs").iterdir()
    assert [r.outcome for r in read_journal(run / "results.jsonl")] == ["failed", "passed"]
