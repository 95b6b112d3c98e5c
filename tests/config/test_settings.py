"""Settings from the environment, with clear errors and no leaked secrets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verification.config import LEVEL_CASES, load_settings, secrets_of
from verification.errors import ConfigurationError


def test_defaults_are_sensible() -> None:
    settings = load_settings()
    assert settings.cases >= 30
    assert settings.temperature is None
    assert settings.provider == "anthropic"
    assert settings.model_name == settings.dev_model


@pytest.mark.parametrize("variable", ["ANTHROPIC_API_KEY", "VERIFY_ANTHROPIC_API_KEY"])
def test_key_from_either_variable_is_a_secret(
    monkeypatch: pytest.MonkeyPatch, variable: str
) -> None:
    monkeypatch.setenv(variable, "sk-ant-test-secret")
    settings = load_settings()
    assert settings.anthropic_api_key is not None
    assert settings.anthropic_api_key.get_secret_value() == "sk-ant-test-secret"
    assert "sk-ant-test-secret" not in repr(settings)
    assert "sk-ant-test-secret" not in str(settings.public_dump())


def test_prefixed_key_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "plain")
    monkeypatch.setenv("VERIFY_ANTHROPIC_API_KEY", "prefixed")
    key = load_settings().anthropic_api_key
    assert key is not None and key.get_secret_value() == "prefixed"


def test_mode_chooses_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFY_CURRENT_MODE", "cert")
    monkeypatch.setenv("VERIFY_CERT_MODEL", "model-of-record")
    assert load_settings().model_name == "model-of-record"
    assert load_settings(model="explicit").model_name == "explicit"


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("VERIFY_CASES", "0"),
        ("VERIFY_TEMPERATURE", "hot"),
        ("VERIFY_CURRENT_MODE", "prod"),
        ("VERIFY_PROVIDER", "not a name"),
        ("VERIFY_CONCURRENCY", "-1"),
    ],
)
def test_a_bad_value_names_its_variable(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigurationError, match=variable):
        load_settings()


def test_a_bad_option_names_the_option() -> None:
    with pytest.raises(ConfigurationError, match="--cases"):
        load_settings(cases=0)


def test_temperature_may_be_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFY_TEMPERATURE", "0.0")
    assert load_settings().temperature == 0.0


def test_a_misspelt_variable_is_named_with_a_suggestion(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("VERIFY_CASE", "5")
    assert load_settings().cases == LEVEL_CASES["standard"]
    assert "VERIFY_CASE is not a setting and is ignored; did you mean VERIFY_CASES?" in caplog.text


def test_an_option_s_name_as_a_variable_is_told_its_setting_s(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Hunt ii: VERIFY_MODE (after --mode) was answered "did you mean VERIFY_MODEL?", which
    would ask for a model named "cert"."""
    monkeypatch.setenv("VERIFY_MODE", "cert")
    assert load_settings().current_mode == "dev"
    assert "VERIFY_MODE is not a setting and is ignored; did you mean VERIFY_CURRENT_MODE?" in (
        caplog.text
    )


def test_another_tools_variable_is_no_concern_of_ours(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("VERIFY_SSL", "0")
    assert load_settings().cases == LEVEL_CASES["standard"]
    assert "VERIFY_SSL" not in caplog.text


def test_a_dotenv_file_in_the_working_directory_is_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / ".env").write_text("VERIFY_CASES=12\nVERIFY_SEED=5\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("VERIFY_SEED", "9")  # the environment wins over the file
    settings = load_settings()
    assert (settings.cases, settings.seed) == (12, 9)


@pytest.mark.parametrize("where", ["environment", ".env"])
def test_an_internal_field_is_read_from_no_variable(
    where: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Before: VERIFY_CASES_FIXED=true made the default plan a fixed one of 180 cases.
    monkeypatch.chdir(tmp_path)
    if where == ".env":
        (tmp_path / ".env").write_text("VERIFY_CASES_FIXED=true\n", encoding="utf-8")
    else:
        monkeypatch.setenv("VERIFY_CASES_FIXED", "true")
    settings = load_settings()
    assert not settings.cases_fixed
    assert settings.certification_plan.name == "standard"
    monkeypatch.setenv("VERIFY_CASES", "30")  # cases given: a fixed plan, as ever
    assert load_settings().certification_plan.name == "fixed 30"


def test_an_unknown_provider_is_refused_before_any_request(monkeypatch: pytest.MonkeyPatch) -> None:
    from verification.llm.providers import PROVIDERS, build_provider

    monkeypatch.setenv("VERIFY_PROVIDER", "gpt")
    with pytest.raises(ConfigurationError, match="VERIFY_PROVIDER") as caught:
        build_provider(load_settings().provider_config)
    assert all(name in str(caught.value) for name in PROVIDERS)


@pytest.mark.parametrize(
    ("mode", "level", "expected_level"),
    [("dev", None, "standard"), ("cert", None, "thorough"), ("cert", "quick", "quick")],
)
def test_the_mode_picks_the_default_level_and_the_level_the_case_count(
    mode: str, level: str | None, expected_level: str
) -> None:
    settings = load_settings(current_mode=mode, level=level)
    assert settings.level == expected_level
    assert settings.cases == LEVEL_CASES[settings.level]
    assert load_settings(current_mode=mode, level=level, cases=7).cases == 7


def test_sizes_read_as_a_comma_list_or_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFY_SIZES", "12,4,8,4")
    assert load_settings().sizes == [4, 8, 12]
    monkeypatch.setenv("VERIFY_SIZES", "[6]")
    assert load_settings().sizes == [6]
    monkeypatch.setenv("VERIFY_SIZES", "9")  # one size, as --sizes 9 takes it
    assert load_settings().sizes == [9]
    monkeypatch.setenv("VERIFY_SIZES", "true")
    with pytest.raises(ConfigurationError, match="VERIFY_SIZES"):
        load_settings()
    monkeypatch.setenv("VERIFY_SIZES", "-3")
    with pytest.raises(ConfigurationError, match="VERIFY_SIZES"):
        load_settings()


def test_the_cert_seed_is_a_secret_of_sixteen_characters_or_more() -> None:
    secret = "0123456789abcdef-cert"
    settings = load_settings(current_mode="cert", cert_seed=secret)
    assert settings.private_seed and settings.case_seed != settings.seed
    assert secret not in json.dumps(settings.public_dump()) and secret not in repr(settings)
    assert secret in secrets_of(settings)  # redacted from logs like the keys
    assert not load_settings(cert_seed=secret).private_seed  # dev runs use the public seed
    with pytest.raises(ConfigurationError) as caught:
        load_settings(cert_seed="s3cr3t-v4lue")
    assert "s3cr3t-v4lue" not in str(caught.value) and "<hidden>" in str(caught.value)


def test_every_setting_has_a_row_in_the_guide_s_settings_table() -> None:
    import re

    from verification.config.settings import INTERNAL_FIELDS, VerificationSettings

    guide = (Path(__file__).parents[2] / "docs" / "VERIFICATION.md").read_text(encoding="utf-8")
    section = guide.split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `VERIFY_")]
    named = {name for row in rows for name in re.findall(r"`(VERIFY_[A-Z_]+)`", row)}
    settings = {f"VERIFY_{f.upper()}" for f in VerificationSettings.model_fields}
    internal = {f"VERIFY_{f.upper()}" for f in INTERNAL_FIELDS}
    assert sorted(settings - internal - named) == [], "settings with no row in the table"
    assert sorted(named & internal) == [], "internal fields are read from no variable"
    assert sorted(named - settings) == [], "rows naming no setting"


def test_a_settings_file_line_that_is_no_setting_is_refused_by_its_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hunt ii: python-dotenv dropped such a line (``VERIFY_SAMPLES="2``: its value lost, the
    run made with one sample) with a warning, twice, naming neither file nor line. Only the
    numbers are said: a line that does not parse may hold a key's value."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text(
        'VERIFY_CASES=3\nVERIFY_LEVEL\n=bad\nANTHROPIC_API_KEY="sk-ant-SECRET\nVERIFY_CASES=4\n',
        encoding="utf-8",
    )
    with pytest.raises(
        ConfigurationError, match=r"has 2 line\(s\) that are no KEY=VALUE"
    ) as raised:
        load_settings()
    said = str(raised.value)
    assert str(tmp_path / ".env") in said and "line 3, 4" in said and "SECRET" not in said


def test_a_number_setting_that_is_not_a_number_is_told_so() -> None:
    """Hunt ii: ``--temperature nan`` read "Input should be less than or equal to 2"."""
    with pytest.raises(ConfigurationError, match="--temperature: Input should be a finite number"):
        load_settings(temperature=float("nan"))
