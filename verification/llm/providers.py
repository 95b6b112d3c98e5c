"""Building the configured provider, or stopping with a message that names the fix.

No provider is ever chosen silently: ``--provider`` (or ``VERIFY_PROVIDER``) says which, and
a missing prerequisite is a :class:`~verification.errors.ConfigurationError`.
"""

from __future__ import annotations

from collections.abc import Mapping

from verification.config import VerificationSettings
from verification.errors import ConfigurationError
from verification.llm.base import LLMProvider
from verification.llm.retry import RetryPolicy

__all__ = ["build_provider", "retry_policy_from"]

NO_KEY_MESSAGE = (
    "no Anthropic API key: set ANTHROPIC_API_KEY (or VERIFY_ANTHROPIC_API_KEY), "
    "or run offline with --provider reference (a dry run that certifies no model)"
)


def retry_policy_from(settings: VerificationSettings) -> RetryPolicy:
    """The retry policy the settings ask for."""
    return RetryPolicy(
        max_retries=settings.max_retries,
        initial_wait=settings.retry_initial_wait,
        max_wait=settings.retry_max_wait,
    )


def build_provider(
    settings: VerificationSettings, *, reference_answers: Mapping[str, str]
) -> LLMProvider:
    """The provider ``settings.provider`` names; ``reference_answers`` (case id -> answer
    text) feeds the dry run."""
    policy = retry_policy_from(settings)
    if settings.provider == "reference":
        from verification.llm.dry_run import ReferenceProvider

        return ReferenceProvider(reference_answers, retry_policy=policy)
    if settings.provider == "replay":
        from verification.llm.dry_run import ReplayProvider

        if settings.replay_file is None:
            raise ConfigurationError(
                "--provider replay needs --replay-file PATH (or VERIFY_REPLAY_FILE): a JSONL "
                "file of responses by case_id, such as a run's results.jsonl"
            )
        return ReplayProvider(settings.replay_file, retry_policy=policy)
    if settings.provider == "openai":
        from verification.llm.openai_compat import OpenAICompatibleProvider

        key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
        return OpenAICompatibleProvider(
            base_url=settings.openai_base_url,
            api_key=key,
            timeout=settings.request_timeout,
            retry_policy=policy,
        )
    if settings.anthropic_api_key is None or not settings.anthropic_api_key.get_secret_value():
        raise ConfigurationError(NO_KEY_MESSAGE)
    key = settings.anthropic_api_key.get_secret_value()
    if key != key.strip() or any(c.isspace() or not c.isprintable() for c in key):
        raise ConfigurationError(
            "the Anthropic API key holds spaces, line breaks or control characters: "
            "check ANTHROPIC_API_KEY (or VERIFY_ANTHROPIC_API_KEY)"
        )
    from verification.llm.claude import ClaudeProvider

    return ClaudeProvider(
        settings.anthropic_api_key.get_secret_value(),
        base_url=settings.anthropic_base_url,
        timeout=settings.request_timeout,
        retry_policy=policy,
    )
