"""What a run can be told: every setting's name, type, bounds and default, the derived
values (the model asked, the case seed), and the dump a manifest keeps, shared by the
settings read from the environment (:class:`~verification.config.VerificationSettings`) and
the frozen run configuration resolved from them (:class:`~verification.config.RunConfig`).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Self
from urllib.parse import urlsplit

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeInt,
    SecretStr,
    ValidationInfo,
    field_validator,
    model_validator,
)

from verification.cases import DEFAULT_SEED
from verification.certify.sequential import CAPS, QUICK_CASES, CertificationPlan, plan_for
from verification.llm.credentials import without_credentials
from verification.store.pricing import ModelPrice
from verification.store.thinking import MIN_THINKING_BUDGET

if TYPE_CHECKING:  # the providers' module loads only when a run builds its provider
    from verification.llm.providers import ProviderConfig

__all__ = [
    "CERT_SEED_MIN_CHARS",
    "LEVEL_CASES",
    "LEVEL_TIERS",
    "Level",
    "RunOptions",
    "packaged_scaffolds_dir",
    "private_case_seed",
    "user_cache_dir",
]

_PACKAGE_DIR = Path(__file__).resolve().parent.parent


Level = Literal["quick", "standard", "thorough"]
LEVEL_CASES: dict[Level, int] = {
    "quick": QUICK_CASES,
    "standard": CAPS["standard"],
    "thorough": CAPS["thorough"],
}
"""Cases planned per scaffold at each level: the cap of its certification plan
(:mod:`verification.certify.sequential`), which asks them look by look and stops once one
decides (a perfect scaffold at standard after 30). ``--cases`` overrides with a fixed plan."""
LEVEL_TIERS: dict[Level, tuple[str, ...]] = {
    "quick": ("simple",),
    "standard": ("simple", "standard", "edge"),
    "thorough": ("simple", "standard", "edge"),
}
CERT_SEED_MIN_CHARS = 16
"""A private seed shorter than this could be found from its sha256 (which reports show)
by trying every short value."""


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


class RunOptions(BaseModel):
    """Everything a run can be told; each field is also a ``VERIFY_<NAME>`` variable (read
    by :class:`~verification.config.VerificationSettings`)."""

    model_config = ConfigDict(extra="ignore", validate_default=True, populate_by_name=True)

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
    envelope: bool | None = None
    """Search each scaffold's size envelope (``--envelope``): decide the standard maximum,
    climb by doubling into the stress range while sizes certify, then narrow to the
    boundary. Unset: a thorough run searches (where it can decide size after size); false:
    a thorough run sweeps its fixed sizes instead."""
    samples: int = Field(default=1, ge=1, le=20)
    """Answers asked per case (epochs); each is graded."""
    temperature: float | None = Field(default=None, ge=0.0, le=2.0, allow_inf_nan=False)
    """Sampling temperature; unset means not sent (some models reject it)."""
    thinking_budget: int | None = Field(default=None, ge=MIN_THINKING_BUDGET, le=128_000)
    """Tokens a model may think before answering (extended thinking, on the models of
    :data:`verification.store.pricing.THINKING_FAMILIES`; with the openai provider, room for
    any model that reasons in its reply); unset: no thinking. A request asks for this plus
    the scaffold's output budget, and sends no temperature."""
    max_retries: int = Field(default=4, ge=0, le=20)
    """Retries of a transient failure, after the first try."""
    retry_initial_wait: float = Field(default=1.0, ge=0.0, le=60.0, allow_inf_nan=False)
    """First backoff in seconds when the server does not say how long to wait."""
    retry_max_wait: float = Field(default=60.0, ge=0.0, le=600.0, allow_inf_nan=False)
    """Longest single wait between tries, ``retry-after`` included."""
    request_timeout: float = Field(default=300.0, gt=0.0, le=3600.0, allow_inf_nan=False)
    """Seconds one model call may take in all, reading included (a reply dripped slowly is
    cut off too); a call past it is retried."""
    case_budget: float = Field(default=1800.0, gt=0.0, le=86400.0, allow_inf_nan=False)
    """Seconds one answer may take across all its tries and waits; past it the case is an
    infrastructure error (not counted) and the run goes on."""
    plugin_call_seconds: float = Field(default=60.0, gt=0.0, le=86400.0, allow_inf_nan=False)
    """Seconds one call into a plugin's code may run (drawing a case, judging an answer);
    past it the call is stopped and the plugin's scaffold is INCOMPLETE, naming it."""
    cache: bool = True
    """Answer from the shared response cache where it can, and keep every complete live
    answer there (``--no-cache``: neither)."""
    cache_dir: Path = Field(default_factory=user_cache_dir)
    """The folder of the response cache every run of the user shares, whatever its
    ``--output``; unset: :func:`user_cache_dir`."""
    cache_max_mb: float | None = Field(default=None, gt=0.0, le=1_000_000.0, allow_inf_nan=False)
    """Size cap of the response cache in MiB (answers' text): past it, the least recently
    used answers are evicted. Unset: no cap."""
    repair_attempts: int = Field(default=1, ge=1, le=3)
    """Attempts per answer when it fails level 1 or 2 (it cannot be read or misfits the
    schema; code mode repairs level 1 only). 1 = no repair; at most 3."""
    prices: dict[str, ModelPrice] = Field(default_factory=dict, max_length=200)
    """Prices in USD per million tokens by model or family, over the dated table of
    :mod:`verification.store.pricing`, as JSON: ``{"my-model": {"input": 1.0, "output": 5.0}}``
    (``cache_write`` and ``cache_read`` optional)."""
    min_cacheable_tokens: dict[str, NonNegativeInt] = Field(default_factory=dict, max_length=200)
    """Shortest cacheable prompt prefix by model or family, over the dated table of
    :mod:`verification.store.pricing`, as JSON: ``{"claude-haiku-4-5": 4096}``."""
    max_cost: float | None = Field(default=None, gt=0.0, le=1_000_000.0, allow_inf_nan=False)
    """Budget in USD for the run: no case starts once what it could cost, with the worst
    case of those in flight, would pass it. Unset: no budget."""
    batch: bool = False
    """Send the run through Anthropic's Message Batches (:mod:`verification.run.batch_mode`)."""
    batch_poll_interval: float = Field(default=60.0, ge=0.0, le=3600.0, allow_inf_nan=False)
    """Seconds between two looks at a batch under way."""
    batch_deadline: float = Field(default=26 * 3600.0, gt=0.0, le=7 * 86400.0, allow_inf_nan=False)
    """Seconds a batch is waited for (the API ends every batch within 24 hours); past
    them its requests are infrastructure errors."""
    batch_sync_finish: bool = True
    """Answer synchronously what did not succeed in a batch (errored, canceled, expired)."""
    batch_resend: bool = False
    """Send again the requests of a batch whose create call a killed run left unanswered,
    when whether the server made it cannot be told (:mod:`verification.run.batch_intents`)."""
    early_stop: bool = False
    """Kept for old command lines and scripts: stopping at a look that decides is what
    every standard and thorough run now does (its certification plan's looks,
    :mod:`verification.certify.sequential`), so this changes nothing."""
    cases_fixed: bool = False
    """``cases`` was chosen (``--cases N`` or ``VERIFY_CASES``): the run follows a fixed
    plan of that many cases decided by the point cut, not its level's sequential plan.
    Set from whether ``cases`` was given."""
    answer: Literal["trace", "code"] = "trace"
    """What a model is asked for (``--answer``): ``trace``, the algorithm worked by hand on
    each case; ``code``, a program run in a sandbox on every case
    (:mod:`verification.run.code_answers`)."""
    sandbox: Literal["bubblewrap", "docker"] | None = None
    """Where code mode runs programs (``--sandbox``): ``bubblewrap`` or ``docker``; unset,
    the first of them that works here (:mod:`verification.run.sandbox`). A code-mode run
    that finds none is refused before any request; there is no unsandboxed fallback."""

    @model_validator(mode="before")
    @classmethod
    def _were_cases_chosen(cls, data: Any) -> Any:
        if isinstance(data, dict) and "cases_fixed" not in data:
            return {**data, "cases_fixed": data.get("cases") is not None}
        return data

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
        if type(value) is int:  # VERIFY_SIZES=4: one size, which the variable's JSON reads as 4
            return [value]
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

    def for_model(self, model: str) -> Self:
        """These settings asking ``model`` alone."""
        return self.model_copy(update={"model": [model]})

    @property
    def certification_plan(self) -> CertificationPlan:
        """The plan a run of these settings certifies by: the level's, or a fixed plan of
        ``cases`` when they were chosen."""
        return plan_for(self.level, self.cases if self.cases_fixed else None)

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

    @property
    def provider_config(self) -> ProviderConfig:
        """What building this run's provider needs
        (:func:`~verification.llm.providers.build_provider`): the provider, its server and
        key, the model asked and the retry policy's numbers."""
        from verification.llm.providers import ProviderConfig

        return ProviderConfig(
            provider=self.provider,
            model_name=self.model_name,
            named_model=self.model[0] if self.model else None,
            anthropic_api_key=self.anthropic_api_key,
            anthropic_base_url=self.anthropic_base_url,
            openai_api_key=self.openai_api_key,
            openai_base_url=self.openai_base_url,
            replay_file=self.replay_file,
            request_timeout=self.request_timeout,
            max_retries=self.max_retries,
            retry_initial_wait=self.retry_initial_wait,
            retry_max_wait=self.retry_max_wait,
            case_budget=self.case_budget,
        )


def private_case_seed(secret: SecretStr) -> int:
    """The case seed a private cert seed stands for: a digest other than the sha256 reports
    show, so that the one does not give the other away."""
    data = secret.get_secret_value().encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.sha256(b"case-seed:" + data).digest()[:8], "big")
