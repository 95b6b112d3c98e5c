"""The environment a command runs in, attacked: a ``.env`` in Latin-1, binary, huge, a folder
or a pipe; a NUL byte in a path setting; a console that cannot encode a character; a replay
file that is a pipe, ``/dev/zero``, a folder or too long. Each ends in a clear error naming
the file or setting (exit 2) or a normal run; none exits 4 or hangs. Commands that could
hang run as real processes with a timeout, so a regression fails rather than stalls: forked
from a preloaded interpreter (tests/support/light_forks.py) where the interpreter's start is
not what is tested, a fresh interpreter where it is (the console's encoding).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.light_forks import light_fork_server
from tests.support.preloaded import ForkServer
from verification.cli import main
from verification.config import MAX_ENV_BYTES, load_settings
from verification.errors import ConfigurationError
from verification.registry import get_spec
from verification.runner import plan_cases

POSIX = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes and devices")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _clean_environment(**env: str) -> dict[str, str]:
    """This environment without the harness's and the SDK's variables, and ``env`` on top."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("VERIFY_", "ANTHROPIC_"))}
    return {**clean, **env}


def _process(argv: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m verification ARGV`` in a fresh interpreter in ``cwd``, given 60 s (a hang
    fails the test)."""
    return subprocess.run(
        [sys.executable, "-m", "verification", *argv],
        cwd=cwd,
        env=_clean_environment(**env),
        capture_output=True,
        text=True,
        timeout=60,
    )


def _forked(forks: ForkServer, argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m verification ARGV`` as a process forked by ``forks`` in ``cwd``, given
    60 s as :func:`_process` is (a hang fails the test; the child is killed)."""
    child = forks.start(
        argv,
        env=_clean_environment(),
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        raise
    assert child.returncode is not None
    return subprocess.CompletedProcess(
        ["python -m verification", *argv], child.returncode, out, err
    )


@pytest.fixture(scope="session")
def forks(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ForkServer]:
    """A fork server for the command lines here, none of which asks a model: its
    children are processes of their own, without a fresh interpreter's start and imports."""
    with light_fork_server(request, tmp_path_factory) as server:
        yield server


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tmp_path`` as the working directory, where ``.env`` is read."""
    for name in [n for n in os.environ if n.startswith("VERIFY_")]:
        monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- .env ----------------------------------------------------------------------------------

ENV_FILES = {
    "Latin-1": "VERIFY_MODEL=gr\u00f6\u00dfe\n".encode("latin-1"),
    "binary": b"SQLite format 3\x00\xff\xfe\x00\x01" * 50,
    "UTF-16": "VERIFY_SEED=5\n".encode("utf-16"),
    "too long": b"# padding\n" * (MAX_ENV_BYTES // 10 + 1),
}


@pytest.mark.parametrize("kind", list(ENV_FILES))
@pytest.mark.parametrize(
    "argv",
    [
        ["show-prompt", "kmp", "--case", "kmp-simple-000"],
        ["cache", "stats"],
        ["verify", "kmp", "--provider", "reference", "--cases", "1"],
    ],
    ids=["show-prompt", "cache stats", "verify"],
)
def test_a_env_file_that_is_no_text_is_refused_naming_it(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], kind: str, argv: list[str]
) -> None:
    (in_tmp / ".env").write_bytes(ENV_FILES[kind])
    code, _, err = _run(capsys, *argv)
    assert code == 2, err
    assert str(in_tmp / ".env") in err and "UTF-8" in err
    assert not (in_tmp / "verification_results" / "runs").exists()


@pytest.mark.parametrize("kind", list(ENV_FILES))
def test_list_reads_no_setting_so_no_env_file_stops_it(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    (in_tmp / ".env").write_bytes(ENV_FILES[kind])
    code, out, err = _run(capsys, "list")
    assert code == 0, err
    assert "dijkstra" in out and ".env" not in err


@pytest.mark.slow
@POSIX
@pytest.mark.parametrize("kind", ["a folder (a virtualenv)", "a pipe"])
def test_a_env_that_is_no_regular_file_is_none_of_ours(
    in_tmp: Path, kind: str, forks: ForkServer
) -> None:
    if kind == "a pipe":
        os.mkfifo(in_tmp / ".env")
    else:
        (in_tmp / ".env" / "bin").mkdir(parents=True)
    done = _forked(forks, ["cache", "stats"], in_tmp)  # a command that reads the settings
    assert done.returncode == 0, done.stderr
    assert "empty" in done.stdout


def test_a_utf8_env_still_sets_what_it_says(in_tmp: Path) -> None:
    (in_tmp / ".env").write_text("VERIFY_MODEL=gr\u00f6\u00dfe-model\n", encoding="utf-8")
    assert load_settings().model_name == "gr\u00f6\u00dfe-model"


# --- a NUL byte in a path setting -------------------------------------------------------------


@pytest.mark.parametrize("setting", ["results_dir", "scaffolds_dir", "replay_file"])
def test_a_nul_byte_in_a_path_setting_is_a_clear_error(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], setting: str
) -> None:
    variable = f"VERIFY_{setting.upper()}"
    # No environment variable can hold NUL; a .env file can, and so can a caller.
    (in_tmp / ".env").write_text(f"{variable}=out\x00put\n", encoding="utf-8")
    argv = ["verify", "kmp", "--provider", "replay", "--cases", "1"]
    code, _, err = _run(capsys, *argv)
    assert code == 2 and variable in err and "NUL byte" in err, err
    with pytest.raises(ConfigurationError, match="NUL byte"):
        load_settings(**{setting: "a\x00b"})


def test_a_nul_byte_in_a_path_option_is_a_usage_error(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["show-prompt", "kmp", "--case", "kmp-simple-000", "--scaffold-file", "a\x00b"])
    assert exited.value.code == 2 and "NUL byte" in capsys.readouterr().err


# --- a console that cannot encode a character ---------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_show_prompt_on_a_console_that_cannot_encode_a_character(
    tmp_path: Path, encoding: str
) -> None:
    scaffold = tmp_path / "kmp.md"
    packaged = get_spec("kmp")
    (case,) = plan_cases(["kmp"], seed=1, cases=1)["kmp"]
    from verification.llm.prompt_builder import PromptBuilder

    text = PromptBuilder(load_settings().scaffolds_dir).get_scaffold_content(packaged)
    scaffold.write_text(text + "\nArrows \u2192 and checks \u2713 and \U0001f600.\n", "utf-8")
    argv = ["show-prompt", "kmp", "--case", case.id, "--scaffold-file", str(scaffold)]
    done = _process([*argv, "--seed", "1"], tmp_path, PYTHONIOENCODING=encoding)
    assert done.returncode == 0, done.stderr
    assert "Arrows \\u2192 and checks \\u2713 and \\U0001f600." in done.stdout
    assert "Traceback" not in done.stderr


# --- the replay file ----------------------------------------------------------------------------


@pytest.mark.slow
@POSIX
@pytest.mark.parametrize("kind", ["a pipe", "/dev/zero", "a folder"])
def test_a_replay_file_that_is_no_regular_file_is_refused_not_waited_on(
    tmp_path: Path, kind: str, forks: ForkServer
) -> None:
    replay = tmp_path / "replay.jsonl"
    if kind == "a pipe":
        os.mkfifo(replay)  # nobody ever writes to it: a read would wait forever
    elif kind == "a folder":
        replay.mkdir()
    else:
        replay.symlink_to("/dev/zero")  # a read would fill the memory
    argv = ["verify", "kmp", "--provider", "replay", "--replay-file", str(replay)]
    done = _forked(forks, [*argv, "--output", str(tmp_path / "out")], tmp_path)
    assert done.returncode == 2, done.stderr
    assert f"cannot read the replay file {replay}" in done.stderr
    assert "not a regular file" in done.stderr and "--replay-file" in done.stderr


def test_a_replay_file_past_the_bound_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("verification.llm.dry_run.MAX_REPLAY_BYTES", 1000)
    replay = tmp_path / "replay.jsonl"
    replay.write_text('{"case_id": "kmp-simple-000", "text": "x"}\n' * 100, encoding="utf-8")
    argv = ["verify", "kmp", "--provider", "replay", "--replay-file", str(replay)]
    code, _, err = _run(capsys, *argv, "--output", str(tmp_path / "out"))
    assert code == 2 and "longer than 1000 bytes" in err and str(replay) in err


# --- a model name no request can carry -------------------------------------------------------


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
@pytest.mark.parametrize("name", ["claude-\udcff", "claude\x1b[2J", "claude\nINFO: ok"])
def test_a_model_name_no_request_can_carry_is_refused_before_any_request(
    in_tmp: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    provider: str,
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-model-name-canary")
    # Nothing listens there: the name is refused before any connection is tried.
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("VERIFY_OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    # Undecodable bytes in argv (`--model $'\xff'`) reach Python as lone surrogates.
    argv = ["verify", "kmp", "--provider", provider, "--model", name, "--cases", "1"]
    code, _, err = _run(capsys, *argv)
    assert code == 2 and "--model" in err and "not text" in err, err
    assert "\x1b" not in err and "\n" not in err.rstrip("\n")
    assert not (in_tmp / "verification_results" / "runs").exists()


# --- JSON settings that are no JSON ---------------------------------------------------------


@pytest.mark.parametrize("variable", ["VERIFY_PRICES", "VERIFY_MIN_CACHEABLE_TOKENS"])
@pytest.mark.parametrize(
    ("value", "said"),
    [("garbage", "not valid JSON"), ("[" * 100_000, "JSON nested too deeply")],
    ids=["not JSON", "nested"],
)
def test_a_json_setting_that_cannot_be_read_is_refused_naming_it(
    in_tmp: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    variable: str,
    value: str,
    said: str,
) -> None:
    # Before: pydantic-settings' SettingsError (or a RecursionError) ended the run with exit 4.
    monkeypatch.setenv(variable, value)
    code, _, err = _run(capsys, "verify", "kmp", "--provider", "reference", "--cases", "1")
    assert code == 2, err
    assert f"bad setting: {variable}: {said}" in err
    assert not (in_tmp / "verification_results" / "runs").exists()


def test_a_json_setting_in_env_file_names_the_file(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / ".env").write_text("VERIFY_PRICES={broken\n", encoding="utf-8")
    code, _, err = _run(capsys, "verify", "kmp", "--provider", "reference", "--cases", "1")
    assert code == 2, err
    assert "bad setting: VERIFY_PRICES (in .env): not valid JSON" in err
