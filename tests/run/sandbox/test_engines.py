"""The engines: chosen by name, refused with how to install one, never an unsandboxed
fallback; what each one's command asks of the kernel or of Docker."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from verification.errors import ConfigurationError, SandboxUnavailableError
from verification.run.sandbox import ENGINES, Limits, Outcome, run_program
from verification.run.sandbox import engines as engines_module
from verification.run.sandbox.engines import BubblewrapEngine, DockerEngine, available_engine
from verification.run.sandbox.seccomp import seccomp_filter


def test_no_engine_runs_a_program_without_a_sandbox() -> None:
    assert set(ENGINES) == {"bubblewrap", "docker"}


def test_an_unknown_engine_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(SandboxUnavailableError, match="bubblewrap, docker"):
        available_engine("chroot")


def test_a_missing_bubblewrap_is_refused_saying_how_to_install_it() -> None:
    with pytest.raises(SandboxUnavailableError, match="apt-get install bubblewrap") as caught:
        BubblewrapEngine(bwrap="no-such-bwrap-here")
    assert isinstance(caught.value, ConfigurationError)  # exit 2, before any request


def test_a_missing_docker_is_refused_saying_how_to_install_bubblewrap() -> None:
    with pytest.raises(SandboxUnavailableError, match="apt-get install bubblewrap"):
        DockerEngine(docker="no-such-docker-here")


@pytest.mark.parametrize(
    ("said", "advised", "not_advised"),
    [
        (
            "docker: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is "
            "the docker daemon running?",
            "start the Docker daemon",
            "docker pull",
        ),
        (
            "docker: Error response from daemon: No such image: python:3.11-slim.",
            "pull the image first (`docker pull python:3.11-slim`)",
            "start the Docker daemon",
        ),
    ],
)
def test_a_docker_that_cannot_start_an_interpreter_is_told_what_fits_its_failure(
    tmp_path: Path, said: str, advised: str, not_advised: str
) -> None:
    # Before: a daemon not running was told to pull the image, and to "start a Docker
    # daemon and pass --sandbox docker", which the user had passed.
    fake = tmp_path / "docker"
    fake.write_text(f"#!/bin/sh\necho '{said}' >&2\nexit 125\n")
    fake.chmod(0o755)
    engine = DockerEngine(docker=str(fake), image="python:3.11-slim")
    with pytest.raises(SandboxUnavailableError) as caught:
        engine.probe()
    message = str(caught.value)
    assert advised in message and not_advised not in message
    assert "pass `--sandbox docker`" not in message
    assert "apt-get install bubblewrap" in message  # the other way out


def test_when_no_engine_works_the_error_names_each_ones_problem(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(name: str) -> type[BubblewrapEngine]:
        class Broken(BubblewrapEngine):
            def __init__(self) -> None:
                raise SandboxUnavailableError(f"{name} is broken here")

        return Broken

    monkeypatch.setattr(engines_module, "ENGINES", {n: broken(n) for n in ENGINES})
    available_engine.cache_clear()
    try:
        with pytest.raises(SandboxUnavailableError) as caught:
            available_engine()
    finally:
        available_engine.cache_clear()
    for name in ENGINES:
        assert f"{name} is broken here" in str(caught.value)


def _options(argv: list[str]) -> list[str]:
    return argv[: argv.index("--")]


def test_bubblewrap_isolates_what_the_issue_asks() -> None:
    engine = BubblewrapEngine(bwrap=sys.executable)  # the command only: no sandbox started
    limits = Limits(tmp_bytes=12345)
    launch = engine.launch(limits, "pass")
    for fd in launch.pass_fds:
        os.close(fd)
    options = _options(launch.argv)
    for flag in ("--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
                 "--clearenv", "--new-session"):  # fmt: skip
        assert flag in options
    assert options[options.index("--tmpfs") - 2 : options.index("--tmpfs") + 2] == [
        "--size", "12345", "--tmpfs", "/tmp",
    ]  # fmt: skip
    assert options[options.index("--uid") + 1] != "0"
    assert ("--seccomp" in options) == (seccomp_filter() is not None)
    # Read-only binds only, of the system and the interpreter's installation; nothing of a
    # home folder but that installation, nothing of the project or its results.
    binds = [options[i + 2] for i, o in enumerate(options) if o in ("--bind", "--ro-bind")]
    assert "--bind" not in options
    installation = str(engine.python.parent.parent)
    project = str(Path(__file__).resolve().parents[3])
    for target in binds:
        assert not project.startswith(target + "/") and target != project
        if target.startswith(("/root", "/home")):
            assert target == installation
    python = launch.argv[launch.argv.index("--") + 1 :]
    assert python[0] == str(engine.python)
    assert "-c" in python and "-s" in python and "-S" in python
    env = options[options.index("--clearenv") :]
    assert env[1:4] == ["--setenv", "PYTHONHASHSEED", "0"]


def test_docker_isolates_what_the_issue_asks() -> None:
    engine = DockerEngine(docker=sys.executable)  # the command only: no container started
    limits = Limits(address_space=123 * 1024**2, processes=7, tmp_bytes=999)
    launch = engine.launch(limits, "pass")
    argv = launch.argv
    pairs = {(argv[i], argv[i + 1]) for i in range(len(argv) - 1)}
    assert ("--network", "none") in pairs
    assert "--read-only" in argv
    assert ("--memory", str(limits.address_space)) in pairs
    assert ("--pids-limit", "7") in pairs
    assert ("--cap-drop", "ALL") in pairs
    assert any(a.startswith("/tmp:") and "size=999" in a for a in argv)
    assert engine.kill(launch) == [engine.docker, "kill", launch.name]


def test_the_seccomp_filter_is_whole_instructions_and_known_machines_only() -> None:
    for machine in ("x86_64", "aarch64"):
        program = seccomp_filter(machine)
        assert program is not None and len(program) % 8 == 0
    assert seccomp_filter("sparc") is None


@pytest.mark.slow
def test_docker_works_or_is_refused_saying_how_to_install_a_sandbox() -> None:
    """Here a Docker client may stand without a daemon: a probe that fails is refused."""
    available_engine.cache_clear()
    try:
        engine = available_engine("docker")
    except SandboxUnavailableError as error:
        assert "apt-get install bubblewrap" in str(error)
    else:
        assert engine.name == "docker" and engine.python_version
    finally:
        available_engine.cache_clear()


FAKE_DOCKER = """#!/bin/sh
# A stand-in for the docker client: logs what it is asked, runs the command after the image
# with this machine's Python (no container: it tests the harness's side of the engine only).
log="$FAKE_DOCKER_LOG"
if [ "$1" = kill ]; then echo "kill $2" >> "$log"; exit 0; fi
while [ "$1" != "--name" ]; do shift; done
echo "run $2" >> "$log"
while [ "$1" != "python" ]; do shift; done
shift
exec "$FAKE_PYTHON" "$@"
"""


@pytest.mark.slow
def test_the_docker_engine_runs_cases_and_kills_its_container_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "docker"
    fake.write_text(FAKE_DOCKER)
    fake.chmod(0o755)
    log = tmp_path / "log"
    monkeypatch.setenv("FAKE_DOCKER_LOG", str(log))
    monkeypatch.setenv("FAKE_PYTHON", sys.executable)
    engine = DockerEngine(docker=str(fake))
    source = "def solve(i):\n    while i['spin']:\n        pass\n    return {'ok': True}\n"
    # Docker's CPU time is not seen from here: the spinning case ends at its wall clock
    # (half a second of spinning, outside any sandbox here; the other case takes
    # milliseconds, its interpreter's start bounded apart).
    limits = Limits(cpu_seconds=0.5, wall_seconds=0.5)
    spun, answered = asyncio.run(
        run_program(source, [{"spin": True}, {"spin": False}], limits=limits, engine=engine)
    )
    assert spun.outcome is Outcome.TIMEOUT and spun.cpu_seconds is None  # not seen from here
    assert answered.outcome is Outcome.OK and answered.value == {"ok": True}
    runs = [line.split()[1] for line in log.read_text().splitlines() if line.startswith("run")]
    kills = [line.split()[1] for line in log.read_text().splitlines() if line.startswith("kill")]
    assert len(runs) == 2 and runs[0] in kills  # the timed-out container was killed by name
