"""Settings, read from ``VERIFY_*`` environment variables and a ``.env`` file in the working
directory (the environment wins over the file; CLI options win over both).

The API key is read from ``VERIFY_ANTHROPIC_API_KEY`` or ``ANTHROPIC_API_KEY`` and kept as a
``SecretStr``: it is unwrapped only where a provider is built, and never written anywhere.
"""

from __future__ import annotations

import difflib
import hashlib
import logging
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

from pydantic import (
    AliasChoices,
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict, SettingsError

from verification.cases import DEFAULT_SEED
from verification.errors import ConfigurationError, StoredFileError
from verification.store.pricing import ModelPrice
from verification.store.stored_files import MAX_JSON_DEPTH, read_stored_text
from verification.store.thinking import MIN_THINKING_BUDGET

__all__ = [
    "CERT_SEED_MIN_CHARS",
    "ENV_FILE",
    "LEVEL_CASES",
    "LEVEL_TIERS",
    "MAX_ENV_BYTES",
    "Level",
    "VerificationSettings",
    "load_settings",
    "packaged_scaffolds_dir",
    "private_case_seed",
    "redact",
    "redact_log_records",
    "secrets_of",
    "url_credentials",
    "user_cache_dir",
    "without_credentials",
]

_PACKAGE_DIR = Path(__file__).resolve().parent

Level = Literal["quick", "standard", "thorough"]
LEVEL_CASES: dict[Level, int] = {"quick": 5, "standard": 40, "thorough": 100}
"""Cases per scaffold at each level (``--cases`` overrides). 40 at standard: a perfect run
clears 0.90 with its whole interval from 35 cases on, so it is never "borderline"."""
LEVEL_TIERS: dict[Level, tuple[str, ...]] = {
    "quick": ("simple",),
    "standard": ("simple", "standard", "edge"),
    "thorough": ("simple", "standard", "edge"),
}
CERT_SEED_MIN_CHARS = 16
"""A private seed shorter than this could be found from its sha256 (which reports show)
by trying every short value."""
logger = logging.getLogger(__name__)
ENV_FILE = ".env"
"""The settings file read from the working directory (when it is a regular file)."""
MAX_ENV_BYTES = 1024 * 1024
"""A ``.env`` longer than this is no settings file (a log, a database) and is refused."""


def user_cache_dir() -> Path:
    """The response cache's folder when ``VERIFY_CACHE_DIR`` is unset: the user's cache
    directory as the platform has it (``$XDG_CACHE_HOME/scaffold-verification``, by default
    ``~/.cache/scaffold-verification`` on Linux; ``~/Library/Caches`` on macOS;
    ``%LOCALAPPDATA%`` on Windows)."""
    import platformdirs  # only a run or the cache command needs it

    return Path(platformdirs.user_cache_dir("scaffold-verification", appauthor=False))


def packaged_scaffolds_dir() -> Path:
    """The scaffolds an installed package ships, or the checkout's top-level ``scaffolds/``."""
    shipped = _PACKAGE_DIR / "_scaffolds"
    return shipped if shipped.is_dir() else _PACKAGE_DIR.parent / "scaffolds"


class VerificationSettings(BaseSettings):
    """Everything a run can be told; each field is also a ``VERIFY_<NAME>`` variable."""

    model_config = SettingsConfigDict(
        env_prefix="VERIFY_",
        env_file=ENV_FILE,
        env_file_encoding="utf-8",
        extra="ignore",
        validate_default=True,
        populate_by_name=True,
    )

    anthropic_api_key: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("VERIFY_ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY"),
    )
    """Claude API key."""
    anthropic_base_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("VERIFY_ANTHROPIC_BASE_URL", "ANTHROPIC_BASE_URL"),
    )
    """Messages API base URL; the SDK's default when unset."""
    openai_base_url: str = "http://127.0.0.1:8000/v1"
    """OpenAI-compatible server (vLLM, Ollama, llama.cpp) for ``--provider openai``."""
    openai_api_key: SecretStr | None = None
    """Key for the OpenAI-compatible server, if it wants one."""
    provider: str = Field(default="anthropic", pattern=r"^[a-z][a-z0-9_]*$")
    """Who answers: a name of :data:`verification.llm.providers.PROVIDERS`, a model
    (``anthropic``, ``openai``) or a dry run (``reference``, ``replay``); an unknown name is
    refused when the provider is built, before any request."""
    replay_file: Path | None = None
    """Recorded or scripted responses for ``--provider replay``."""
    dev_model: str = "claude-haiku-4-5"
    """Model asked in dev mode."""
    cert_model: str = "claude-sonnet-4-5"
    """Model asked in cert mode."""
    model: list[str] | None = Field(default=None, min_length=1, max_length=16)
    """Overrides the mode's model: one model, or several (``--model A --model B``,
    ``VERIFY_MODEL=A,B`` or a JSON list), each asked the same cases in a run of its own
    (:mod:`verification.compose.multimodel`)."""
    current_mode: Literal["dev", "cert"] = "dev"
    """``dev`` (quick iteration) or ``cert`` (the model of record)."""
    # Unset means the mode's level (a validator fills it in), so the field is never None.
    level: Level = Field(default=None)  # type: ignore[arg-type]
    """How deep a run goes: ``quick`` (a smoke test of the simple tier that certifies
    nothing), ``standard`` (every tier; the dev default) or ``thorough`` (every tier, more
    cases and the size sweep; the cert default)."""
    cert_seed: SecretStr | None = None
    """Cert mode's private suite seed (a CI secret, at least 16 characters): its cases are
    not the ones dev runs, and a scaffold's author, see. Never written anywhere; reports
    show its sha256."""
    results_dir: Path = Path("verification_results")
    """Where runs, reports and journals go."""
    scaffolds_dir: Path = Field(default_factory=packaged_scaffolds_dir)
    """Where scaffold Markdown files are read from."""
    concurrency: int = Field(default=4, ge=1, le=256)
    """Requests in flight at once."""
    seed: int = DEFAULT_SEED
    """Suite seed: the same seed gives the same cases on every machine."""
    # Unset means the level's count (a validator fills it in), so the field is never None.
    cases: int = Field(default=None, ge=1, le=10_000)  # type: ignore[assignment]
    """Cases per scaffold, split over the tiers; unset: the level's (:data:`LEVEL_CASES`)."""
    sizes: list[int] | None = None
    """Sizes to sweep (``--sizes 4,8,12``): every scaffold is asked at each, on top of its
    level's cases; the thorough level sweeps each scaffold's own range when unset."""
    samples: int = Field(default=1, ge=1, le=20)
    """Answers asked per case (epochs); each is graded."""
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    """Sampling temperature; unset means not sent (some models reject it)."""
    thinking_budget: int | None = Field(default=None, ge=MIN_THINKING_BUDGET, le=128_000)
    """Tokens a model may think before answering (extended thinking, on the models of
    :data:`verification.store.pricing.THINKING_FAMILIES`); unset: no thinking. A request asks
    for this plus the scaffold's output budget, and sends no temperature."""
    max_retries: int = Field(default=4, ge=0, le=20)
    """Retries of a transient failure, after the first try."""
    retry_initial_wait: float = Field(default=1.0, ge=0.0, le=60.0)
    """First backoff in seconds when the server does not say how long to wait."""
    retry_max_wait: float = Field(default=60.0, ge=0.0, le=600.0)
    """Longest single wait between tries, ``retry-after`` included."""
    request_timeout: float = Field(default=300.0, gt=0.0, le=3600.0)
    """Seconds one model call may take in all, reading included (a reply dripped slowly is
    cut off too); a call past it is retried."""
    case_budget: float = Field(default=1800.0, gt=0.0, le=86400.0)
    """Seconds one answer may take across all its tries and waits; past it the case is an
    infrastructure error (not counted) and the run goes on."""
    cache: bool = True
    """Answer from the shared response cache where it can, and keep every complete live
    answer there (``--no-cache``: neither)."""
    cache_dir: Path = Field(default_factory=user_cache_dir)
    """The folder of the response cache every run of the user shares, whatever its
    ``--output``; unset: :func:`user_cache_dir`."""
    cache_max_mb: float | None = Field(default=None, gt=0.0, le=1_000_000.0)
    """Size cap of the response cache in MiB (answers' text): past it, the least recently
    used answers are evicted. Unset: no cap."""
    repair_attempts: int = Field(default=1, ge=1, le=3)
    """Attempts per answer when it fails to parse (1 = no repair; at most 3)."""
    prices: dict[str, ModelPrice] = Field(default_factory=dict, max_length=200)
    """Prices in USD per million tokens by model or family, over the dated table of
    :mod:`verification.store.pricing`, as JSON: ``{"my-model": {"input": 1.0, "output": 5.0}}``
    (``cache_write`` and ``cache_read`` optional)."""
    min_cacheable_tokens: dict[str, int] = Field(default_factory=dict, max_length=200)
    """Shortest cacheable prompt prefix by model or family, over the dated table of
    :mod:`verification.store.pricing`, as JSON: ``{"claude-haiku-4-5": 4096}``."""
    max_cost: float | None = Field(default=None, gt=0.0, le=1_000_000.0)
    """Budget in USD for the run: no case starts once what it could cost, with the worst
    case of those in flight, would pass it. Unset: no budget."""
    batch: bool = False
    """Send the run through Anthropic's Message Batches (:mod:`verification.run.batch_mode`)."""
    batch_poll_interval: float = Field(default=60.0, ge=0.0, le=3600.0)
    """Seconds between two looks at a batch under way."""
    batch_deadline: float = Field(default=26 * 3600.0, gt=0.0, le=7 * 86400.0)
    """Seconds a batch is waited for (the API ends every batch within 24 hours); past
    them its requests are infrastructure errors."""
    batch_sync_finish: bool = True
    """Answer synchronously what did not succeed in a batch (errored, canceled, expired)."""
    early_stop: bool = False
    """Stop asking a scaffold's cases once a planned look decides its status
    (:mod:`verification.run.early_stop`)."""

    @field_validator("level", mode="before")
    @classmethod
    def _the_mode_s_level(cls, value: Any, info: ValidationInfo) -> Any:
        if value is None:
            return "thorough" if info.data.get("current_mode") == "cert" else "standard"
        return value

    @field_validator("cases", mode="before")
    @classmethod
    def _the_level_s_cases(cls, value: Any, info: ValidationInfo) -> Any:
        if value is None:
            return LEVEL_CASES.get(info.data.get("level", "standard"), LEVEL_CASES["standard"])
        return value

    @field_validator("sizes", mode="before")
    @classmethod
    def _a_size_list(cls, value: Any) -> Any:
        if isinstance(value, str):  # VERIFY_SIZES=4,8,12 as well as JSON [4, 8, 12]
            text = value.strip()
            if not text.startswith("["):
                return [part.strip() for part in text.split(",") if part.strip()]
        return value

    @field_validator("model", mode="before")
    @classmethod
    def _a_model_list(cls, value: Any) -> Any:
        if isinstance(value, str):  # VERIFY_MODEL=a,b as well as JSON ["a", "b"] and one id
            text = value.strip()
            if not text.startswith("["):
                return [part.strip() for part in text.split(",") if part.strip()] or None
        return value

    @field_validator("model")
    @classmethod
    def _distinct_model_ids(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return None
        for model in value:  # reports print what the server said, escaped: any text goes
            if not model.strip():
                raise ValueError("an empty model id")
        return list(dict.fromkeys(value))

    @field_validator("sizes")
    @classmethod
    def _sizes_at_least_one(cls, value: list[int] | None) -> list[int] | None:
        if value is None:
            return None
        if not value or any(size < 0 for size in value) or len(value) > 64:
            raise ValueError("must be 1 to 64 sizes, none negative")
        return sorted(set(value))

    @field_validator("cert_seed")
    @classmethod
    def _a_long_seed(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and len(value.get_secret_value()) < CERT_SEED_MIN_CHARS:
            raise ValueError(
                f"must be at least {CERT_SEED_MIN_CHARS} characters (its sha256 is shown in "
                "reports; a short seed could be found from it)"
            )
        return value

    @field_validator("results_dir", "scaffolds_dir", "replay_file", "cache_dir", mode="before")
    @classmethod
    def _a_path(cls, value: Any) -> Any:
        if isinstance(value, str) and not value.strip():
            raise ValueError("must not be empty (an empty path would mean this folder)")
        if isinstance(value, str | Path) and "\x00" in str(value):
            raise ValueError("holds a NUL byte, which no path can")
        return value

    @field_validator("anthropic_base_url", "openai_base_url")
    @classmethod
    def _an_http_url(cls, value: str | None) -> str | None:
        if value is None or value == "":
            return None if value == "" else value
        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018 - raises on a bad port
        except ValueError as exc:
            raise ValueError(f"not a URL ({exc})") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("must be an http:// or https:// URL with a host")
        if parts.query or parts.fragment:
            raise ValueError("must have no ?query or #fragment (the client appends paths)")
        return value

    @property
    def model_name(self) -> str:
        """The model this run asks: the first of ``model`` if set, else the current
        mode's."""
        return self.model_names[0]

    @property
    def model_names(self) -> list[str]:
        """Every model a ``verify`` asks: ``model`` if set, else the current mode's."""
        if self.model:
            return list(self.model)
        return [self.cert_model if self.current_mode == "cert" else self.dev_model]

    def for_model(self, model: str) -> VerificationSettings:
        """These settings asking ``model`` alone."""
        return self.model_copy(update={"model": [model]})

    @property
    def private_seed(self) -> bool:
        """True when this run's cases come from the private cert seed."""
        return self.current_mode == "cert" and self.cert_seed is not None

    @property
    def case_seed(self) -> int:
        """The seed cases are drawn from: ``seed``, or in cert mode one derived from
        ``cert_seed`` (a different digest from the one reports show)."""
        if not self.private_seed:
            return self.seed
        assert self.cert_seed is not None
        return private_case_seed(self.cert_seed)

    @property
    def cert_seed_sha256(self) -> str | None:
        """The sha256 of the private seed (what reports show of it), or None."""
        if self.cert_seed is None:
            return None
        secret = self.cert_seed.get_secret_value().encode("utf-8", "surrogatepass")
        return hashlib.sha256(secret).hexdigest()

    def public_dump(self) -> dict[str, Any]:
        """The settings as JSON data, without secrets (for manifests)."""
        data = self.model_dump(
            mode="json", exclude={"anthropic_api_key", "openai_api_key", "cert_seed"}
        )
        for key in ("anthropic_base_url", "openai_base_url"):
            data[key] = without_credentials(data[key])
        data["anthropic_api_key_set"] = self.anthropic_api_key is not None
        data["cert_seed_set"] = self.cert_seed is not None
        data["model_name"] = self.model_name
        return data


def private_case_seed(secret: SecretStr) -> int:
    """The case seed a private cert seed stands for: a digest other than the sha256 reports
    show, so that the one does not give the other away."""
    data = secret.get_secret_value().encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.sha256(b"case-seed:" + data).digest()[:8], "big")


def without_credentials(url: str | None) -> str | None:
    """``url`` with any ``user:password@``, query and fragment removed: what manifests,
    reports and messages may show."""
    if not url:
        return url
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return "<unparsable URL>"
    host = parts.hostname or ""
    netloc = f"{host}:{port}" if port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def url_credentials(url: str | None) -> list[str]:
    """The user name and password a URL carries, if any (what :func:`redact` hides)."""
    if not url:
        return []
    try:
        parts = urlsplit(url)
        return [p for p in (parts.username, parts.password) if p]
    except ValueError:
        return []


def redact(text: str, secrets: Iterable[str | None]) -> str:
    """``text`` with every secret (of 4 characters or more) replaced by ``<redacted>``."""
    for secret in sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True):
        text = text.replace(secret, "<redacted>")
    return text


_LOGGED_SECRETS: set[str] = set()


def redact_log_records(secrets: Iterable[str | None]) -> None:
    """From now on, every log record of this process has ``secrets`` redacted from its
    message, whoever logs it (an SDK that raises its own log level on import included)."""
    _LOGGED_SECRETS.update(s for s in secrets if s and len(s) >= 4)
    if getattr(logging.getLogRecordFactory(), "redacts", False):
        return
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a malformed record is the logging module's to report
            return record
        cleaned = redact(message, _LOGGED_SECRETS)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        return record

    factory.redacts = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(factory)


def secrets_of(settings: VerificationSettings) -> list[str | None]:
    """Every secret the settings hold: keys and credentials in server URLs."""
    keys = [settings.anthropic_api_key, settings.openai_api_key, settings.cert_seed]
    return [
        *(key.get_secret_value() for key in keys if key is not None),
        *url_credentials(settings.anthropic_base_url),
        *url_credentials(settings.openai_base_url),
    ]


def load_settings(*, warn: bool = True, **overrides: Any) -> VerificationSettings:
    """Read the environment, apply ``overrides`` (from CLI options), and turn a bad value
    into a :class:`ConfigurationError` that names the variable. ``warn=False`` when the
    environment was read (and warned about) once already."""
    given = {key: value for key, value in overrides.items() if value is not None}
    env_file = ENV_FILE if _check_env_file(Path(ENV_FILE)) else None
    if warn:
        _warn_about_misspelt_variables(os.environ, "")
    if warn and env_file is not None:
        from dotenv import dotenv_values  # pydantic-settings reads .env with it

        _warn_about_misspelt_variables(dotenv_values(env_file), f" (in {ENV_FILE})")
    if os.environ.get("VERIFY_ANTHROPIC_API_KEY") == "" and os.environ.get("ANTHROPIC_API_KEY"):
        # An empty prefixed variable would otherwise hide the plain one.
        given.setdefault("anthropic_api_key", os.environ["ANTHROPIC_API_KEY"])
    try:
        return VerificationSettings(_env_file=env_file, **given)  # type: ignore[call-arg]
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            field = str(error["loc"][0]) if error["loc"] else "?"
            source = f"--{field.replace('_', '-')}" if field in given else _env_name(field)
            # URLs may hold tokens
            secretive = field.lower().endswith(("api_key", "base_url", "cert_seed"))
            shown = "<hidden>" if secretive else _shown(error.get("input"))
            problems.append(f"{source}: {error['msg']} (got {shown})")
        raise ConfigurationError("bad setting: " + "; ".join(problems)) from None
    except SettingsError as exc:  # a JSON setting (VERIFY_PRICES, say) that is no JSON
        found = re.search(r'field "(\w+)" from source "(\w+)"', str(exc))
        name = _env_name(found.group(1)) if found else "a VERIFY_ setting given as JSON"
        where = f" (in {ENV_FILE})" if found and "DotEnv" in found.group(2) else ""
        raise ConfigurationError(f"bad setting: {name}{where}: not valid JSON") from None
    except RecursionError:  # JSON nested past the parser's depth: exit 2, not 4
        deep = sorted(
            name
            for name, value in os.environ.items()
            if name.upper().startswith("VERIFY_")
            and value.count("[") + value.count("{") > MAX_JSON_DEPTH
        )
        named = ", ".join(deep) or "a VERIFY_ setting"
        raise ConfigurationError(f"bad setting: {named}: JSON nested too deeply") from None


def _check_env_file(path: Path) -> bool:
    """Whether ``path`` is a settings file to read. A ``.env`` that is no regular file (a
    virtualenv's folder, a pipe that would block the read forever) is none of ours: not
    read. A regular one that is no settings file is refused, naming it: not UTF-8 text
    (Latin-1, binary) or longer than :data:`MAX_ENV_BYTES`."""
    if not path.is_file():
        return False
    try:
        read_stored_text(path, max_bytes=MAX_ENV_BYTES)
    except FileNotFoundError:  # gone since: nothing to read
        return False
    except StoredFileError as exc:
        raise ConfigurationError(
            f"the settings file {path.absolute()} cannot be used ({exc}): save it as UTF-8 "
            "text, or move it out of this folder"
        ) from None
    return True


def _warn_about_misspelt_variables(variables: Iterable[str], where: str) -> None:
    """A misspelt ``VERIFY_*`` variable (of the environment, or ``where`` says which file)
    would be ignored silently: warn, naming the setting it resembles. Other tools'
    ``VERIFY_*`` variables (``VERIFY_SSL``, say) are theirs: no word about them."""
    known = {f"VERIFY_{name.upper()}" for name in VerificationSettings.model_fields}
    for variable in sorted(variables):
        # Settings are read whatever their case, so a key's case is no misspelling.
        name = variable.upper()
        if name.startswith("VERIFY_") and name not in known:
            close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.85)
            if close:
                logger.warning(
                    "%s%s is not a setting and is ignored; did you mean %s?",
                    variable,
                    where,
                    close[0],
                )


def _env_name(field: str) -> str:
    # pydantic may name the alias it read (a variable name) rather than the field.
    field = field.lower().removeprefix("verify_")
    if field.startswith("anthropic_") and field not in VerificationSettings.model_fields:
        field = "anthropic_" + field.removeprefix("anthropic_")
    if field in ("anthropic_api_key", "anthropic_base_url"):
        return f"ANTHROPIC_{field.removeprefix('anthropic_').upper()} (or VERIFY_{field.upper()})"
    return f"VERIFY_{field.upper()}"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
