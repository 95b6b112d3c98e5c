"""The providers, registered by name: ``--provider`` choices, settings validation and
building all come from :data:`PROVIDERS`.

No provider is ever chosen silently: ``--provider`` (or ``VERIFY_PROVIDER``) says which, and
a missing prerequisite is a :class:`~verification.errors.ConfigurationError` that names the
fix. Each factory imports its SDK lazily, so naming a provider loads only its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from verification.errors import ConfigurationError, RegistryError

if TYPE_CHECKING:  # none loads when a provider is only named (`list`, `--help`): pydantic
    from pydantic import SecretStr

    from verification.catalog import Catalog
    from verification.llm.base import LLMProvider
    from verification.llm.retry import RetryPolicy

__all__ = [
    "PROVIDERS",
    "ProviderConfig",
    "ProviderEntry",
    "ProviderFactory",
    "build_provider",
    "check_provider_name",
    "checked_key",
    "checked_model",
    "register_provider",
    "retry_policy_from",
]

NO_KEY_MESSAGE = (
    "no Anthropic API key: set ANTHROPIC_API_KEY (or VERIFY_ANTHROPIC_API_KEY); for a "
    "local or OpenAI-compatible server, --provider openai (VERIFY_OPENAI_BASE_URL names "
    "it); or run offline with --provider reference (a dry run that certifies no model)"
)
"""Claude is the default provider, so a user of a local server who left out --provider
meets this first: it names the way there too."""


@dataclass(frozen=True)
class ProviderConfig:
    """What building a provider needs, resolved from the settings by the run's configuration
    (``RunConfig.provider_config``, in the config layer above); the names are the settings'.
    The keys stay ``SecretStr`` and are unwrapped only by the factory that hands them to an
    SDK; the repr shows neither them nor the servers' URLs, which may carry credentials."""

    provider: str
    """Who answers: a name of :data:`PROVIDERS`."""
    model_name: str
    """The model the run asks: the one named, else the mode's."""
    named_model: str | None = None
    """The model asked for by name (``--model``), if any: a local server gets only that."""
    anthropic_api_key: SecretStr | None = None
    anthropic_base_url: str | None = field(default=None, repr=False)
    openai_api_key: SecretStr | None = None
    openai_base_url: str = field(default="http://127.0.0.1:8000/v1", repr=False)
    replay_file: Path | None = None
    request_timeout: float = 300.0
    max_retries: int = 4
    retry_initial_wait: float = 1.0
    retry_max_wait: float = 60.0
    case_budget: float = 1800.0


ProviderFactory = Callable[["ProviderConfig", "Catalog | None", "RetryPolicy"], "LLMProvider"]
"""``factory(config, catalog, retry_policy) -> provider``."""


@dataclass(frozen=True)
class ProviderEntry:
    """A provider as the registry knows it."""

    name: str
    help: str
    """One line for ``--help``."""
    factory: ProviderFactory


PROVIDERS: dict[str, ProviderEntry] = {}
"""Every provider, by name, in registration order."""


def register_provider(name: str, help: str) -> Callable[[ProviderFactory], ProviderFactory]:
    """Register a provider factory under ``name``; a name taken twice is an error."""

    def register(factory: ProviderFactory) -> ProviderFactory:
        if name in PROVIDERS:
            raise RegistryError(f"provider {name!r} is registered twice")
        PROVIDERS[name] = ProviderEntry(name, help, factory)
        return factory

    return register


def check_provider_name(name: str) -> ProviderEntry:
    """The registry's entry for ``name``, or an error that lists the known providers."""
    try:
        return PROVIDERS[name]
    except KeyError:
        known = ", ".join(PROVIDERS)
        raise ConfigurationError(
            f"unknown provider {name!r} (--provider or VERIFY_PROVIDER); known: {known}"
        ) from None


def retry_policy_from(settings: ProviderConfig) -> RetryPolicy:
    """The retry policy the provider's configuration asks for."""
    from verification.llm.retry import RetryPolicy

    return RetryPolicy(
        max_retries=settings.max_retries,
        initial_wait=settings.retry_initial_wait,
        max_wait=settings.retry_max_wait,
        attempt_deadline=settings.request_timeout,
        budget=settings.case_budget,
    )


def checked_key(key: str, variables: str) -> str:
    """``key``, refused when an HTTP header cannot carry it as it is (spaces around it, line
    breaks, control or non-ASCII characters: a key pasted with a smart quote, say); the
    message names ``variables`` and never shows the key."""
    if not key.isascii() or any(c.isspace() or not c.isprintable() for c in key):
        raise ConfigurationError(
            "the API key holds spaces, line breaks, control or non-ASCII characters, which "
            f"an HTTP header cannot carry: check {variables}"
        )
    return key


def checked_model(model: str | None) -> str | None:
    """``model``, refused when no request can carry it: control characters, or bytes that
    are not text (undecodable bytes of a command line arrive as lone surrogates), which
    would fail every request before it is sent. Shown escaped."""
    if model is not None and not all(char.isprintable() for char in model):
        from verification.cases import printable

        raise ConfigurationError(
            f"the model name {printable(model, 100)!r} holds control characters or bytes "
            "that are not text: check --model (or VERIFY_MODEL)"
        )
    return model


def build_provider(settings: ProviderConfig, catalog: Catalog | None = None) -> LLMProvider:
    """The provider ``settings.provider`` names; the dry run answers from ``catalog``."""
    entry = check_provider_name(settings.provider)
    return entry.factory(settings, catalog, retry_policy_from(settings))


@register_provider("anthropic", "Claude through the Messages API (needs ANTHROPIC_API_KEY)")
def _anthropic(
    settings: ProviderConfig, catalog: Catalog | None, policy: RetryPolicy
) -> LLMProvider:
    if settings.anthropic_api_key is None or not settings.anthropic_api_key.get_secret_value():
        raise ConfigurationError(NO_KEY_MESSAGE)
    key = checked_key(
        settings.anthropic_api_key.get_secret_value(),
        "ANTHROPIC_API_KEY (or VERIFY_ANTHROPIC_API_KEY)",
    )
    checked_model(settings.model_name)
    from verification.llm.claude import ClaudeProvider

    return ClaudeProvider(
        key,
        base_url=settings.anthropic_base_url,
        timeout=settings.request_timeout,
        retry_policy=policy,
    )


@register_provider(
    "openai", "an OpenAI-compatible server (vLLM, Ollama, llama.cpp) at VERIFY_OPENAI_BASE_URL"
)
def _openai(settings: ProviderConfig, catalog: Catalog | None, policy: RetryPolicy) -> LLMProvider:
    from verification.llm.openai_compat import OpenAICompatibleProvider

    key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
    if key:
        key = checked_key(key, "VERIFY_OPENAI_API_KEY")
    # Only a model asked for by name goes to a local server: the modes' defaults name
    # Claude models, which it does not serve.
    return OpenAICompatibleProvider(
        base_url=settings.openai_base_url,
        api_key=key,
        timeout=settings.request_timeout,
        retry_policy=policy,
        model=checked_model(settings.named_model),
    )


@register_provider("reference", "offline dry run: each case's reference answer; certifies no model")
def _reference(
    settings: ProviderConfig, catalog: Catalog | None, policy: RetryPolicy
) -> LLMProvider:
    from verification.llm.dry_run import ReferenceProvider

    return ReferenceProvider(catalog, retry_policy=policy)


@register_provider("replay", "answers recorded or scripted in --replay-file (a JSONL file)")
def _replay(settings: ProviderConfig, catalog: Catalog | None, policy: RetryPolicy) -> LLMProvider:
    from verification.llm.dry_run import ReplayProvider

    if settings.replay_file is None:
        raise ConfigurationError(
            "--provider replay needs --replay-file PATH (or VERIFY_REPLAY_FILE): a JSONL "
            "file of responses by case_id, such as a run's results.jsonl"
        )
    return ReplayProvider(settings.replay_file, retry_policy=policy)
