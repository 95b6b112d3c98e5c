"""The one exception tree of the harness; each class carries its exit code.

::

    class                           exit  what it means
    VerificationError                 2   any error the harness raises on purpose
    ├── ConfigurationError            2   a bad setting, option or missing prerequisite
    │   ├── UnknownScaffoldError      2   a scaffold name that no spec declares
    │   └── SandboxUnavailableError   2   no sandbox engine can run programs here
    ├── ScaffoldFileError             2   a scaffold Markdown file is missing or malformed
    ├── RegistryError                 2   two registrations clash, or a spec is malformed
    │   ├── SpecError                 2   a spec breaks a rule of ScaffoldSpec or SizeAxis
    │   └── CaseDrawError             2   a spec's generator cannot draw a case it declares
    ├── PluginError                   2   a plugin's scaffold failed or broke its contract
    ├── ParseError                    2   no valid answer in a model response
    ├── JournalError                  2   a run directory or journal cannot be read or written
    │   ├── RunInUseError             2   another process owns the run directory
    │   ├── RunWriteError             2   a run's file cannot be written (a full disk)
    │   ├── StoredFileError           2   a file read back is damaged, too big or not a file
    │   └── RecordMismatch            2   a journal line whose fields contradict one another
    ├── CacheError                    2   the response cache file cannot be read
    │   └── UnusableCacheError        2   what the cache's path holds is no cache we can use
    └── LLMError                      2   a model call failed
        ├── RetryableLLMError         2   worth another try
        │   ├── RateLimitError        2   429: honour ``retry_after``
        │   └── TransientLLMError     2   529, other 5xx, timeouts, dropped connections
        │       └── NotAReply         2   HTTP 200 with a body that is no reply of the API
        ├── ContextWindowError        2   the request does not fit the model's context
        └── FatalLLMError             2   stops the whole run at once
            ├── AuthenticationError   2   401/403: the key is missing, wrong or not allowed
            └── InvalidRequestError   2   400/404/413/422: the request itself is wrong
    Terminated                      143   SIGTERM: stopped as Ctrl-C stops a run

Each class states its code as ``exit_code``, and the command line maps an error by that
attribute alone; anything outside the tree that ends a command is a bug of ours (exit 4).
``Terminated`` is a ``KeyboardInterrupt``, not a ``VerificationError``, so that no
``except Exception`` stops it on its way out, as none stops Ctrl-C. ``SpecError`` and
``NotAReply`` are ``ValueError`` too, as they were before they had classes: loading a plugin
catches a spec's broken rule as one, and a provider catches a body that is no reply together
with the SDKs' own decoding errors. A module's private ``_Name``
exception is a signal it raises and catches itself, never an error of the harness.

A wrong answer is never an exception: it is a failing ``ValidationResult``. Messages never
hold secrets; provider errors are translated in one place per provider (``raise ... from``).
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "AuthenticationError",
    "CacheError",
    "CaseDrawError",
    "ConfigurationError",
    "ContextWindowError",
    "FatalLLMError",
    "InvalidRequestError",
    "JournalError",
    "LLMError",
    "NotAReply",
    "ParseError",
    "PluginError",
    "RateLimitError",
    "RecordMismatch",
    "RegistryError",
    "RetryableLLMError",
    "RunInUseError",
    "RunWriteError",
    "SandboxUnavailableError",
    "ScaffoldFileError",
    "SpecError",
    "StoredFileError",
    "Terminated",
    "TransientLLMError",
    "UnknownScaffoldError",
    "UnusableCacheError",
    "VerificationError",
]


class VerificationError(Exception):
    """Any error the harness raises on purpose."""

    exit_code: ClassVar[int] = 2
    """The exit code of a command this error ends (every class states its own)."""


class ConfigurationError(VerificationError):
    """A bad setting, option or missing prerequisite; the message names the fix."""

    exit_code: ClassVar[int] = 2


class UnknownScaffoldError(ConfigurationError):
    """A scaffold name that no spec declares."""

    exit_code: ClassVar[int] = 2

    def __init__(self, name: str, *, close_matches: list[str], known: list[str]) -> None:
        hint = (
            f" Did you mean: {', '.join(close_matches)}?"
            if close_matches
            else f" Known scaffolds: {', '.join(known)}."
        )
        shown = name if len(name) <= 100 else name[:97] + "..."  # a name pasted by mistake
        super().__init__(f"unknown scaffold {shown!r}.{hint}")
        self.name = name
        self.close_matches = close_matches


class SandboxUnavailableError(ConfigurationError):
    """No sandbox engine can run programs here; the message says how to install one."""

    exit_code: ClassVar[int] = 2


class ScaffoldFileError(VerificationError):
    """A scaffold Markdown file is missing or malformed."""

    exit_code: ClassVar[int] = 2


class RegistryError(VerificationError):
    """Two registrations clash (scaffolds, providers), or a spec is malformed."""

    exit_code: ClassVar[int] = 2


class SpecError(RegistryError, ValueError):
    """A spec breaks a rule of ``ScaffoldSpec`` or ``SizeAxis``; the message names the rule."""

    exit_code: ClassVar[int] = 2


class PluginError(VerificationError):
    """A plugin's scaffold raised, or returned what its spec's contract forbids; the
    message names the distribution and the scaffold."""

    exit_code: ClassVar[int] = 2

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

    exit_code: ClassVar[int] = 2

    def __init__(self, message: str, *, scaffold: str, tier: str, size: int, index: int) -> None:
        super().__init__(message)
        self.scaffold = scaffold
        self.tier = tier
        self.size = size
        self.index = index


class ParseError(VerificationError):
    """No valid answer could be taken from a model response."""

    exit_code: ClassVar[int] = 2

    def __init__(self, message: str, *, level: int) -> None:
        super().__init__(message)
        self.level = level


class JournalError(VerificationError):
    """A run directory or its journal cannot be read."""

    exit_code: ClassVar[int] = 2


class RunInUseError(JournalError):
    """Another live process holds the run directory's lock (a killed one holds nothing)."""

    exit_code: ClassVar[int] = 2


class RunWriteError(JournalError):
    """A run's file cannot be written (a full disk, a read-only folder): the run keeps what
    it wrote before, and goes on with ``--resume`` once that is fixed."""

    exit_code: ClassVar[int] = 2

    def __init__(self, message: str, *, problem: str) -> None:
        super().__init__(message)
        self.problem = problem
        """What failed, without what to do next (a caller that knows better says that)."""


class StoredFileError(JournalError):
    """A file the harness wrote earlier (manifest, summary, journal) is damaged, too big, too
    deeply nested or not a regular file; the message names it."""

    exit_code: ClassVar[int] = 2


class RecordMismatch(JournalError, ValueError):
    """A journal line that is a record, but one whose fields contradict one another (its
    case id names another scaffold, tier or index than the line does). A ``ValueError`` too,
    so pydantic reports it where a record is validated."""

    exit_code: ClassVar[int] = 2


class CacheError(VerificationError):
    """The response cache file cannot be read (a run then goes on without it)."""

    exit_code: ClassVar[int] = 2


class UnusableCacheError(CacheError):
    """What the cache's path holds cannot be used as a cache; ``remedy`` says what mends
    it."""

    exit_code: ClassVar[int] = 2

    def __init__(self, problem: str, remedy: str) -> None:
        super().__init__(problem)
        self.remedy = remedy


class LLMError(VerificationError):
    """A model call failed."""

    exit_code: ClassVar[int] = 2

    def __init__(self, message: str, *, status_code: int | None = None) -> None:
        super().__init__(message)
        self.status_code = status_code


class RetryableLLMError(LLMError):
    """A model call failed in a way worth another try."""

    exit_code: ClassVar[int] = 2

    def __init__(
        self, message: str, *, status_code: int | None = None, retry_after: float | None = None
    ) -> None:
        super().__init__(message, status_code=status_code)
        self.retry_after = retry_after


class RateLimitError(RetryableLLMError):
    """The provider asked us to slow down (HTTP 429)."""

    exit_code: ClassVar[int] = 2


class TransientLLMError(RetryableLLMError):
    """Overloaded (529), another 5xx, a timeout or a dropped connection."""

    exit_code: ClassVar[int] = 2


class NotAReply(TransientLLMError, ValueError):
    """The body of an HTTP 200 is not a reply of the API; the message says what is wrong
    with it (a provider words it as a ``TransientLLMError`` naming the server)."""

    exit_code: ClassVar[int] = 2


class ContextWindowError(LLMError):
    """The server refused the request because its prompt and output budget do not fit the
    model's context window (a local server's HTTP 400 saying so): an infrastructure error
    of that case (the server's setting, asked again on resume), not the run's end."""

    exit_code: ClassVar[int] = 2


class FatalLLMError(LLMError):
    """A failure no retry can mend; the run stops at once."""

    exit_code: ClassVar[int] = 2


class AuthenticationError(FatalLLMError):
    """The API key is missing, wrong or not allowed (HTTP 401/403)."""

    exit_code: ClassVar[int] = 2


class InvalidRequestError(FatalLLMError):
    """The request itself is wrong (HTTP 400, 404, 413, 422)."""

    exit_code: ClassVar[int] = 2


class Terminated(KeyboardInterrupt):
    """SIGTERM: stopped like Ctrl-C (the run marked interrupted, a resume hint)."""

    exit_code: ClassVar[int] = 143
