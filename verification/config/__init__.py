"""Settings, read once from ``VERIFY_*`` environment variables and a ``.env`` file in the
working directory (the environment wins over the file; CLI options win over both), and
resolved into the frozen run configuration a run is handed.

- :mod:`~verification.config.options`: what a run can be told (fields, bounds, defaults,
  derived values), shared by the two below;
- :mod:`~verification.config.settings`: :class:`VerificationSettings` and
  :func:`load_settings`, which read the environment and name a bad variable;
- :mod:`~verification.config.run_config`: :class:`RunConfig`, the settings resolved once
  (:func:`resolve_settings`) for the runner, the planner and the composed runs.

Below the run layer nothing imports this package (a forbidden contract in
``pyproject.toml`` says so): the providers, the cache and the rest are handed what they need.
The API key is kept as a ``SecretStr``: it is unwrapped only where a provider is built, and
never written anywhere.
"""

from __future__ import annotations

from verification.config.options import (
    CERT_SEED_MIN_CHARS,
    LEVEL_CASES,
    LEVEL_TIERS,
    Level,
    RunOptions,
    packaged_scaffolds_dir,
    private_case_seed,
    user_cache_dir,
)
from verification.config.run_config import RunConfig, resolve_settings
from verification.config.settings import (
    ENV_FILE,
    MAX_ENV_BYTES,
    VerificationSettings,
    load_settings,
    secrets_of,
)

__all__ = [
    "CERT_SEED_MIN_CHARS",
    "ENV_FILE",
    "LEVEL_CASES",
    "LEVEL_TIERS",
    "MAX_ENV_BYTES",
    "Level",
    "RunConfig",
    "RunOptions",
    "VerificationSettings",
    "load_settings",
    "packaged_scaffolds_dir",
    "private_case_seed",
    "resolve_settings",
    "secrets_of",
    "user_cache_dir",
]
