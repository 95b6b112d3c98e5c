"""The nightly GitHub Actions workflow: it parses, and its steps do what docs/VERIFICATION.md
says (secrets, thorough level, no cache, history restored, reports uploaded whatever the
grade, failing on regression). Its verify command is parsed by the harness's own parser, so
an option renamed in the CLI fails here, not at 3 a.m. (.ci/run also checks the file against
GitHub's workflow schema.)"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from verification.cli import build_parser

WORKFLOW = Path(__file__).parents[1] / ".github" / "workflows" / "nightly.yml"


@pytest.fixture(scope="module")
def workflow() -> dict[Any, Any]:
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _steps(workflow: dict[Any, Any]) -> list[dict[str, Any]]:
    (job,) = workflow["jobs"].values()
    steps = job["steps"]
    assert isinstance(steps, list)
    return steps


def _step(workflow: dict[Any, Any], text: str) -> tuple[int, dict[str, Any]]:
    """The one step whose ``run`` or ``uses`` mentions ``text``, with its position."""
    found = [
        (i, step)
        for i, step in enumerate(_steps(workflow))
        if text in str(step.get("run", "")) + str(step.get("uses", ""))
    ]
    assert len(found) == 1, f"{len(found)} steps mention {text!r}"
    return found[0]


def test_it_runs_nightly_and_by_hand(workflow: dict[Any, Any]) -> None:
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as True
    assert triggers["schedule"][0]["cron"] and "workflow_dispatch" in triggers


def test_the_certify_step_runs_thorough_uncached_from_secrets(workflow: dict[Any, Any]) -> None:
    _, step = _step(workflow, "verification verify")
    assert step["env"] == {
        "ANTHROPIC_API_KEY": "${{ secrets.ANTHROPIC_API_KEY }}",
        "VERIFY_CERT_SEED": "${{ secrets.VERIFY_CERT_SEED }}",
    }
    argv = shlex.split(step["run"])
    assert argv[:3] == ["python", "-m", "verification"]
    args = build_parser().parse_args(argv[3:])
    assert args.command == "verify" and args.everything
    assert args.level == "thorough" and args.cache is False and args.fail_on_regression
    assert args.current_mode == "cert" and args.junit_xml is not None
    assert "GITHUB_STEP_SUMMARY" not in step["env"]  # Actions sets it; the harness appends


def test_history_is_restored_before_and_uploaded_after_whatever_the_grade(
    workflow: dict[Any, Any],
) -> None:
    verify_at, verify = _step(workflow, "verification verify")
    restore_at, restore = _step(workflow, "gh run download")
    upload_at, upload = _step(workflow, "actions/upload-artifact")
    prune_at, prune = _step(workflow, "verification prune")
    assert restore_at < verify_at < prune_at < upload_at
    name = upload["with"]["name"]
    assert f"--name {name}" in restore["run"]
    for step in (upload, prune):
        assert step["if"] == "${{ !cancelled() }}"  # a FAILED scaffold's exit 1 still uploads
    junit = shlex.split(verify["run"])[shlex.split(verify["run"]).index("--junit-xml") + 1]
    assert set(upload["with"]["path"].split()) == {"verification_results/runs", junit}
    assert workflow["permissions"]["actions"] == "read"  # to read the last run's artifact
