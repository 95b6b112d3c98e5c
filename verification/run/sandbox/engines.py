"""The isolation engines a program runs in, chosen by name: ``bubblewrap`` and ``docker``.

An engine says how to start one sandboxed interpreter (:class:`Launch`: the command, its
environment, the descriptors it inherits and the limits the parent sets before exec) and how
to stop it. :func:`available_engine` picks one and proves it works by starting an
interpreter in it, before any request of a run; where none works it raises
:class:`~verification.errors.SandboxUnavailableError` saying how to install one. There is
no engine that runs a program without a sandbox.

The interpreter runs with ``-s -S -B -P`` in an environment the engine builds from nothing:
that is ``-I``'s isolation (no user site, no script folder on the path, no ``PYTHON*``
variable of the caller's), which ``-I`` itself cannot give here, as it would also ignore the
fixed ``PYTHONHASHSEED`` that makes runs repeat. ``-S`` also skips site-packages: a program
gets the standard library only.
"""

from __future__ import annotations

import os
import resource
import shutil
import site
import subprocess
import sys
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import ClassVar

from verification.errors import SandboxUnavailableError
from verification.run.sandbox.cpu_clock import interpreter_pid
from verification.run.sandbox.limits import Limits
from verification.run.sandbox.seccomp import seccomp_filter

__all__ = [
    "ENGINES",
    "BubblewrapEngine",
    "DockerEngine",
    "Engine",
    "Launch",
    "available_engine",
    "host_python",
]

PYTHON_FLAGS = ("-s", "-S", "-B", "-P")
HASH_SEED = "0"
BUBBLEWRAP_HINT = (
    "install bubblewrap (Debian and Ubuntu: `apt-get install bubblewrap`; Fedora: `dnf "
    "install bubblewrap`) and allow unprivileged user namespaces (Ubuntu 24.04: `sysctl "
    "kernel.apparmor_restrict_unprivileged_userns=0`)"
)
INSTALL_HINT = f"{BUBBLEWRAP_HINT}, or start a Docker daemon and pass `--sandbox docker`"
DOCKER_INSTEAD = (
    f"or run programs in bubblewrap instead (`--sandbox bubblewrap`): {BUBBLEWRAP_HINT}"
)
"""The other way out of Docker's own failures (where Docker fails, advice to pass
``--sandbox docker`` fits no one)."""
SYSTEM_PATHS = ("/usr", "/bin", "/lib", "/lib64", "/lib32", "/libx32", "/sbin")
"""What the interpreter may need of the system: programs and shared libraries, read-only."""
PROBE = "import sys; print('.'.join(map(str, sys.version_info[:3])))"


@dataclass(frozen=True)
class Launch:
    """How to start one sandboxed interpreter: ``argv`` in ``env``, inheriting
    ``pass_fds`` (the caller closes them once the process started), with ``preexec`` run
    in the child before exec (the limits the parent sets); ``name`` names it to ``kill``."""

    argv: list[str]
    env: dict[str, str]
    preexec: Callable[[], None]
    pass_fds: tuple[int, ...] = ()
    name: str = field(default_factory=lambda: f"verification-sandbox-{uuid.uuid4().hex[:12]}")


def host_python() -> Path:
    """The interpreter that runs the harness, without its virtual environment: the
    sandbox runs the standard library of the same Python version."""
    base = getattr(sys, "_base_executable", None) or sys.executable
    return Path(os.path.realpath(base))


def _rlimits(limits: Limits) -> Callable[[], None]:
    """What the child sets before it execs the engine: the limits every process of the
    sandbox inherits (the driver cannot lift a hard limit; the program cannot either). Its
    tasks are limited on the running interpreter (:meth:`Engine.limit_tasks`)."""
    settings = [
        (resource.RLIMIT_AS, limits.address_space),
        (resource.RLIMIT_FSIZE, limits.file_bytes),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_NOFILE, 256),
    ]

    def preexec() -> None:
        for which, value in settings:
            resource.setrlimit(which, (value, value))

    return preexec


def _user_tasks() -> int:
    """How many tasks the calling user runs now (RLIMIT_NPROC counts them all)."""
    uid, count = os.getuid(), 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid == uid:
                    count += len(os.listdir(f"/proc/{entry.name}/task"))
            except OSError:
                continue
    return count


class Engine(ABC):
    """One isolation engine: how to start a sandboxed interpreter and how to stop it."""

    name: ClassVar[str]
    measures_cpu: ClassVar[bool] = False
    """Whether the interpreter's processes are visible in the host's ``/proc``."""

    python_version: str = ""
    """The Python version the sandbox runs (``3.11.7``), known once the engine is probed."""

    @abstractmethod
    def launch(self, limits: Limits, code: str) -> Launch:
        """How to start ``python -c code`` sandboxed under ``limits``."""

    def limit_tasks(self, engine_pid: int, limits: Limits) -> None:
        """Limit the tasks of the interpreter running under the engine's process
        ``engine_pid``, once it runs and before the program does (the session asks);
        nothing where the engine bounds them itself. Raises :class:`OSError` when the limit
        cannot be set: the program must then not run."""
        return  # Docker's pids limit, set when the container starts

    def hint(self, error: str = "") -> str:
        """How to make this engine work, given what it said when it failed (``error``)."""
        return INSTALL_HINT

    def kill(self, launch: Launch) -> list[str] | None:
        """A command that stops ``launch``'s sandbox besides killing its process, if any."""
        return None

    def probe(self) -> str:
        """Start an interpreter in the sandbox once; its Python version, or the error
        (for Docker, with the image to pull when it is missing)."""
        launch = self.launch(Limits(), PROBE)
        try:
            done = subprocess.run(
                launch.argv,
                env=launch.env,
                pass_fds=launch.pass_fds,
                preexec_fn=launch.preexec,
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
                stdin=subprocess.DEVNULL,
            )
        except (OSError, subprocess.SubprocessError) as error:
            raise SandboxUnavailableError(
                f"the {self.name} sandbox cannot start ({error}); {self.hint(str(error))}"
            ) from error
        finally:
            for fd in launch.pass_fds:
                os.close(fd)
        if done.returncode != 0:
            raise SandboxUnavailableError(
                f"the {self.name} sandbox failed to start an interpreter (exit "
                f"{done.returncode}: {done.stderr.strip()[-500:]}); {self.hint(done.stderr)}"
            )
        self.python_version = done.stdout.strip()
        return self.python_version


def _site_folders(python: Path) -> list[str]:
    """The site-packages folders of ``python``'s installation that exist (Debian's
    dist-packages too), as its ``site`` module lists them."""
    prefix = str(python.parent.parent)
    return [folder for folder in site.getsitepackages([prefix]) if os.path.isdir(folder)]


class BubblewrapEngine(Engine):
    """bubblewrap: new user, pid, network, IPC, UTS and cgroup namespaces; a root of only
    the system's read-only program folders and the interpreter's installation; a private
    /tmp of bounded size; no home, project or results folder; a cleared environment; an
    unprivileged uid; no child processes (the seccomp filter); dies with the harness."""

    name = "bubblewrap"
    measures_cpu = True

    def __init__(self, python: Path | None = None, bwrap: str = "bwrap") -> None:
        found = shutil.which(bwrap)
        if found is None:
            raise SandboxUnavailableError(
                f"bubblewrap (`{bwrap}`) is not installed; {INSTALL_HINT}"
            )
        self.bwrap = found
        self.python = python or host_python()
        self.filter = seccomp_filter()
        if self.filter is None and os.geteuid() == 0:
            raise SandboxUnavailableError(
                "as root, forks are contained by a seccomp filter, which this harness has "
                "for x86_64 and aarch64 only; run as an ordinary user here"
            )

    def _binds(self) -> list[str]:
        args: list[str] = []
        for path in SYSTEM_PATHS:
            if os.path.islink(path):
                args += ["--symlink", os.readlink(path), path]
            elif os.path.isdir(path):
                args += ["--ro-bind", path, path]
        if os.path.isfile("/etc/ld.so.cache"):
            args += ["--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache"]
        # The installation: the folder above the interpreter's bin/ (pyenv keeps it under a
        # home folder, which is otherwise absent).
        prefix = str(self.python.parent.parent)
        if not any(prefix == p or prefix.startswith(p + "/") for p in SYSTEM_PATHS):
            args += ["--ro-bind", prefix, prefix]
        return args

    def launch(self, limits: Limits, code: str) -> Launch:
        pass_fds: tuple[int, ...] = ()
        seccomp: list[str] = []
        if self.filter is not None:
            read, write = os.pipe()
            os.write(write, self.filter)  # a few hundred bytes: the pipe holds them
            os.close(write)
            pass_fds = (read,)
            seccomp = ["--seccomp", str(read)]
        argv = [
            self.bwrap,
            *self._binds(),
            # No /proc: nothing the interpreter runs needs it, and through it a program
            # wrote into bwrap's init (pid 1, outside the CPU clock) and ran on (hunt jj 1).
            "--dev", "/dev",
            "--remount-ro", "/dev",
            "--size", str(limits.tmp_bytes),
            "--tmpfs", "/tmp",
            # The standard library only: the site-packages (the harness's own packages among
            # them) hidden under empty folders, not merely left off sys.path (-S), from which
            # one sys.path.append imported them (hunt jj 6).
            *(arg for folder in _site_folders(self.python) for arg in ("--tmpfs", folder)),
            "--remount-ro", "/",
            "--unshare-all",
            "--unshare-user",
            "--disable-userns",
            "--uid", "65534",
            "--gid", "65534",
            "--hostname", "sandbox",
            "--clearenv",
            "--setenv", "PYTHONHASHSEED", HASH_SEED,
            "--setenv", "PATH", "/usr/bin:/bin",
            "--setenv", "LANG", "C.UTF-8",
            "--chdir", "/tmp",
            "--die-with-parent",
            "--new-session",
            *seccomp,
            "--",
            str(self.python),
            *PYTHON_FLAGS,
            "-c",
            code,
        ]  # fmt: skip
        return Launch(argv, {"PATH": "/usr/bin:/bin"}, _rlimits(limits), pass_fds)

    def limit_tasks(self, engine_pid: int, limits: Limits) -> None:
        """RLIMIT_NPROC on the running interpreter: the calling user's tasks now plus
        ``limits.processes``. The count is the user's, every sandbox of the user at once in
        it, so it is set on the running interpreter just before the program runs, not on
        bubblewrap before it starts: set there, a thread bomb in a sandbox beside it could
        use up the count between the two, and bubblewrap's own fork for its pid 1 failed.
        Nothing as root, whom RLIMIT_NPROC does not bind (the seccomp filter keeps forks
        out; threads count against the address space)."""
        if os.geteuid() == 0:
            return
        pid = interpreter_pid(engine_pid)
        if pid is None:
            raise ProcessLookupError("no interpreter under the sandbox's process")
        limit = _user_tasks() + limits.processes
        hard = resource.prlimit(pid, resource.RLIMIT_NPROC)[1]
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)  # an unprivileged user cannot raise a hard limit
        resource.prlimit(pid, resource.RLIMIT_NPROC, (limit, limit))


class DockerEngine(Engine):
    """Docker: no network, a read-only root, a private /tmp of bounded size, memory and
    pids limits, every capability dropped, an unprivileged uid (as inspect_ai's docker
    sandbox). The image is Python's official one of the harness's version unless named."""

    name = "docker"

    def __init__(self, image: str | None = None, docker: str = "docker") -> None:
        found = shutil.which(docker)
        if found is None:
            raise SandboxUnavailableError(
                f"docker (`{docker}`) is not installed: install Docker, {DOCKER_INSTEAD}"
            )
        self.docker = found
        version = sys.version_info
        self.image = image or f"python:{version.major}.{version.minor}-slim"

    def launch(self, limits: Limits, code: str) -> Launch:
        name = f"verification-sandbox-{uuid.uuid4().hex[:12]}"
        argv = [
            self.docker, "run", "--rm", "-i", "--name", name,
            "--pull", "never",  # no download in the middle of a run: pulled beforehand
            "--cpus", "1",
            "--network", "none",
            "--read-only",
            "--tmpfs", f"/tmp:rw,nosuid,nodev,size={limits.tmp_bytes}",
            "--memory", str(limits.address_space),
            "--memory-swap", str(limits.address_space),
            "--pids-limit", str(limits.processes),
            "--cap-drop", "ALL",
            "--security-opt", "no-new-privileges",
            "--user", "65534:65534",
            "--ulimit", f"fsize={limits.file_bytes}:{limits.file_bytes}",
            "--ulimit", "core=0",
            "--env", f"PYTHONHASHSEED={HASH_SEED}",
            "--workdir", "/tmp",
            "--log-driver", "none",
            self.image, "python", *PYTHON_FLAGS, "-c", code,
        ]  # fmt: skip
        return Launch(argv, dict(os.environ), lambda: None, name=name)

    def hint(self, error: str = "") -> str:
        said = error.lower()
        if "docker daemon" in said:  # not running, or this user may not reach its socket
            return (
                "start the Docker daemon (`systemctl start docker`) and let this user reach it "
                f"(the `docker` group), {DOCKER_INSTEAD}"
            )
        pull = f"pull the image first (`docker pull {self.image}`)"
        if "no such image" in said or "unable to find image" in said:
            return f"{pull}, {DOCKER_INSTEAD}"
        return f"{pull} if it is missing and check that the Docker daemon runs, {DOCKER_INSTEAD}"

    def kill(self, launch: Launch) -> list[str] | None:
        return [self.docker, "kill", launch.name]


ENGINES: dict[str, Callable[[], Engine]] = {
    "bubblewrap": BubblewrapEngine,
    "docker": DockerEngine,
}
"""The engines by name (``--sandbox``); ``available_engine`` tries them in this order."""


@cache
def available_engine(preferred: str | None = None) -> Engine:
    """The engine named ``preferred`` (any that works when ``None``), started once to prove
    it works; :class:`SandboxUnavailableError` saying how to install one where none does."""
    if preferred is not None and preferred not in ENGINES:
        raise SandboxUnavailableError(f"unknown sandbox {preferred!r}; known: {', '.join(ENGINES)}")
    names = [preferred] if preferred else list(ENGINES)
    problems = []
    for name in names:
        try:
            engine = ENGINES[name]()
            engine.probe()
        except SandboxUnavailableError as error:
            problems.append(str(error))
            continue
        return engine
    if len(problems) == 1:
        raise SandboxUnavailableError(f"no sandbox to run programs in: {problems[0]}")
    raise SandboxUnavailableError(
        "no sandbox to run programs in: "
        + " ".join(f"({i + 1}) {p}" for i, p in enumerate(problems))
    )
