"""``--resume`` retries infrastructure errors, as its help says, in a scaffold a look had
stopped too (hunt x): every level is looked at again from its first look on every answer
there is then, and stops again where its plan decides, a stop a killed resume left too
(hunt z)."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from verification.catalog import default_catalog
from verification.certify.sequential import plan_for
from verification.cli import main
from verification.store.journal import read_journal
from verification.store.manifests import read_manifest_file


def _verify(output: Path, *argv: str) -> int:
    return main(["verify", *argv, "--output", str(output), "--no-cache"])


def _scripted(tmp_path: Path) -> tuple[str, Path, Path]:
    """A run of kmp whose fourth case of the plan's order (inside any look's window) was lost
    to an error, the rest answered right: that case, the replay file (which answers it now)
    and the run's folder."""
    cap = str(plan_for("standard").cap)
    assert _verify(tmp_path / "dry", "kmp", "--provider", "reference", "--cases", cap) == 0
    (dry,) = (tmp_path / "dry" / "runs").iterdir()
    spec = default_catalog()["kmp"]
    expected = {r.case_id: r.expected for r in read_journal(dry / "results.jsonl")}
    lost = read_manifest_file(dry / "manifest.json").scaffolds["kmp"].case_ids[3]
    replay = tmp_path / "replay.jsonl"

    def script(*, error: bool) -> None:
        lines = [
            {"case_id": case, "error": "error"}
            if error and case == lost
            else {"case_id": case, "text": spec.render_answer(answer)}
            for case, answer in expected.items()
        ]
        replay.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")

    script(error=True)
    output = tmp_path / "out"
    assert _verify(output, "kmp", "--provider", "replay", "--replay-file", str(replay)) == 0
    script(error=False)  # the server answers it now
    return lost, replay, next((output / "runs").iterdir())


@pytest.mark.slow  # three runs through the command line: about half a second
def test_a_resume_asks_again_what_errors_lost_in_a_stopped_level(tmp_path: Path) -> None:
    lost, _, run = _scripted(tmp_path)
    stopped = read_manifest_file(run / "manifest.json").early_stops
    assert stopped and "kmp" in stopped  # decided early, the error a hole in its window
    assert _verify(run.parents[1], "--resume", run.name) == 0
    lines = [r for r in read_journal(run / "results.jsonl") if r.case_id == lost]
    assert [r.outcome for r in lines] == ["infra_error", "passed"]
    summary = json.loads((run / "reports" / "summary.json").read_text())["scaffolds"]["kmp"]
    assert (summary["status"], summary["infra_errors"]) == ("CERTIFIED", 0)
    again = read_manifest_file(run / "manifest.json").early_stops
    assert again and again["kmp"].cases <= stopped["kmp"].cases  # stopped again


@pytest.mark.slow  # four runs through the command line: about half a second
def test_a_resume_decides_again_a_stop_its_killed_predecessor_left(tmp_path: Path) -> None:
    # Hunt z: a resume killed after it journalled the retried answer, before it rewrote its
    # manifest, left the old stop (decided with the answer missing); the next resume found
    # no error left and kept it, where the plan, on the answers there are, stops elsewhere.
    lost, replay, run = _scripted(tmp_path)
    fresh = tmp_path / "fresh"  # the same answers, none lost: where the plan stops on them
    assert _verify(fresh, "kmp", "--provider", "replay", "--replay-file", str(replay)) == 0
    (clean,) = (fresh / "runs").iterdir()
    # What the killed resume left: the retried answer journalled, the manifest as it was.
    (answer,) = [
        line
        for line in (clean / "results.jsonl").read_text().splitlines(keepends=True)
        if json.loads(line)["case_id"] == lost
    ]
    with (run / "results.jsonl").open("a", encoding="utf-8") as journal:
        journal.write(answer)
    assert _verify(run.parents[1], "--resume", run.name) == 0
    stops = read_manifest_file(run / "manifest.json").early_stops
    assert stops == read_manifest_file(clean / "manifest.json").early_stops


@pytest.mark.slow  # two runs through the command line: about half a second
def test_a_resume_stopped_before_it_looked_again_keeps_the_stops_it_found(
    tmp_path: Path,
) -> None:
    # A resume looks at every level again, its stops dropped until then: one stopped before
    # its looks reached them (Ctrl-C at once) wrote a manifest without them, and its report
    # then read the stopped scaffold's unasked cases as missing.
    from verification.run.attempts import Job
    from verification.run.looks import PlannedLooks
    from verification.runner import plan_cases

    _, _, run = _scripted(tmp_path)
    manifest = read_manifest_file(run / "manifest.json")
    assert manifest.early_stops
    spec = default_catalog()["kmp"]
    planned = plan_cases(["kmp"], seed=manifest.seed, cases=plan_for("standard").cap)
    looks = PlannedLooks(planned, manifest, lambda: read_journal(run / "results.jsonl"))
    jobs = [Job(spec, case, spec.validator, 0) for case in planned["kmp"]]

    async def interrupted(segment: object) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        asyncio.run(looks.run(jobs, interrupted))
    assert looks.stops == manifest.early_stops


def test_a_resume_asks_the_repairs_a_stop_left_owed(tmp_path: Path) -> None:
    # Hunt vv: a run stopped between first attempts it could not read and their repairs
    # was resumed with none of them asked: "pass rate after repair" 70%, 95% unstopped.
    output = tmp_path / "out"
    assert _verify(output, "kmp", "--provider", "reference", "--cases", "4") == 0
    (dry,) = (output / "runs").iterdir()
    right = {r.case_id: r.raw_response for r in read_journal(dry / "results.jsonl")}
    shutil.rmtree(output)
    garbled = sorted(right)[:2]
    replay = tmp_path / "replay.jsonl"
    replay.write_text(
        "".join(
            json.dumps({"case_id": case, "text": text}) + "\n"
            for case in right
            for text in (["no JSON here"] if case in garbled else []) + [right[case]]
        ),
        encoding="utf-8",
    )
    argv = ["kmp", "--provider", "replay", "--replay-file", str(replay), "--cases", "4"]
    assert _verify(output, *argv, "--repair-attempts", "3") == 1  # 2 of 4 first attempts
    (run,) = (output / "runs").iterdir()
    journal = run / "results.jsonl"
    whole = read_journal(journal)
    assert sorted((r.case_id, r.attempt) for r in whole if r.attempt > 1) == [
        (case, 2) for case in garbled
    ]
    # As a stop left it: the first attempts journalled, their repairs not asked.
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    journal.write_text("".join(x for x in lines if json.loads(x)["attempt"] == 1), "utf-8")
    replay.write_text(
        "".join(json.dumps({"case_id": c, "text": right[c]}) + "\n" for c in garbled), "utf-8"
    )
    assert main(["verify", "--resume", run.name, "--output", str(output)]) == 1
    resumed = read_journal(journal)
    assert sorted((r.case_id, r.attempt, r.outcome) for r in resumed if r.attempt > 1) == [
        (case, 2, "passed") for case in garbled
    ]
    assert len(resumed) == len(whole)
    summary = json.loads((run / "reports" / "summary.json").read_text(encoding="utf-8"))
    assert summary["scaffolds"]["kmp"]["pass_rate_after_repair"] == 1.0


def test_a_resume_asks_again_a_repair_lost_to_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Hunt ww: a repair whose call failed (an infrastructure error) was never asked again
    # by a resume, where a batch resume asked it: the case stayed failed, "infra errors 0".
    output = tmp_path / "out"
    assert _verify(output, "kmp", "--provider", "reference", "--cases", "2") == 0
    (dry,) = (output / "runs").iterdir()
    right = {r.case_id: r.raw_response for r in read_journal(dry / "results.jsonl")}
    shutil.rmtree(output)
    garbled, other = sorted(right)
    replay = tmp_path / "replay.jsonl"
    lines = [
        {"case_id": garbled, "text": "no JSON here"},
        {"case_id": garbled, "error": "transient"},
        {"case_id": other, "text": right[other]},
    ]
    replay.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    argv = ["kmp", "--provider", "replay", "--replay-file", str(replay), "--cases", "2"]
    monkeypatch.setenv("VERIFY_MAX_RETRIES", "1")
    monkeypatch.setenv("VERIFY_RETRY_INITIAL_WAIT", "0.01")
    assert _verify(output, *argv, "--repair-attempts", "2") in (1, 3)
    (run,) = (output / "runs").iterdir()
    chain = [
        (r.attempt, r.outcome) for r in read_journal(run / "results.jsonl") if r.case_id == garbled
    ]
    assert chain == [(1, "failed"), (2, "infra_error")]
    replay.write_text(json.dumps({"case_id": garbled, "text": right[garbled]}) + "\n", "utf-8")
    main(["verify", "--resume", run.name, "--output", str(output)])
    chain = [
        (r.attempt, r.outcome) for r in read_journal(run / "results.jsonl") if r.case_id == garbled
    ]
    assert chain == [(1, "failed"), (2, "infra_error"), (2, "passed")]


def test_an_owed_repair_holds_the_worst_case_of_the_attempts_left() -> None:
    # Hunt ww: a resumed job owing its third attempt held the worst case of all three, and
    # near a --max-cost limit a repair that fitted could be refused.
    from verification.config import load_settings
    from verification.llm.providers import build_provider
    from verification.run.attempts import Job
    from verification.run.budget import CostBudget
    from verification.runner import VerificationRunner, plan_cases
    from verification.store.pricing import ModelPrice

    settings = load_settings(provider="reference", repair_attempts=3, cases=1)
    attempts = VerificationRunner(settings, provider=build_provider(settings))._attempts()
    attempts.budget = CostBudget(limit=100.0, price=ModelPrice(input=1.0, output=2.0))
    spec = default_catalog()["kmp"]
    (case,) = plan_cases(["kmp"], seed=7, cases=1)["kmp"]
    job = Job(spec, case, spec.validator, 0)
    # Each attempt held at its own prompt, each repair's longer (hunt ak): the last is the
    # longest, and one attempt left is held at it.
    every, last = attempts.worst_case(job), attempts.worst_case(job, 1)
    assert 0 < last < every < 3 * last
    attempts.owed[job.sample] = [None, None]  # two attempts journalled: the third is owed
    assert attempts.worst_case(job) == pytest.approx(last)
