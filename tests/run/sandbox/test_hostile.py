"""Hostile programs are contained (issue 26 item 5), as root (as CI runs) and as an ordinary
user: each ends as its own failure with a reason, the harness raises nothing, nothing outside
the sandbox changes (a marker file stays absent, a listener on 127.0.0.1 is never reached, the
host's /tmp is untouched) and no canary secret comes back in any execution."""

from __future__ import annotations

import json
import os
import shutil
import site
import socket
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.run.sandbox.crowded_user import ASKED, CROWD
from tests.run.sandbox.hostile_programs import EXPECTED, PROGRAMS, run_all
from verification.run.sandbox import Engine
from verification.run.sandbox.engines import host_python

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
CANARY = f"sk-ant-canary-{uuid.uuid4().hex}"
NOBODY = 65534


@pytest.fixture
def world(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """What the programs aim at: canary files, a marker path, a listener, the key."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", CANARY)
    outside = Path(tempfile.mkdtemp(prefix="sandbox-outside-", dir="/var/tmp"))
    outside.chmod(0o777)  # an ordinary user's harness can read and write here too
    (outside / "canary.txt").write_text(CANARY)
    (outside / "canary.txt").chmod(0o644)
    home_file = Path.home() / f".sandbox-canary-{uuid.uuid4().hex}"
    home_file.write_text(CANARY)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.setblocking(False)
    tmp_name = f"sandbox-fill-{uuid.uuid4().hex}"
    try:
        yield {
            "context": {
                "home": str(Path.home()),
                "home_file": str(home_file),
                "project_file": str(ROOT / "pyproject.toml"),
                "outside_file": str(outside / "canary.txt"),
                "marker": str(outside / "marker"),
                "port": listener.getsockname()[1],
                "harness_pid": os.getpid(),
                "tmp_file": f"/tmp/{tmp_name}",
                # The installation the sandbox binds (the harness's, without its venv).
                "site_packages": site.getsitepackages([str(host_python().parent.parent)]),
            },
            "outside": outside,
            "listener": listener,
            "tmp_name": tmp_name,
        }
    finally:
        listener.close()
        home_file.unlink()
        shutil.rmtree(outside)


def _assert_contained(results: dict[str, list[dict[str, Any]]], world: dict[str, Any]) -> None:
    assert set(results) == set(PROGRAMS)
    wrong = {
        name: [(e["outcome"], e["reason"][-300:]) for e in executions]
        for name, executions in results.items()
        if any(e["outcome"] not in EXPECTED[name] for e in executions)
    }
    assert not wrong, wrong
    for name, executions in results.items():
        for execution in executions:
            if execution["outcome"] != "ok":
                assert execution["reason"].strip(), name  # a failure says why
    for name in ("close_stdout", "monkeypatch_json"):
        assert all(e["value"] == {"answer": 42} for e in results[name]), name
    # Nothing outside changed; nothing secret came back.
    assert not (world["outside"] / "marker").exists()
    with pytest.raises(BlockingIOError):
        world["listener"].accept()
    assert not (Path("/tmp") / world["tmp_name"]).exists()
    project_text = (ROOT / "pyproject.toml").read_text()
    text = json.dumps(results)
    assert CANARY not in text
    assert project_text[:200] not in text


@pytest.mark.skipif(os.geteuid() != 0, reason="the harness does not run as root here")
def test_hostile_programs_are_contained_as_root(world: dict[str, Any], engine: Engine) -> None:
    _assert_contained(run_all(world["context"]), world)


def _ordinary_user_python() -> list[str]:
    """The command that starts Python as an ordinary user (the system's, as ``nobody``,
    when the tests run as root)."""
    if os.geteuid() != 0:
        return [sys.executable]
    setpriv = shutil.which("setpriv")
    python = shutil.which("python3", path="/usr/bin:/bin")
    if setpriv is None or python is None:
        pytest.skip("no setpriv or system python3 to run the harness as an ordinary user")
    return [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", python]


def _run_as_ordinary_user(program: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    """``program`` (a file beside this one) run as an ordinary user, the key set to the
    canary; skipped where this machine cannot sandbox as one."""
    python = _ordinary_user_python()
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "ANTHROPIC_API_KEY": CANARY}
    probe = subprocess.run(
        [*python, "-c", "import verification.run.sandbox as s; s.available_engine()"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd="/",
    )
    if probe.returncode != 0:
        pytest.skip(f"this machine cannot sandbox as an ordinary user: {probe.stderr[-400:]}")
    command = [*python, str(Path(__file__).with_name(program)), *arguments]
    done = subprocess.run(
        command, env=env, capture_output=True, text=True, check=False, cwd="/", timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def test_hostile_programs_are_contained_as_an_ordinary_user(
    world: dict[str, Any], engine: Engine
) -> None:
    done = _run_as_ordinary_user("hostile_programs.py", json.dumps(world["context"]))
    _assert_contained(json.loads(done.stdout), world)


def test_a_sandbox_starts_while_its_users_tasks_grow_and_its_program_is_still_limited() -> None:
    # RLIMIT_NPROC counts every task of an ordinary user: a limit set on bubblewrap before it
    # started let a neighbour's thread bomb use the count up before bubblewrap's own fork
    # ("Can't fork for pid 1"). Set on the running interpreter, it still binds the program.
    execution = json.loads(_run_as_ordinary_user("crowded_user.py").stdout)
    assert execution["outcome"] == "ok", execution["reason"]
    # Its tasks are limited (not by the address space alone, which stops threads too): the
    # limit is the user's count when the program started plus its margin, and binds there.
    soft, hard = execution["value"]["nproc"]
    assert soft == hard and CROWD < soft < CROWD + 100, soft
    assert execution["value"]["started"] == 0 < ASKED  # and no thread starts (seccomp)
