"""The run configuration: the settings resolved once, frozen, showing no secret."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from verification.config import RunConfig, load_settings, resolve_settings
from verification.runner import VerificationRunner

KEY = "sk-ant-run-config-secret"
OPENAI_KEY = "sk-openai-run-config-secret"
SEED = "0123456789abcdef-cert-seed"
PASSWORD = "url-pass-word"


@pytest.fixture
def secret_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> RunConfig:
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    return resolve_settings(
        load_settings(
            current_mode="cert",
            level="quick",
            cert_seed=SEED,
            openai_api_key=OPENAI_KEY,
            anthropic_base_url=f"https://user:{PASSWORD}@models.example/v1",
            provider="reference",
            results_dir=tmp_path,
            cases=1,
        )
    )


def test_the_run_configuration_carries_every_setting_unchanged() -> None:
    settings = load_settings(cases=7, sizes=[8, 4], model=["a-model", "b-model"])
    config = resolve_settings(settings)
    assert config.public_dump() == settings.public_dump()
    assert (config.model_names, config.case_seed, config.sizes) == (
        ["a-model", "b-model"],
        settings.case_seed,
        [4, 8],
    )
    assert resolve_settings(config) is config
    assert config.for_model("b-model").model_names == ["b-model"]
    assert isinstance(config.for_model("b-model"), RunConfig)


def test_the_run_configuration_is_frozen(secret_config: RunConfig) -> None:
    with pytest.raises(ValidationError, match="frozen"):
        secret_config.provider = "anthropic"  # type: ignore[misc]
    assert secret_config.provider == "reference"


def test_the_run_configuration_shows_no_secret(secret_config: RunConfig) -> None:
    provider = secret_config.provider_config
    shown = [
        repr(secret_config),
        str(secret_config),
        json.dumps(secret_config.public_dump()),
        repr(provider),
        str(provider),
    ]
    for secret in (KEY, OPENAI_KEY, SEED, PASSWORD):
        assert not any(secret in text for text in shown), secret
    # Kept as secrets, to be unwrapped where a provider is built.
    assert secret_config.anthropic_api_key is not None
    assert secret_config.anthropic_api_key.get_secret_value() == KEY
    assert provider.anthropic_api_key == secret_config.anthropic_api_key


def test_a_run_writes_no_secret_of_its_configuration(secret_config: RunConfig) -> None:
    result = asyncio.run(VerificationRunner(secret_config).run(["kmp"]))
    assert result.results["kmp"].n == 1
    written = [path for path in secret_config.results_dir.rglob("*") if path.is_file()]
    assert any(path.name == "manifest.json" for path in written)
    for path in written:
        text = path.read_text(encoding="utf-8", errors="replace")
        assert not any(secret in text for secret in (KEY, OPENAI_KEY, SEED, PASSWORD)), path
