"""Several models in one invocation (``verify --model A --model B``), through the real
Anthropic SDK against the fake server on 127.0.0.1: every model is asked the same cases in
a run of its own, journal lines record the model asked beside the one the server names, the
summary's model x scaffold table holds each run's figures as its journal gives them, the
response cache keeps each model's answers apart, and what several models cannot do is
refused before any request."""

from __future__ import annotations

import asyncio
import json
import shlex
import threading
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from verification.cases import TIERS
from verification.cli import main
from verification.compose.multimodel import ModelRuns
from verification.config import load_settings
from verification.reports.history import comparability
from verification.store.journal import read_journal
from verification.store.manifests import read_manifest_file
from verification.store.records import AttemptRecord

if TYPE_CHECKING:
    from tests.support.fake_server import FakeModelServer, RecordedRequest, Reply

STRONG = "claude-strong-test-model"
WEAK = "claude-haiku-4-5"
SEED = 11
CASES = 4
WEAK_RIGHT = 1
"""How many of the first cases (by prompt, in a fixed order) the weak model answers right."""


@pytest.fixture
def two_models(anthropic_env: FakeModelServer) -> FakeModelServer:
    """A server where STRONG answers every kmp case right and WEAK only WEAK_RIGHT of them;
    each reply names a dated model id, as the API does."""
    replies = anthropic_env.right_kmp_replies(SEED, CASES)
    weak_right = sorted(replies)[:WEAK_RIGHT]

    def answer(sent: RecordedRequest) -> Reply:
        model, prompt = sent.json["model"], sent.json["messages"][0]["content"]
        right = model == STRONG or prompt in weak_right
        text = replies[prompt] if right else "```json\n{}\n```"
        return anthropic_env.message(text, model=f"{model}-20990101")

    anthropic_env.script([answer] * (2 * CASES))
    return anthropic_env


def _verify(output: Path, *extra: str) -> int:
    argv = ["verify", "kmp", "--provider", "anthropic", "--seed", str(SEED)]
    models = ["--model", STRONG, "--model", WEAK]
    return main([*argv, *models, "--cases", str(CASES), "--output", str(output), *extra])


def _runs(output: Path) -> dict[str, Path]:
    """Each model's latest run folder."""
    found: dict[str, Path] = {}
    for run in sorted((output / "runs").iterdir(), key=lambda p: p.stat().st_mtime_ns):
        manifest = read_manifest_file(run / "manifest.json")
        # A dry run asks no model (model_requested is None): its model is the one it stood for.
        by_run = {run_id: model for model, run_id in (manifest.model_runs or {}).items()}
        model = by_run.get(run.name, manifest.model_requested)
        assert model is not None
        found[model] = run
    return found


def _figures(records: list[AttemptRecord]) -> tuple[float, int, tuple[float, float]]:
    """Pass rate, n and Wilson 95% interval of first answers, from the journal alone."""
    from scipy.stats import binomtest

    passed = {r.case_id: r.outcome == "passed" for r in records if r.attempt == 1}
    wilson = binomtest(sum(passed.values()), len(passed)).proportion_ci(0.95, "wilson")
    return sum(passed.values()) / len(passed), len(passed), (wilson.low, wilson.high)


def test_every_model_is_asked_the_same_cases_and_the_summary_tables_them(
    two_models: FakeModelServer, tmp_path: Path
) -> None:
    assert _verify(tmp_path) == 1  # WEAK fails kmp
    prompts: dict[str, list[str]] = defaultdict(list)
    for sent in two_models.requests:
        prompts[sent.json["model"]].append(sent.json["messages"][0]["content"])
    assert sorted(prompts) == [WEAK, STRONG]
    assert sorted(prompts[STRONG]) == sorted(prompts[WEAK])
    assert len(prompts[STRONG]) == CASES

    runs = _runs(tmp_path)
    assert set(runs) == {STRONG, WEAK}
    expected_runs = {STRONG: runs[STRONG].name, WEAK: runs[WEAK].name}
    table: dict[str, Any] = {}
    for model, run in runs.items():
        manifest = read_manifest_file(run / "manifest.json")
        assert manifest.model_runs == expected_runs
        assert list(manifest.model_runs) == [STRONG, WEAK]  # the order given
        records = read_journal(run / "results.jsonl")
        assert {r.model_asked for r in records} == {model}
        assert {r.model for r in records} == {f"{model}-20990101"}
        table[model] = _figures(records)
    assert table[STRONG][0] == 1.0
    assert table[WEAK][0] == WEAK_RIGHT / CASES

    for model, run in runs.items():  # every run's reports hold the whole table
        data = json.loads((run / "reports" / "models.json").read_text("utf-8"))
        assert [m["model"] for m in data["models"]] == [STRONG, WEAK]
        summary = (run / "reports" / "summary.md").read_text("utf-8")
        section = summary.split("## Models asked together", 1)[1].splitlines()
        header = next(line for line in section if line.startswith("| Scaffold |"))
        assert f"`{STRONG}` (run `{runs[STRONG].name}`)" in header, model
        row = next(line for line in section if line.startswith("| kmp | **"))
        cells = [cell.strip() for cell in row.strip("|").split("|")][1:]
        for entry, cell in zip(data["models"], cells, strict=True):
            rate, n, interval = table[entry["model"]]
            figures = entry["scaffolds"]["kmp"]
            assert entry["run_id"] == runs[entry["model"]].name
            assert figures["pass_rate"] == pytest.approx(rate)
            assert figures["n"] == n
            assert figures["interval"] == pytest.approx(list(interval), abs=1e-9)
            assert f"{100 * rate:.1f}%, n={n}" in cell
            assert f"{100 * interval[0]:.1f}% to {100 * interval[1]:.1f}%" in cell
        statuses = {m["model"]: m["scaffolds"]["kmp"]["status"] for m in data["models"]}
        # All right but n=4 clears 90% by rate (borderline); 1 in 4 is under the 50% line.
        assert statuses == {STRONG: "CERTIFIED", WEAK: "FAILED"}

    for run in runs.values():
        summary_json = json.loads((run / "reports" / "summary.json").read_bytes())
        assert summary_json["model_runs"] == expected_runs

    # `report RUN_ID` folds the same table again from the journals.
    weak_table = runs[WEAK] / "reports" / "models.json"
    written = weak_table.read_bytes()
    weak_table.unlink()
    assert main(["report", runs[WEAK].name, "--output", str(tmp_path)]) == 1  # FAILED
    assert weak_table.read_bytes() == written


def test_the_cache_keeps_each_model_s_answers_apart(
    two_models: FakeModelServer, tmp_path: Path
) -> None:
    _verify(tmp_path)
    first = {
        m: json.loads((r / "reports" / "models.json").read_bytes())
        for m, r in _runs(tmp_path).items()
    }
    assert _verify(tmp_path) == 1
    assert len(two_models.requests) == 2 * CASES  # the repeat asked nothing
    again = _runs(tmp_path)
    for model, run in again.items():
        assert {r.source for r in read_journal(run / "results.jsonl")} == {"cache"}
        data = json.loads((run / "reports" / "models.json").read_bytes())
        figures = {m["model"]: m["scaffolds"] for m in data["models"]}
        assert figures == {m["model"]: m["scaffolds"] for m in first[model]["models"]}


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (("--resume", "20261124T000000Z-abcdef"), "--resume"),
        (("--max-cost", "5"), "--max-cost"),
        (("--shard", "1/2"), "--shard"),
        (("--envelope",), "--envelope"),
        # WEAK thinks, STRONG does not: refused before WEAK's run asks anything.
        (("--thinking-budget", "2048"), f"{STRONG!r}"),
    ],
)
def test_what_several_models_cannot_do_is_refused_before_any_request(
    anthropic_env: FakeModelServer,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    extra: tuple[str, ...],
    said: str,
) -> None:
    assert _verify(tmp_path, *extra) == 2
    error = capsys.readouterr().err
    assert f"several models are asked in runs of their own: {said}" in error or (
        f"model {said}" in error and "does not support extended thinking" in error
    )
    assert anthropic_env.requests == []
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("given", ["a-model, b-model", '["a-model", "b-model"]'])
def test_verify_model_takes_a_list(monkeypatch: pytest.MonkeyPatch, given: str) -> None:
    monkeypatch.setenv("VERIFY_MODEL", given)
    settings = load_settings()
    assert settings.model_names == ["a-model", "b-model"]
    assert settings.model_name == "a-model"
    assert settings.for_model("b-model").model_names == ["b-model"]


def test_a_dry_run_of_two_models_writes_one_junit_file_and_never_compares_them(
    tmp_path: Path,
) -> None:
    junit, cases = tmp_path / "junit.xml", tmp_path / "cases.xml"
    argv = ["verify", "kmp", "--provider", "reference", "--cases", "2", "--output", str(tmp_path)]
    models = ["--model", "vendor/model a", "--model", WEAK]
    assert main([*argv, *models, "--junit-xml", str(junit), "--junit-cases", str(cases)]) == 0
    assert [p.name for p in tmp_path.glob("junit*.xml")] == ["junit.xml"]  # the file given
    # The cases file too: one, a suite per model and scaffold, a test case per case.
    assert [p.name for p in tmp_path.glob("cases*.xml")] == ["cases.xml"]
    case_suites = ET.parse(cases).getroot().findall("testsuite")
    assert sorted(str(s.get("name")) for s in case_suites) == sorted(
        f"{model}: none (DRY RUN): kmp" for model in _runs(tmp_path)
    )
    assert all(len(suite.findall("testcase")) == 2 for suite in case_suites)
    suites = ET.parse(junit).getroot().findall("testsuite")
    assert len(suites) == 2  # a suite per model, each a test case per scaffold
    for suite in suites:
        assert [case.get("name") for case in suite.iter("testcase")] == ["kmp"]
    runs = _runs(tmp_path)
    named = {s.get("name"): s.find("properties/property[@name='run_id']") for s in suites}
    assert set(named) == {f"{model}: none (DRY RUN)" for model in runs}
    for model, run in runs.items():
        prop = named[f"{model}: none (DRY RUN)"]
        assert prop is not None and prop.get("value") == run.name
    a, b = (read_manifest_file(run / "manifest.json") for run in _runs(tmp_path).values())
    # A dry run asks no model, so only being asked together keeps them from being compared.
    assert comparability(a, b) == ["asked together (another model of the same invocation)"]


def test_a_refused_key_stops_every_model_s_run_and_each_resumes_by_its_own_command(
    anthropic_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replies = anthropic_env.right_kmp_replies(SEED, CASES)
    refused = {"weak": True}
    mended = threading.Event()

    def answer(sent: RecordedRequest) -> Reply:
        if sent.json["model"] == WEAK and refused["weak"]:
            return anthropic_env.anthropic_error(401, "authentication_error")
        # The other model is answered only once the key is mended (bounded), so its run is
        # still asking when the refusal stops it, however the machine schedules the runs.
        mended.wait(timeout=10)
        return anthropic_env.message(replies[sent.json["messages"][0]["content"]])

    anthropic_env.script([answer] * (4 * CASES))
    assert _verify(tmp_path, "--concurrency", "1") == 2
    hints = [line for line in capsys.readouterr().err.splitlines() if "--resume" in line]
    runs = _runs(tmp_path)
    assert len(hints) == 2
    refused["weak"] = False  # the key is mended
    mended.set()
    for model, run in runs.items():
        assert read_manifest_file(run / "manifest.json").interrupted
        (hint,) = [line for line in hints if f"--resume {run.name}" in line]
        command = shlex.split(hint.split("continue with: ", 1)[1])
        assert command[command.index("--model") + 1] == model
        assert main(command[command.index("verify") :]) == 0
        records = read_journal(run / "results.jsonl")
        done = {r.case_id for r in records if r.attempt == 1 and r.outcome != "infra_error"}
        assert len(done) == CASES
        assert {r.model_asked for r in records} == {model}


def test_each_model_has_its_own_concurrency_limiter(
    anthropic_env: FakeModelServer, tmp_path: Path
) -> None:
    replies = anthropic_env.right_kmp_replies(SEED, CASES)
    limited: set[str] = set()

    def answer(sent: RecordedRequest) -> Reply:
        prompt = sent.json["messages"][0]["content"]
        if sent.json["model"] == STRONG and prompt not in limited:
            limited.add(prompt)  # each of STRONG's cases meets one 429 first
            wait = {"retry-after": "0"}
            return anthropic_env.anthropic_error(429, "rate_limit_error", headers=wait)
        return anthropic_env.message(replies[prompt])

    anthropic_env.script([answer] * (3 * CASES))
    settings = load_settings(
        model=f"{STRONG},{WEAK}", provider="anthropic", seed=SEED, cases=CASES, results_dir=tmp_path
    )
    runs = ModelRuns(settings)
    asyncio.run(runs.run(["kmp"], tiers=list(TIERS)))
    strong, weak = (runs.runners[m].scheduler.limiters for m in (STRONG, WEAK))
    assert set(strong) == {STRONG} and set(weak) == {WEAK}
    assert strong[STRONG].rate_limited_count == CASES
    # Its first case went alone (the prompt cache's warm-up): the 429 cut it to what was in flight.
    assert strong[STRONG].lowest < settings.concurrency
    assert weak[WEAK].rate_limited_count == 0
    assert weak[WEAK].lowest == settings.concurrency
