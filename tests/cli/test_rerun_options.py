"""Who ``--rerun-failed RUN_ID`` asks when the command does not say
(``verification/cli/rerun_options.py``): the run's provider, model and server, each only
where neither an option nor the environment names one, and a server read from a manifest
only on this machine."""

from __future__ import annotations

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


def test_the_run_s_provider_model_and_server_fill_what_nothing_names() -> None:
    merged = settings_of_rerun(_run(), {"provider": None, "model": None}, _today())
    assert merged == {
        "provider": "openai",
        "model": ["qwen3:8b"],
        "openai_base_url": "http://127.0.0.1:11434/v1",
    }


def test_a_model_named_today_holds_and_the_run_s_server_is_still_asked() -> None:
    merged = settings_of_rerun(_run(), {"provider": None, "model": ["llama3.2"]}, _today())
    assert merged["model"] == ["llama3.2"] and merged["provider"] == "openai"
    assert merged["openai_base_url"] == "http://127.0.0.1:11434/v1"


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


def test_a_dry_run_s_failures_name_no_model() -> None:
    merged = settings_of_rerun(_run("reference", None), {"provider": None, "model": None}, _today())
    assert merged == {"provider": "reference", "model": None}
