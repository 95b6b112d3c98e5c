"""``--sandbox`` (``VERIFY_SANDBOX``) names the engine code mode runs programs in: it reaches
the code answer kind through the run's configuration, and an engine that cannot work here is
refused when the kind is made, before any request."""

from __future__ import annotations

import pytest

from verification.catalog import default_catalog
from verification.cli import build_parser
from verification.cli.entry import settings_from_arguments
from verification.config import resolve_settings
from verification.config.settings import load_settings
from verification.errors import SandboxUnavailableError
from verification.llm.prompt_builder import PromptBuilder
from verification.run.sandbox import engines as engines_module
from verification.run.sandbox.engines import available_engine
from verification.run.strategies import ANSWER_KINDS


@pytest.mark.parametrize("name", ["bubblewrap", "docker"])
def test_the_option_and_the_variable_name_the_sandbox(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = build_parser().parse_args(["verify", "dijkstra", "--answer", "code", "--sandbox", name])
    assert settings_from_arguments(args).sandbox == name
    monkeypatch.setenv("VERIFY_SANDBOX", name)
    assert resolve_settings(load_settings()).sandbox == name


def test_an_unknown_sandbox_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args(["verify", "dijkstra", "--sandbox", "none"])
    assert exited.value.code == 2
    assert "bubblewrap" in capsys.readouterr().err


def test_the_named_engine_is_the_one_the_code_kind_asks_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[str] = []

    def refuse(name: str) -> type[engines_module.Engine]:
        class Refused(engines_module.BubblewrapEngine):
            def __init__(self) -> None:
                asked.append(name)
                raise SandboxUnavailableError(f"{name} cannot work here")

        return Refused

    monkeypatch.setattr(engines_module, "ENGINES", {n: refuse(n) for n in engines_module.ENGINES})
    available_engine.cache_clear()
    config = resolve_settings(load_settings(answer="code", sandbox="docker"))
    builder = PromptBuilder(config.scaffolds_dir)
    try:
        with pytest.raises(SandboxUnavailableError, match="docker cannot work here"):
            ANSWER_KINDS["code"](builder, default_catalog(), config)
    finally:
        available_engine.cache_clear()
    assert asked == ["docker"]
