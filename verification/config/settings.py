"""Settings, read from ``VERIFY_*`` environment variables and a ``.env`` file in the working
directory (the environment wins over the file; CLI options win over both).

The API key is read from ``VERIFY_ANTHROPIC_API_KEY`` or ``ANTHROPIC_API_KEY`` and kept as a
``SecretStr``: it is unwrapped only where a provider is built, and never written anywhere.
"""

from __future__ import annotations

import copy
import difflib
import functools
import io
import logging
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterable
from pathlib import Path, PurePath
from typing import Any

from pydantic import AliasChoices, ValidationError
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    DotEnvSettingsSource,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
)

from verification.config.options import RunOptions, packaged_scaffolds_dir, user_cache_dir
from verification.errors import ConfigurationError, StoredFileError
from verification.llm.credentials import url_credentials
from verification.store.stored_files import MAX_JSON_DEPTH, read_stored_text

__all__ = [
    "ENV_FILE",
    "MAX_ENV_BYTES",
    "VerificationSettings",
    "load_settings",
    "secrets_of",
]

logger = logging.getLogger(__name__)
ENV_FILE = ".env"
"""The settings file read from the working directory (when it is a regular file)."""
MAX_ENV_BYTES = 1024 * 1024
"""A ``.env`` longer than this is no settings file (a log, a database) and is refused."""
INTERNAL_FIELDS = frozenset({"cases_fixed"})
"""Fields the harness sets itself, never read from a variable or ``.env``: ``cases_fixed``
follows from whether ``cases`` was given (a ``VERIFY_CASES_FIXED`` would silently make the
default plan a fixed one of the level's cap)."""


class VerificationSettings(BaseSettings, RunOptions):
    """Everything a run can be told (:class:`~verification.config.options.RunOptions`), read
    from the environment and ``.env``; each field is also a ``VERIFY_<NAME>`` variable."""

    model_config = SettingsConfigDict(
        env_prefix="VERIFY_",
        env_file=ENV_FILE,
        env_file_encoding="utf-8",
        extra="ignore",
        validate_default=True,
        populate_by_name=True,
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """pydantic-settings' own sources in its own order, less the ``.env`` source when
        there is no file for it to read (:func:`load_settings` names none then): it finds
        nothing, yet walks every field as the environment's source does, a third of
        building the settings."""
        environment = _Settable(_KeptEnvironmentSource(env_settings))
        if isinstance(dotenv_settings, DotEnvSettingsSource) and dotenv_settings.env_file is None:
            return init_settings, environment, file_secret_settings
        return init_settings, environment, _Settable(dotenv_settings), file_secret_settings


class _Settable(PydanticBaseSettingsSource):
    """A source less what it finds for the :data:`INTERNAL_FIELDS`."""

    def __init__(self, source: PydanticBaseSettingsSource) -> None:
        super().__init__(source.settings_cls)
        self.source = source
        self.__name__ = getattr(source, "__name__", type(source).__name__)

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return self.source.get_field_value(field, field_name)

    def __call__(self) -> dict[str, Any]:
        return {k: v for k, v in self.source().items() if k not in INTERNAL_FIELDS}


class _KeptEnvironmentSource(PydanticBaseSettingsSource):
    """pydantic-settings' environment source, what it finds kept by the variables it reads
    (:func:`_read_variables`): it walks every field on every call, and a process that
    builds settings again and again (the tests; a command line in process) mostly does so
    with the same variables and other options. Each call has its own deep copy."""

    def __init__(self, source: PydanticBaseSettingsSource) -> None:
        super().__init__(source.settings_cls)
        self.source = source
        self.__name__ = type(source).__name__  # the name pydantic-settings logs it under

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return self.source.get_field_value(field, field_name)

    def __call__(self) -> dict[str, Any]:
        if self.settings_cls is not VerificationSettings or not _as_declared(self.source):
            # A subclass, or options given to one build (another prefix, case-sensitive
            # names), may read variables the key does not hold.
            return self.source()
        key = _read_variables()
        with _memo_lock:
            kept = _found.get(key)
            if kept is not None:
                _found.move_to_end(key)
        if kept is not None:
            return copy.deepcopy(kept)
        found = self.source()
        with _memo_lock:
            _found[key] = copy.deepcopy(found)
            while len(_found) > _MEMO_SIZE:
                _found.popitem(last=False)
        return found


_SOURCE_OPTIONS = (
    "case_sensitive",
    "env_prefix",
    "env_prefix_target",
    "env_nested_delimiter",
    "env_nested_max_split",
    "env_ignore_empty",
    "env_parse_none_str",
    "env_parse_enums",
)
"""What an environment source is told besides its class (those a version lacks read as None)."""


def _source_options(source: PydanticBaseSettingsSource) -> tuple[Any, ...]:
    return tuple(getattr(source, name, None) for name in _SOURCE_OPTIONS)


@functools.cache
def _declared_options() -> tuple[Any, ...]:
    """The options of the environment source :class:`VerificationSettings` declares."""
    return _source_options(EnvSettingsSource(VerificationSettings))


def _as_declared(source: PydanticBaseSettingsSource) -> bool:
    """Whether ``source`` reads the environment as the declared settings do."""
    return _source_options(source) == _declared_options()


def secrets_of(settings: RunOptions) -> list[str | None]:
    """Every secret the settings (or a run configuration) hold: keys and credentials in
    server URLs."""
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
    env_text = _env_file_text(Path(ENV_FILE))
    env_file = ENV_FILE if env_text is not None else None
    if warn:
        _warn_about_misspelt_variables(os.environ, "")
    if warn and env_file is not None:
        from dotenv import dotenv_values  # pydantic-settings reads .env with it

        _warn_about_misspelt_variables(dotenv_values(env_file), f" (in {ENV_FILE})")
    if os.environ.get("VERIFY_ANTHROPIC_API_KEY") == "" and os.environ.get("ANTHROPIC_API_KEY"):
        # An empty prefixed variable would otherwise hide the plain one.
        given.setdefault("anthropic_api_key", os.environ["ANTHROPIC_API_KEY"])
    key = _memo_key(given, env_text)
    kept = _memo_get(key)
    if kept is not None:
        return kept
    try:
        settings = VerificationSettings(_env_file=env_file, **given)  # type: ignore[call-arg]
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
    return _memo_put(key, settings)


def _env_file_text(path: Path) -> str | None:
    """The text of ``path`` when it is a settings file to read, else None. A ``.env`` that
    is no regular file (a virtualenv's folder, a pipe that would block the read forever) is
    none of ours: not read. A regular one that is no settings file is refused, naming it:
    not UTF-8 text (Latin-1, binary) or longer than :data:`MAX_ENV_BYTES`."""
    if not path.is_file():
        return None
    try:
        text = read_stored_text(path, max_bytes=MAX_ENV_BYTES)
    except FileNotFoundError:  # gone since: nothing to read
        return None
    except StoredFileError as exc:
        raise ConfigurationError(
            f"the settings file {path.absolute()} cannot be used ({exc}): make it UTF-8 text "
            f"of at most {MAX_ENV_BYTES // (1 << 20)} MiB, or move it out of this folder"
        ) from None
    _refuse_unparsed_lines(path, text)
    return text


def _refuse_unparsed_lines(path: Path, text: str) -> None:
    """A line of ``.env`` that python-dotenv cannot read is dropped by it, its value lost,
    with a warning (twice: we and pydantic-settings each read the file) that names neither
    the file nor the line's text (hunt ii): refused here instead, as a bad value is."""
    from dotenv.parser import parse_stream

    bad = [binding.original.line for binding in parse_stream(io.StringIO(text)) if binding.error]
    if bad:
        # Line numbers only: a line that does not parse may hold a key's value.
        lines = ", ".join(map(str, bad[:10])) + (", ..." if len(bad) > 10 else "")
        raise ConfigurationError(
            f"the settings file {path.absolute()} has {len(bad)} line(s) that are no "
            f"KEY=VALUE (an unclosed quote, a missing name?): line {lines}; fix or remove them"
        )


# Building the settings (pydantic-settings' sources walk every field) costs more than the
# rest of a small in-process run's setup, and a process that runs several commands (the
# tests; --baseline) builds the same settings again and again. So the settings built from
# the same inputs are kept (a few of them) and each caller is handed its own deep copy.
# The inputs are everything the build reads: the options given, the .env file's text, the
# environment variables a field is read from (any VERIFY_ one, and each field's aliases;
# all of them when the .env text may interpolate ${VARIABLES}), and what the defaults read
# from outside (the user's cache folder, the scaffolds folder the package ships).
_MEMO_SIZE = 16
_memo: OrderedDict[Hashable, VerificationSettings] = OrderedDict()
_found: OrderedDict[Hashable, dict[str, Any]] = OrderedDict()
"""What the environment source found, by :func:`_read_variables`."""
_memo_lock = threading.Lock()


@functools.cache
def _alias_names() -> frozenset[str]:
    """The environment variables (upper case) a field is read from besides ``VERIFY_*``."""
    names: set[str] = set()
    for field in VerificationSettings.model_fields.values():
        for alias in (field.alias, field.validation_alias):
            choices = alias.choices if isinstance(alias, AliasChoices) else [alias]
            names.update(choice.upper() for choice in choices if isinstance(choice, str))
    return frozenset(names)


def _read_variables(*, everything: bool = False) -> tuple[tuple[str, str], ...]:
    """The environment variables a field is read from (any ``VERIFY_`` one in any case, and
    each field's aliases; every variable when ``everything``), in the environment's order
    (of two spelt alike but for case, the later one is read)."""
    names = _alias_names()
    return tuple(
        (name, value)
        for name, value in os.environ.items()
        if everything or name.upper().startswith("VERIFY_") or name.upper() in names
    )


def _frozen(value: Any) -> Hashable | None:
    """An option's value as part of a key, its type included (``1``, ``1.0`` and ``True``
    are equal but no equal settings, nor ``0.0`` and ``-0.0``); None when it is no plain
    value (not kept)."""
    if type(value) is float:  # by its text: -0.0 equals 0.0, yet no equal setting
        return (float, repr(value))
    if type(value) in (str, int, bool) or isinstance(value, PurePath):
        return (type(value), value)
    if type(value) in (list, tuple):
        items = tuple(_frozen(item) for item in value)
        return None if None in items else (type(value), items)
    return None


def _memo_key(given: dict[str, Any], env_text: str | None) -> Hashable | None:
    """The key of the settings these inputs build (None: not kept)."""
    options = tuple((name, _frozen(value)) for name, value in given.items())
    if any(frozen is None for _, frozen in options):
        return None
    environment = _read_variables(everything=env_text is not None and "$" in env_text)
    defaults = (
        None if "cache_dir" in given else user_cache_dir(),
        None if "scaffolds_dir" in given else packaged_scaffolds_dir(),
    )
    return (options, env_text, environment, defaults)


def _memo_get(key: Hashable | None) -> VerificationSettings | None:
    if key is None:
        return None
    with _memo_lock:
        kept = _memo.get(key)
        if kept is None:
            return None
        _memo.move_to_end(key)
    return kept.model_copy(deep=True)


def _memo_put(key: Hashable | None, settings: VerificationSettings) -> VerificationSettings:
    if key is not None:
        with _memo_lock:
            _memo[key] = settings.model_copy(deep=True)
            while len(_memo) > _MEMO_SIZE:
                _memo.popitem(last=False)
    return settings


_OPTION_NAMED = {"VERIFY_MODE": "VERIFY_CURRENT_MODE"}
"""The variable a user writes after an option's name, where the setting's name differs."""


def _warn_about_misspelt_variables(variables: Iterable[str], where: str) -> None:
    """A misspelt ``VERIFY_*`` variable (of the environment, or ``where`` says which file)
    would be ignored silently: warn, naming the setting it resembles. Other tools'
    ``VERIFY_*`` variables (``VERIFY_SSL``, say) are theirs: no word about them."""
    known = {
        f"VERIFY_{name.upper()}"
        for name in VerificationSettings.model_fields
        if name not in INTERNAL_FIELDS
    }
    for variable in sorted(variables):
        # Settings are read whatever their case, so a key's case is no misspelling.
        name = variable.upper()
        if name.startswith("VERIFY_") and name not in known:
            # An option's name where its setting's differs (--mode: VERIFY_MODE read as
            # VERIFY_MODEL by spelling, which would ask for a model named "cert": hunt ii).
            close = [_OPTION_NAMED[name]] if name in _OPTION_NAMED else []
            close = close or difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.85)
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
