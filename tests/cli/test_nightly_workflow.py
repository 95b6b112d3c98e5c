"""The nightly GitHub Actions workflow: it parses, and its steps do what docs/VERIFICATION.md
says (secrets, thorough level, no cache, history restored, reports uploaded whatever the
grade, failing on regression). Its verify command is parsed by the harness's own parser, so
an option renamed in the CLI fails here, not at 3 a.m. (.ci/run also checks the file against
GitHub's workflow schema.)"""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from verification.cli import build_parser

WORKFLOW = Path(__file__).parents[2] / ".github" / "workflows" / "nightly.yml"


@pytest.fixture(scope="module")
def workflow() -> dict[Any, Any]:
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _job(workflow: dict[Any, Any], name: str) -> dict[str, Any]:
    job = workflow["jobs"][name]
    assert isinstance(job, dict)
    return job


def _step(workflow: dict[Any, Any], text: str, job: str) -> tuple[int, dict[str, Any]]:
    """The one step of ``job`` whose ``run`` or ``uses`` mentions ``text``, with its
    position."""
    found = [
        (i, step)
        for i, step in enumerate(_job(workflow, job)["steps"])
        if text in str(step.get("run", "")) + str(step.get("uses", ""))
    ]
    assert len(found) == 1, f"{len(found)} steps of {job} mention {text!r}"
    return found[0]


def _shards(workflow: dict[Any, Any]) -> list[int]:
    strategy = _job(workflow, "certify")["strategy"]
    assert strategy["fail-fast"] is False  # one shard's trouble cancels no other
    shards = strategy["matrix"]["shard"]
    assert shards == list(range(1, len(shards) + 1)) and len(shards) > 1
    assert workflow["env"]["SHARDS"] == len(shards)
    return list(shards)


def _command(run: str, **values: object) -> list[str]:
    """The harness command of a step's ``run`` (up to any ``||``), with ``${{ ... }}``
    expressions replaced by ``values``."""
    for name, value in values.items():
        run = run.replace("${{ " + name + " }}", str(value))
    argv = shlex.split(run)
    return argv[: argv.index("||")] if "||" in argv else argv


def test_it_runs_nightly_and_by_hand(workflow: dict[Any, Any]) -> None:
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as True
    assert triggers["schedule"][0]["cron"] and "workflow_dispatch" in triggers


def test_each_shard_certifies_its_slice_thorough_uncached_from_secrets(
    workflow: dict[Any, Any],
) -> None:
    _, step = _step(workflow, "verification verify", "certify")
    assert step["env"] == {
        "ANTHROPIC_API_KEY": "${{ secrets.ANTHROPIC_API_KEY }}",
        "VERIFY_CERT_SEED": "${{ secrets.VERIFY_CERT_SEED }}",
    }
    shards = _shards(workflow)
    seen = set()
    for shard in shards:
        argv = _command(step["run"], **{"matrix.shard": shard, "env.SHARDS": len(shards)})
        assert argv[:3] == ["python", "-m", "verification"]
        args = build_parser().parse_args(argv[3:])
        assert args.command == "verify" and args.everything
        assert args.level == "thorough" and args.cache is False
        assert args.current_mode == "cert"
        assert (args.shard.index, args.shard.count) == (shard, len(shards))
        seen.add(args.shard.index)
    assert seen == set(shards)
    assert "GITHUB_STEP_SUMMARY" not in step["env"]  # Actions sets it; the harness appends


@pytest.mark.slow
@pytest.mark.parametrize(("code", "passes"), [(0, True), (1, True), (2, False), (3, False)])
def test_a_shard_tolerates_exit_1_only(workflow: dict[Any, Any], code: int, passes: bool) -> None:
    _, step = _step(workflow, "verification verify", "certify")
    run = step["run"].replace("${{ matrix.shard }}", "1").replace("${{ env.SHARDS }}", "4")
    command = " ".join(shlex.quote(part) for part in _command(run))
    script = run.replace(command, f"sh -c 'exit {code}'")
    assert script != run  # the harness command was found and stood in for
    done = subprocess.run(["bash", "-c", script], check=False)
    assert (done.returncode == 0) is passes


def test_each_shard_uploads_its_run_folder_by_name(workflow: dict[Any, Any]) -> None:
    verify_at, verify = _step(workflow, "verification verify", "certify")
    upload_at, upload = _step(workflow, "actions/upload-artifact", "certify")
    assert verify_at < upload_at and upload["if"] == "${{ !cancelled() }}"
    assert upload["with"]["name"] == "verification-shard-${{ matrix.shard }}"
    output = _command(verify["run"])[_command(verify["run"]).index("--output") + 1]
    assert upload["with"]["path"] == f"{output}/runs"
    _, download = _step(workflow, "actions/download-artifact", "merge")
    assert download["with"]["pattern"] == "verification-shard-*"


def test_the_merge_job_runs_after_any_shard_and_decides_the_exit_code(
    workflow: dict[Any, Any],
) -> None:
    merge = _job(workflow, "merge")
    assert merge["needs"] == "certify" and merge["if"] == "${{ !cancelled() }}"
    _, download = _step(workflow, "actions/download-artifact", "merge")
    _, step = _step(workflow, "verification merge", "merge")
    assert "if" not in step  # its exit code is the job's
    argv = _command(step["run"])
    args = build_parser().parse_args(argv[3:])
    assert args.command == "merge" and args.fail_on_regression and args.junit_xml is not None
    assert [str(d) for d in args.run_dirs] == [f"{download['with']['path']}/*/*"]
    assert "GITHUB_STEP_SUMMARY" not in step.get("env", {})  # Actions sets it


def test_history_is_restored_before_and_uploaded_after_whatever_the_grade(
    workflow: dict[Any, Any],
) -> None:
    merge_at, merge = _step(workflow, "verification merge", "merge")
    restore_at, restore = _step(workflow, "gh run download", "merge")
    upload_at, upload = _step(workflow, "actions/upload-artifact", "merge")
    prune_at, prune = _step(workflow, "verification prune", "merge")
    assert restore_at < merge_at < prune_at < upload_at
    name = upload["with"]["name"]
    assert f"--name {name}" in restore["run"]
    for step in (upload, prune):
        assert step["if"] == "${{ !cancelled() }}"  # a FAILED scaffold's exit 1 still uploads
    junit = shlex.split(merge["run"])[shlex.split(merge["run"]).index("--junit-xml") + 1]
    assert set(upload["with"]["path"].split()) == {"verification_results/runs", junit}
    assert workflow["permissions"]["actions"] == "read"  # to read the last run's artifact


def test_the_restored_history_stops_growing_past_a_horizon(workflow: dict[Any, Any]) -> None:
    # A pruned run still weighs about half of itself, and each night restores and uploads
    # every run again: without deleting the oldest, the artifact grew every night (hunt v).
    _, prune = _step(workflow, "verification prune", "merge")
    argv = _command(prune["run"])
    assert argv[:3] == ["python", "-m", "verification"]
    args = build_parser().parse_args(argv[3:])
    assert args.command == "prune" and args.delete_beyond is not None
    assert args.delete_beyond >= args.keep


@pytest.mark.slow
def test_a_merge_that_writes_no_run_says_so_and_uploads_no_stale_junit(
    workflow: dict[Any, Any], tmp_path: Path
) -> None:
    # Hunt v: with a shard missing, merge exited 2, the job summary stayed empty and the
    # uploaded junit.xml was the previous night's, restored with the history.
    _, restore = _step(workflow, "gh run download", "merge")
    assert "rm -f verification_results/junit.xml" in restore["run"]
    merge_at, _ = _step(workflow, "verification merge", "merge")
    said_at, said = _step(workflow, "the merge wrote no run", "merge")
    assert said_at > merge_at and said["if"] == "${{ failure() }}"
    summary = tmp_path / "summary.md"
    (tmp_path / "verification_results").mkdir()
    env = {"GITHUB_STEP_SUMMARY": str(summary), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        ["bash", "-c", said["run"]], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0 and "::error::" in done.stdout
    assert "No run tonight" in summary.read_text()
    # A merge that wrote its run (a regression's exit 5, say) has its own summary.
    summary.unlink()
    (tmp_path / "verification_results" / "junit.xml").write_text("<testsuites/>")
    done = subprocess.run(["bash", "-c", said["run"]], cwd=tmp_path, env=env, check=True)
    assert not summary.exists()
