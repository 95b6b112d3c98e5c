"""Who ``--rerun-failed RUN_ID`` asks when the command does not say
(``verification/cli/rerun_options.py``): the run's provider, model and server, each only
where neither an option nor the environment names one, and a server read from a manifest
only on this machine."""

from __future__ import annotations

import shlex
from types import SimpleNamespace
from typing import Any

import pytest

from verification.cli.rerun_options import settings_of_rerun
from verification.errors import ConfigurationError


def _run(provider: str = "openai", url: str | None = "http://127.0.0.1:11434/v1") -> Any:
    return SimpleNamespace(
        run_id="20261128T000000Z-abcdef",
        provider={"provider": provider, "base_url": url},
        settings={"openai_base_url": url} if provider == "openai" else {},
        dry_run=provider == "reference",
        model_requested="qwen3:8b",
    )


def _today(provider: str = "anthropic", *named: str) -> Any:
    return SimpleNamespace(provider=provider, model_fields_set=set(named))


def test_the_run_s_provider_model_and_server_fill_what_nothing_names(
    capsys: pytest.CaptureFixture[str],
) -> None:
    merged = settings_of_rerun(_run(), {"provider": None, "model": None}, _today())
    assert merged == {
        "provider": "openai",
        "model": ["qwen3:8b"],
        "openai_base_url": "http://127.0.0.1:11434/v1",
        # Hunt w: the cache holds the answers that failed, and gave them back for $0.
        "cache": False,
    }
    err = capsys.readouterr().err
    assert "asked at its server, http://127.0.0.1:11434/v1" in err
    assert "not read from the response cache" in err


def test_a_model_named_today_holds_and_the_run_s_server_is_still_asked() -> None:
    merged = settings_of_rerun(_run(), {"provider": None, "model": ["llama3.2"]}, _today())
    assert merged["model"] == ["llama3.2"] and merged["provider"] == "openai"
    assert merged["openai_base_url"] == "http://127.0.0.1:11434/v1"
    assert "cache" not in merged, "another model's cached answers are its own"


def test_the_cache_named_today_holds_for_the_run_s_own_model() -> None:
    merged = settings_of_rerun(_run(), {"provider": None, "model": None}, _today("x", "cache"))
    assert "cache" not in merged


def test_a_model_named_for_a_dry_run_s_failures_asks_the_default_provider() -> None:
    # Hunt w: the README's `--rerun-failed RUN_ID --model claude-sonnet-4-5` of a dry run
    # became a dry run again, the model ignored.
    given = {"provider": None, "model": ["claude-sonnet-4-5"]}
    assert settings_of_rerun(_run("reference", None), given, _today()) == given


@pytest.mark.parametrize(
    ("given", "today"),
    [
        ({"provider": "anthropic", "model": None}, _today()),  # the option
        ({"provider": None, "model": None}, _today("anthropic", "provider")),  # the variable
    ],
)
def test_another_provider_named_today_takes_none_of_the_run_s(
    given: dict[str, Any], today: Any
) -> None:
    merged = settings_of_rerun(_run(), given, today)
    assert merged.get("provider") in (None, "anthropic") and merged["model"] is None
    assert "openai_base_url" not in merged


def test_a_server_named_today_holds() -> None:
    today = _today("openai", "provider", "openai_base_url")
    merged = settings_of_rerun(_run(), {"provider": None, "model": None}, today)
    assert "openai_base_url" not in merged and merged["model"] == ["qwen3:8b"]


def test_another_machine_s_server_read_from_a_manifest_is_not_asked() -> None:
    run = _run(url="https://models.example.org/v1")
    with pytest.raises(ConfigurationError, match="VERIFY_OPENAI_BASE_URL=https://models"):
        settings_of_rerun(run, {"provider": None, "model": None}, _today())


def test_the_server_an_edited_manifest_names_is_quoted_for_the_shell() -> None:
    # Hunt w: pasted as printed, an edited manifest's URL ran its $(...) in the shell.
    run = _run(url="https://evil.example.org/v1$(touch${IFS}pwned)")
    with pytest.raises(ConfigurationError) as refused:
        settings_of_rerun(run, {"provider": None, "model": None}, _today())
    said = str(refused.value).split("VERIFY_OPENAI_BASE_URL=", 1)[1].split(" to ask", 1)[0]
    assert said == shlex.quote("https://evil.example.org/v1$(touch${IFS}pwned)")


def test_a_dry_run_s_failures_name_no_model() -> None:
    merged = settings_of_rerun(_run("reference", None), {"provider": None, "model": None}, _today())
    assert merged == {"provider": "reference", "model": None}


def test_an_unknown_provider_in_an_edited_manifest_is_said_to_be_the_manifest_s() -> None:
    # Hunt w: it was blamed on --provider or VERIFY_PROVIDER, which nobody had given.
    with pytest.raises(ConfigurationError, match="its manifest names provider 'bogus'"):
        settings_of_rerun(_run("bogus"), {"provider": None, "model": None}, _today())
    # A provider named today holds, whatever the manifest says.
    given = {"provider": "reference", "model": None}
    assert settings_of_rerun(_run("bogus"), given, _today())["provider"] == "reference"
