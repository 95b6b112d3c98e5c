"""Settings built from the same inputs are built once per process: the same settings, each
caller its own copy, and built anew whenever anything they are read from changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic_settings import (
    BaseSettings,
    DotEnvSettingsSource,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from verification.config import settings as module
from verification.config.settings import VerificationSettings, load_settings
from verification.errors import ConfigurationError


@pytest.fixture(autouse=True)
def _empty_memo() -> None:
    with module._memo_lock:
        module._memo.clear()
        module._found.clear()


class _AsPydanticSettingsBuildsIt(VerificationSettings):
    """The settings with pydantic-settings' own sources, nothing kept or left out."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return init_settings, env_settings, dotenv_settings, file_secret_settings


def _fresh(**given: Any) -> dict[str, Any]:
    """What the settings are with nothing kept: built by pydantic-settings itself."""
    env_file = module.ENV_FILE if Path(module.ENV_FILE).is_file() else None
    return _AsPydanticSettingsBuildsIt(_env_file=env_file, **given).model_dump()  # type: ignore[call-arg]


def test_the_same_inputs_build_once_and_give_each_caller_its_own_copy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[object] = []

    class Counted(VerificationSettings):
        def __init__(self, **values: Any) -> None:
            built.append(values)
            super().__init__(**values)

    monkeypatch.setattr(module, "VerificationSettings", Counted)
    given: dict[str, Any] = {
        "provider": "reference",
        "cases": 3,
        "sizes": [4, 8],
        "results_dir": "out",
    }
    first, second, third = (load_settings(**given) for _ in range(3))
    assert len(built) == 1
    assert first == second == third
    assert first.model_dump() == _fresh(**given)
    assert first is not second and first.sizes is not second.sizes
    assert first.sizes is not None
    first.sizes.append(99)  # a caller's copy is its own: the next caller never sees it
    assert load_settings(**given).sizes == [4, 8]
    load_settings(**{**given, "cases": 4})
    load_settings(**{**given, "cases": 3.0})  # equal to 3, yet another option given
    assert len(built) == 3


@pytest.mark.parametrize(
    ("variable", "value", "field", "expected"),
    [
        ("VERIFY_SEED", "7", "seed", 7),
        ("verify_seed", "8", "seed", 8),
        ("VERIFY_CASES", "9", "cases", 9),
        ("VERIFY_PROVIDER", "replay", "provider", "replay"),
        ("ANTHROPIC_BASE_URL", "http://127.0.0.1:9/", "anthropic_base_url", "http://127.0.0.1:9/"),
        ("XDG_CACHE_HOME", "/elsewhere", "cache_dir", None),
    ],
)
def test_a_changed_variable_is_read_again(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, field: str, expected: object
) -> None:
    monkeypatch.delenv("VERIFY_CACHE_DIR")  # the default then reads XDG_CACHE_HOME
    before = load_settings(samples=2)
    monkeypatch.setenv(variable, value)
    after = load_settings(samples=2)
    assert after.model_dump() == _fresh(samples=2)
    assert getattr(after, field) != getattr(before, field)
    if expected is not None:
        assert getattr(after, field) == expected


def test_every_variable_a_field_is_read_from_is_in_the_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    names = {f"VERIFY_{name.upper()}" for name in VerificationSettings.model_fields}
    names |= module._alias_names()
    assert {"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"} <= names
    base = module._memo_key({}, None)
    for name in sorted(names):
        for spelt in (name, name.lower()):
            with monkeypatch.context() as patch:
                patch.setenv(spelt, "x")
                assert module._memo_key({}, None) != base, spelt
    with monkeypatch.context() as patch:  # another tool's variable: the same settings
        patch.setenv("SOMETHING_ELSE", "x")
        assert module._memo_key({}, None) == base
    # unless the .env file may interpolate it
    with_dollar = module._memo_key({}, "VERIFY_SEED=${SOMETHING_ELSE}")
    monkeypatch.setenv("SOMETHING_ELSE", "5")
    assert module._memo_key({}, "VERIFY_SEED=${SOMETHING_ELSE}") != with_dollar


def test_a_changed_dotenv_file_is_read_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    assert load_settings().seed == _fresh()["seed"]
    for seed in (11, 12, 11):
        (tmp_path / ".env").write_text(f"VERIFY_SEED={seed}\n", encoding="utf-8")
        assert load_settings().seed == seed == _fresh()["seed"]
    (tmp_path / ".env").write_text("VERIFY_SEED=${THE_SEED}\n", encoding="utf-8")
    for text in ("21", "22"):
        monkeypatch.setenv("THE_SEED", text)
        assert load_settings().seed == int(text) == _fresh()["seed"]
    (tmp_path / ".env").unlink()
    assert load_settings().model_dump() == _fresh()


def test_a_bad_setting_is_refused_every_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFY_SAMPLES", "0")
    for _ in range(2):
        with pytest.raises(ConfigurationError, match="VERIFY_SAMPLES"):
            load_settings()
    assert not module._memo


def test_values_that_are_no_plain_data_are_built_each_time() -> None:
    class Odd(str):
        pass

    assert module._memo_key({"provider": Odd("reference")}, None) is None
    assert module._memo_key({"sizes": [4, {"x": 1}]}, None) is None
    assert load_settings(provider=Odd("reference")).model_dump() == _fresh(provider="reference")
    assert not module._memo


def test_with_no_dotenv_file_its_source_is_not_asked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # What it would give: nothing (so leaving it out changes no setting).
    assert DotEnvSettingsSource(VerificationSettings, env_file=None)() == {}
    asked: list[object] = []
    real = DotEnvSettingsSource.__call__

    def counted(self: DotEnvSettingsSource) -> dict[str, Any]:
        if self.settings_cls is VerificationSettings:  # not the oracle's own build
            asked.append(self)
        return real(self)

    monkeypatch.setattr(DotEnvSettingsSource, "__call__", counted)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("VERIFY_SEED", "3")
    assert load_settings(samples=2).model_dump() == _fresh(samples=2)
    assert load_settings(samples=2).seed == 3
    assert asked == []
    (tmp_path / ".env").write_text("VERIFY_SEED=4\nVERIFY_CASES=6\n", encoding="utf-8")
    read = load_settings(samples=2)
    assert len(asked) == 1 and (read.seed, read.cases) == (3, 6)  # the environment wins


def test_the_environment_is_read_once_for_calls_with_other_options(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read: list[object] = []
    real = EnvSettingsSource.__call__

    def counted(self: EnvSettingsSource) -> dict[str, Any]:
        if type(self) is EnvSettingsSource:  # not the .env source's walk
            read.append(self)
        return real(self)

    monkeypatch.setattr(EnvSettingsSource, "__call__", counted)
    monkeypatch.setenv("VERIFY_PRICES", '{"m": {"input": 1.0, "output": 2.0}}')
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9/")
    for results in ("one", "two", "three"):
        built = load_settings(results_dir=results, samples=2)
        assert built.model_dump() == _fresh(results_dir=results, samples=2)
    assert len(read) == 1 + 3  # once kept, then once by each fresh build above
    built.prices.clear()  # a caller's copy is its own
    assert load_settings(results_dir="four").prices
    for variable, value in (("VERIFY_SEED", "8"), ("verify_seed", "9"), ("ANTHROPIC_API_KEY", "k")):
        monkeypatch.setenv(variable, value)
        assert load_settings(results_dir="five").model_dump() == _fresh(results_dir="five")
    assert load_settings(results_dir="five").seed == 9


def test_a_subclass_reading_other_variables_reads_them_each_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Elsewhere(VerificationSettings):
        model_config = SettingsConfigDict(env_prefix="ELSEWHERE_")

    load_settings()  # what VerificationSettings found is kept
    for seed in ("31", "32"):
        monkeypatch.setenv("ELSEWHERE_SEED", seed)
        assert Elsewhere(_env_file=None).seed == int(seed)  # type: ignore[call-arg]


def test_zero_and_minus_zero_are_two_settings() -> None:
    """``-0.0 == 0.0``, yet the settings differ (a manifest records which was given)."""
    for first, second in ((-0.0, 0.0), (0.0, -0.0)):
        load_settings(temperature=first)
        kept = load_settings(temperature=second).temperature
        assert str(kept) == str(second) == str(_fresh(temperature=second)["temperature"])


@pytest.mark.parametrize(
    ("options", "variable"),
    [({"_env_prefix": "OTHER_"}, "OTHER_SEED"), ({"_case_sensitive": True}, "verify_seed")],
)
def test_a_build_told_to_read_the_environment_otherwise_reads_it_itself(
    monkeypatch: pytest.MonkeyPatch, options: dict[str, Any], variable: str
) -> None:
    """Options given to one build (another prefix, names in their case) read variables
    that the kept findings of the declared source do not hold."""
    monkeypatch.setenv("VERIFY_SEED", "7")
    load_settings()  # the declared source's findings are kept
    monkeypatch.setenv(variable, "9")
    built = VerificationSettings(_env_file=None, **options)  # type: ignore[arg-type]
    assert built.seed == _AsPydanticSettingsBuildsIt(_env_file=None, **options).seed  # type: ignore[arg-type]
