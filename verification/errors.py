"""The one exception tree of the harness.

::

    VerificationError                 any error the harness raises on purpose
    ├── ConfigurationError            a bad setting, option or missing prerequisite (exit 2)
    │   └── UnknownScaffoldError      a scaffold name that no spec declares
    ├── ScaffoldFileError             a scaffold Markdown file is missing or malformed
    ├── RegistryError                 two specs clash, or a spec is malformed
    │   └── CaseDrawError             a spec's generator cannot draw a case it declares
    ├── PluginError                   a plugin's scaffold code failed or broke its contract
    ├── ParseError                    no valid answer in a model response
    ├── JournalError                  a run directory or journal cannot be read or written
    │   ├── RunInUseError             another process owns the run directory
    │   └── StoredFileError           a file read back is damaged, too big or not a file
    ├── CacheError                    the response cache file cannot be read
    └── LLMError                      a model call failed
        ├── RetryableLLMError         worth another try
        │   ├── RateLimitError        429: honour ``retry_after``
        │   └── TransientLLMError     529, other 5xx, timeouts, dropped connections
        └── FatalLLMError             stops the whole run at once
            ├── AuthenticationError   401/403: the key is missing, wrong or not allowed
            └── InvalidRequestError   400/404/413/422: the request itself is wrong

A wrong answer is never an exception: it is a failing ``ValidationResult``. Messages never
hold secrets; provider errors are translated in one place per provider (``raise ... from``).
"""

from __future__ import annotations

__all__ = [
    "AuthenticationError",
    "CacheError",
    "CaseDrawError",
    "ConfigurationError",
    "FatalLLMError",
    "InvalidRequestError",
    "JournalError",
    "LLMError",
    "ParseError",
    "PluginError",
    "RateLimitError",
    "RegistryError",
    "RetryableLLMError",
    "RunInUseError",
    "ScaffoldFileError",
    "StoredFileError",
    "TransientLLMError",
    "UnknownScaffoldError",
    "VerificationError",
]


class VerificationError(Exception):
    """Any error the harness raises on purpose."""


class ConfigurationError(VerificationError):
    """A bad setting, option or missing prerequisite; the message names the fix."""


class UnknownScaffoldError(ConfigurationError):
    """A scaffold name that no spec declares."""

    def __init__(self, name: str, *, close_matches: list[str], known: list[str]) -> None:
        hint = (
            f" Did you mean: {', '.join(close_matches)}?"
            if close_matches
            else f" Known scaffolds: {', '.join(known)}."
        )
        super().__init__(f"unknown scaffold {name!r}.{hint}")
        self.name = name
        self.close_matches = close_matches


class ScaffoldFileError(VerificationError):
    """A scaffold Markdown file is missing or malformed."""


class RegistryError(VerificationError):
    """Two specs clash, or a spec is malformed."""


class PluginError(VerificationError):
    """A plugin's scaffold raised, or returned what its spec's contract forbids; the
    message names the distribution and the scaffold."""

    def __init__(self, message: str, *, distribution: str, scaffold: str) -> None:
        super().__init__(f"plugin {distribution}, scaffold {scaffold!r}: {message}")
        self.problem = message
        """What went wrong, without the plugin's and scaffold's names."""
        self.distribution = distribution
        self.scaffold = scaffold


class CaseDrawError(RegistryError):
    """A spec's generator (or its reference, on the input drawn) fails for a case inside
    the spec's declared size range: the spec's defect, named by scaffold, tier, size and
    index."""

    def __init__(self, message: str, *, scaffold: str, tier: str, size: int, index: int) -> None:
        super().__init__(message)
        self.scaffold = scaffold
        self.tier = tier
        self.size = size
        self.index = index


class ParseError(VerificationError):
    """No valid answer could be taken from a model response."""

    def __init__(self, message: str, *, level: int) -> None:
        super().__init__(message)
        self.level = level


class JournalError(VerificationError):
    """A run directory or its journal cannot be read."""


class RunInUseError(JournalError):
    """Another live process holds the run directory's lock (a killed one holds nothing)."""


class StoredFileError(JournalError):
    """A file the harness wrote earlier (manifest, summary, journal) is damaged, too big, too
    deeply nested or not a regular file; the message names it."""


class CacheError(VerificationError):
    """The response cache file cannot be read (a run then goes on without it)."""


class LLMError(VerificationError):
    """A model call failed."""

    def __init__(self, message: str, *, status_code: int | None = None) -> None:
        super().__init__(message)
        self.status_code = status_code


class RetryableLLMError(LLMError):
    """A model call failed in a way worth another try."""

    def __init__(
        self, message: str, *, status_code: int | None = None, retry_after: float | None = None
    ) -> None:
        super().__init__(message, status_code=status_code)
        self.retry_after = retry_after


class RateLimitError(RetryableLLMError):
    """The provider asked us to slow down (HTTP 429)."""


class TransientLLMError(RetryableLLMError):
    """Overloaded (529), another 5xx, a timeout or a dropped connection."""


class FatalLLMError(LLMError):
    """A failure no retry can mend; the run stops at once."""


class AuthenticationError(FatalLLMError):
    """The API key is missing, wrong or not allowed (HTTP 401/403)."""


class InvalidRequestError(FatalLLMError):
    """The request itself is wrong (HTTP 400, 404, 413, 422)."""
