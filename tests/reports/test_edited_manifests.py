"""Text from a hand-edited manifest (issue 24 item 11): a model name holding escape codes is
printed escaped by ``history`` and ``compare``, as a server's model names are; a server URL
carrying credentials is stripped whenever a manifest is read, so ``report`` copies no
secret into the reports it writes and publishes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from verification.cli import main
from verification.store.manifests import read_manifest_file

NAME = "kmp"
HOSTILE_MODEL = "claude\x1b[2J\x1b[31m-x\r\n# CERTIFIED \u202e"
SECRET = "sk-ant-api03-secret"
URL = f"http://user:{SECRET}@models.example:8080/v1?key={SECRET}#{SECRET}"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _dry_run(capsys: pytest.CaptureFixture[str], output: Path) -> Path:
    before = set((output / "runs").iterdir()) if (output / "runs").is_dir() else set()
    code, _, err = _run(
        capsys, "verify", NAME, "--provider", "reference", "--cases", "3", "--output", str(output)
    )
    assert code == 0, err
    (run,) = set((output / "runs").iterdir()) - before
    return run


def _edit_manifest(run: Path, edit: Callable[[dict[str, Any]], None]) -> None:
    path = run / "manifest.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def _hostile_model(manifest: dict[str, Any]) -> None:
    manifest.update(dry_run=False, run_label=None, model_requested=HOSTILE_MODEL)


def _answered_live(run: Path) -> None:
    """The journal's lines told as a model's answers, as a manifest said live needs them
    (a dry-run provider's line under it is refused: tests/store/test_journal_agrees.py)."""
    path = run / "results.jsonl"
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    path.write_text("".join(json.dumps({**line, "source": "live"}) + "\n" for line in lines))


def _assert_escaped(out: str) -> None:
    assert not any(char in out for char in "\x1b\r\u202e"), out
    assert "claude\\x1b[2J\\x1b[31m-x\\x0d\\x0a# CERTIFIED \\u202e" in out


def test_history_prints_an_edited_model_name_escaped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    output = tmp_path / "results"
    _edit_manifest(_dry_run(capsys, output), _hostile_model)
    code, out, err = _run(capsys, "history", "--output", str(output))
    assert code == 0, err
    _assert_escaped(out)


def test_compare_prints_an_edited_model_name_escaped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    output = tmp_path / "results"
    first = _dry_run(capsys, output)
    second = _dry_run(capsys, output)
    _edit_manifest(first, _hostile_model)
    _answered_live(first)
    code, out, err = _run(capsys, "compare", first.name, second.name, "--output", str(output))
    assert code == 0, err
    _assert_escaped(out)


def _credentials(manifest: dict[str, Any]) -> None:
    manifest["provider"]["base_url"] = URL
    manifest["settings"]["anthropic_base_url"] = URL
    manifest["settings"]["openai_base_url"] = URL


def test_report_copies_no_credentials_from_an_edited_manifest(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    output = tmp_path / "results"
    run = _dry_run(capsys, output)
    _edit_manifest(run, _credentials)
    manifest = read_manifest_file(run / "manifest.json")
    assert manifest.provider["base_url"] == "http://models.example:8080/v1"
    assert manifest.settings["anthropic_base_url"] == "http://models.example:8080/v1"
    code, out, err = _run(capsys, "report", run.name, "--output", str(output))
    assert code == 0, err
    assert (
        (run / "reports" / f"{NAME}.md").read_text(encoding="utf-8").count("models.example:8080/v1")
    )  # the URL is shown, without what it carried
    written = [
        path for path in output.rglob("*") if path.is_file() and path.name != "manifest.json"
    ]
    leaked = [path for path in written if SECRET.encode() in path.read_bytes()]
    assert leaked == [] and SECRET not in out + err


def _asked_openai_at(url: str) -> Callable[[dict[str, Any]], None]:
    """An edit making the run one of a model at an OpenAI-compatible server at ``url``."""

    def edit(manifest: dict[str, Any]) -> None:
        manifest.update(dry_run=False, run_label=None, model_requested="local-model")
        manifest["provider"] = {"provider": "openai", "base_url": url}
        manifest["settings"]["openai_base_url"] = url

    return edit


def test_a_resume_goes_to_no_server_an_edited_manifest_names_that_is_none(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # --resume takes the run's base URL from its manifest: one that is no http(s) server's
    # is refused, naming the manifest, before any provider is built.
    output = tmp_path / "results"
    run = _dry_run(capsys, output)
    _edit_manifest(run, _asked_openai_at("file:///etc/passwd"))
    code, _, err = _run(capsys, "verify", "--resume", run.name, "--output", str(output))
    assert code == 2
    assert "no server's URL" in err and f"{run.name}'s manifest.json" in err


def test_a_resume_says_no_credentials_of_an_edited_manifest_url(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # The server named (nothing listens on port 9) is asked without what the URL carried,
    # and no message shows it.
    output = tmp_path / "results"
    run = _dry_run(capsys, output)
    _edit_manifest(run, _asked_openai_at(f"http://user:{SECRET}@127.0.0.1:9/v1?key={SECRET}"))
    code, out, err = _run(capsys, "verify", "--resume", run.name, "--output", str(output))
    assert code == 2
    assert "http://127.0.0.1:9/v1" in err and SECRET not in out + err


def test_a_resume_sends_no_key_to_a_server_off_this_machine_that_a_manifest_names(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A manifest is a file anyone may have edited (a downloaded CI artifact): the server it
    # names is taken only where a key sent there stays on this machine; another must be
    # the user's own setting, which the refusal spells out.
    monkeypatch.delenv("VERIFY_OPENAI_BASE_URL", raising=False)
    output = tmp_path / "results"
    run = _dry_run(capsys, output)
    _edit_manifest(run, _asked_openai_at("https://collector.example/v1"))
    code, _, err = _run(capsys, "verify", "--resume", run.name, "--output", str(output))
    assert code == 2
    assert "a server read from a file is not sent your API key" in err
    assert "set VERIFY_OPENAI_BASE_URL=https://collector.example/v1" in err


def test_the_resume_command_states_a_server_off_this_machine(tmp_path: Path) -> None:
    from verification.config import load_settings
    from verification.run.resuming import resume_command

    settings = load_settings(
        provider="openai", openai_base_url="https://api.example.com/v1", results_dir=tmp_path
    )
    said = resume_command("RUN", settings, prog="verify-scaffolds", model="m")
    assert said.startswith("VERIFY_OPENAI_BASE_URL=https://api.example.com/v1 verify-scaffolds")
    # A URL with credentials is left to the user's variable: shown without them, it would
    # override it and be refused (401), and they are never shown (a helper's hunt).
    secret = load_settings(
        provider="openai",
        openai_base_url=f"https://user:{SECRET}@api.example.com/v1",
        results_dir=tmp_path,
    )
    said = resume_command("RUN", secret, prog="verify-scaffolds", model="m")
    assert said.startswith("verify-scaffolds verify --resume RUN") and SECRET not in said
    local = load_settings(provider="openai", results_dir=tmp_path)  # 127.0.0.1: from the run
    assert resume_command("RUN", local, prog="v", model="m").startswith("v verify --resume")
