"""Plugin scaffolds: loaded without letting them take the process down, and held to their
spec's contract whenever the harness calls them.

A plugin is someone else's code running in our process. Whatever it does while it loads
(raises anything, ``sys.exit()``, a ``KeyboardInterrupt`` no one pressed, a SPEC iterable
that raises or never ends), :func:`load_entry` turns it into a ``ValueError`` that says what
went wrong, and the catalog skips that entry with a warning naming the distribution. Only a
real Ctrl-C (the process received SIGINT while the plugin loaded) still interrupts.

Each spec a plugin declares is checked against the rules every spec obeys (a scaffold name,
a ``Path`` to its Markdown, an output budget of at least
:data:`~verification.catalog.spec.MIN_OUTPUT_TOKENS`, callables where callables go, a validator that
takes ``case``) and then wrapped by :func:`guarded_spec`: every call into the plugin
(generator, reference, input formatter, answer renderer, calibration hooks, answer schema,
validator, size measure) raises :class:`~verification.errors.PluginError`, naming the
distribution and the scaffold, when the plugin raises (a ``KeyboardInterrupt`` with no
Ctrl-C included) or returns what its contract forbids (a reference's answer that does not
fit the spec's own answer schema, or an input whose size its measure reads as other than
the size its generator was asked for, included; the package's scaffolds are held to both by
their tests, not per case). The runner turns that error into an
infrastructure error of the case, so the scaffold is INCOMPLETE with the plugin's error as
the reason and every other scaffold runs.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import random
import signal
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from importlib.metadata import EntryPoint
from pathlib import Path
from types import FrameType
from typing import Any

from pydantic import BaseModel, ValidationError, model_validator

from verification.cases import TestCase, Tier, printable, to_json_data
from verification.catalog import plugin_clock
from verification.catalog.spec import ScaffoldSpec
from verification.errors import PluginError, SpecError
from verification.store.stored_files import validation_problems
from verification.validators.base import (
    Tolerance,
    ValidationResult,
    Validator,
    accepts_case,
)

__all__ = [
    "MAX_HEADING_SCAN",
    "MAX_SPECS_PER_ENTRY",
    "describe_exception",
    "first_heading",
    "guarded_spec",
    "load_entry",
    "misfit",
    "watching_sigint",
]

MAX_SPECS_PER_ENTRY = 256
"""The most specs one entry point may declare: an iterable that goes on is refused, not
followed for ever."""
_MAX_MESSAGE = 300


def describe_exception(exc: BaseException) -> str:
    """``Type: message``, one line, at most 300 characters, unprintable characters escaped;
    safe on an exception whose ``__str__`` itself raises."""
    try:
        text = str(exc)
    except BaseException:  # a plugin's exception may fail even to describe itself
        text = "(its message cannot be shown)"
    # A spec rule a plugin's module broke while loading is named as Python's ValueError, the
    # words plugin warnings used before spec rules had SpecError (which is a ValueError).
    kind = "ValueError" if isinstance(exc, SpecError) else type(exc).__name__
    return printable(f"{kind}: {text}", limit=_MAX_MESSAGE)


def _in_event_loop() -> bool:
    """Whether an asyncio loop runs in this thread (a ``verify`` run). There a real Ctrl-C
    cancels the run's task instead of raising in the code that runs, so a
    ``KeyboardInterrupt`` a plugin raises is the plugin's own."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


_WATCH: list[list[bool]] = []
"""The SIGINT notes of the :func:`watching_sigint` blocks under way, innermost last."""


def _real_interrupt(exc: BaseException) -> bool:
    """Whether ``exc``, raised in a call into a plugin, may be the user's Ctrl-C: a
    ``KeyboardInterrupt`` outside a ``verify`` run's event loop (see :func:`_in_event_loop`)
    that, inside a :func:`watching_sigint` block, came with a real SIGINT."""
    if not isinstance(exc, KeyboardInterrupt) or _in_event_loop():
        return False
    return not _WATCH or _WATCH[-1][0]


@contextmanager
def watching_sigint() -> Iterator[list[bool]]:
    """Note whether the process receives SIGINT in the block, still acting on it as before
    (a real Ctrl-C interrupts): in the block, a ``KeyboardInterrupt`` a plugin raises with
    no SIGINT received is the plugin's failure. Outside the main thread no signal arrives,
    so nothing is noted: a ``KeyboardInterrupt`` raised there is never a Ctrl-C. Not for a
    block that runs an event loop, whose own SIGINT handler it would displace."""
    received = [False]
    _WATCH.append(received)
    try:
        if threading.current_thread() is not threading.main_thread():
            yield received
            return
        previous = signal.getsignal(signal.SIGINT)

        def note(signum: int, frame: FrameType | None) -> None:
            if previous == signal.SIG_IGN:
                return
            received[0] = True
            if callable(previous):
                previous(signum, frame)
            raise KeyboardInterrupt

        signal.signal(signal.SIGINT, note)
        try:
            yield received
        finally:
            signal.signal(signal.SIGINT, previous)
    finally:
        _WATCH.pop()


class _Refused(ValueError):
    """A spec the plugin declared breaks a rule: the message says which."""


def load_entry(entry: EntryPoint, distribution: str) -> list[ScaffoldSpec]:
    """The specs ``entry`` declares, each checked and guarded; a ``ValueError`` says what is
    wrong. Only a real Ctrl-C escapes as ``KeyboardInterrupt``."""
    with watching_sigint() as sigint:
        try:
            return [guarded_spec(spec, distribution) for spec in _declared_specs(entry)]
        except KeyboardInterrupt:
            if sigint[0]:
                raise
            raise ValueError(
                "it raised KeyboardInterrupt while loading, with no Ctrl-C pressed"
            ) from None
        except _Refused as exc:
            raise ValueError(str(exc)) from None
        except BaseException as exc:  # SystemExit too: a plugin never ends the process
            raise ValueError(f"it does not load ({describe_exception(exc)})") from None


def _declared_specs(entry: EntryPoint) -> list[ScaffoldSpec]:
    loaded = entry.load()
    if isinstance(loaded, ScaffoldSpec):
        loaded = [loaded]
    elif isinstance(loaded, str | bytes | Mapping) or not hasattr(loaded, "__iter__"):
        raise _Refused(
            f"{entry.value} is {type(loaded).__name__}, not a ScaffoldSpec or an iterable of them"
        )
    declared: list[ScaffoldSpec] = []
    # Checked one by one, so an iterable that never ends is refused at its first bad item
    # or after MAX_SPECS_PER_ENTRY good ones.
    for spec in iter(loaded):
        if not isinstance(spec, ScaffoldSpec):
            raise _Refused(f"{entry.value} holds {type(spec).__name__}, not a ScaffoldSpec")
        if any(spec.name == other.name for other in declared):
            raise _Refused(f"scaffold {spec.name!r} is declared twice by {entry.value}")
        if len(declared) == MAX_SPECS_PER_ENTRY:
            raise _Refused(f"{entry.value} declares more than {MAX_SPECS_PER_ENTRY} specs")
        spec = _with_defaults(spec)
        _check_contract(spec)
        declared.append(spec)
    return declared


MAX_HEADING_SCAN = 64 * 1024
"""How much of a plugin's Markdown is read to find the first heading (its default title)."""


def first_heading(markdown: Path) -> str | None:
    """The text of the first ``#`` heading in the first :data:`MAX_HEADING_SCAN` bytes of
    ``markdown``, or None when there is none (or the file cannot be read as UTF-8)."""
    try:
        with markdown.open("rb") as file:
            head = file.read(MAX_HEADING_SCAN).decode("utf-8", errors="strict")
    except (OSError, UnicodeDecodeError):
        return None
    for line in head.splitlines():
        marks = len(line) - len(line.lstrip("#"))
        if 1 <= marks <= 6 and line[marks : marks + 1] == " " and line[marks:].strip():
            return line[marks:].strip().rstrip("#").strip() or None
    return None


def _with_defaults(spec: ScaffoldSpec) -> ScaffoldSpec:
    """``spec`` with a plugin's defaults filled in: ``markdown`` is ``<name>.md`` beside the
    module that made the spec, ``title`` that Markdown's first heading. (``sizes`` and
    ``mutants`` default in the spec itself.)"""
    markdown = spec.markdown
    if markdown is None:
        if spec.defined_in is None:
            raise _Refused(
                f"spec {spec.name!r} names no markdown file (ScaffoldSpec.markdown) and was "
                "not made in a module file beside which <name>.md could be"
            )
        markdown = spec.defined_in.with_name(f"{spec.name}.md")
    title = spec.title
    if not title and isinstance(markdown, Path):
        if spec.markdown is None and not markdown.is_file():  # no title to look for (hunt ff)
            raise _Refused(
                f"spec {spec.name!r} has no markdown file: none named (ScaffoldSpec.markdown) "
                f"and no {markdown.name} beside {spec.defined_in}: give markdown=, or name the "
                "file after the spec"
            )
        title = first_heading(markdown) or ""
        if not title:
            raise _Refused(
                f"spec {spec.name!r} has no title and its markdown {markdown} no first "
                "heading to take it from"
            )
    if markdown is spec.markdown and title == spec.title:
        return spec
    try:
        return dataclasses.replace(spec, markdown=markdown, title=title)
    except ValueError as exc:  # a heading too long or unprintable for a title
        raise _Refused(str(exc)) from None


def _check_contract(spec: ScaffoldSpec) -> None:
    """The rules every spec obeys, checked again (a spec object can be changed after it was
    made), and what a plugin's spec must hold besides."""
    try:
        spec.check_rules()
    except ValueError as exc:
        raise _Refused(str(exc)) from None
    name = spec.name
    if spec.markdown is None or not spec.markdown.is_file():
        raise _Refused(f"the markdown file of {name!r} is missing: {spec.markdown}")
    for field in ("reference", "generator", "format_input", "render_answer", "mutants"):
        if not callable(getattr(spec, field)):
            raise _Refused(f"spec {name!r}: {field} is not callable")
    if not callable(spec.alternatives) or not callable(spec.size.measure):
        raise _Refused(f"spec {name!r}: alternatives and size.measure must be callable")
    if not (isinstance(spec.answer_schema, type) and issubclass(spec.answer_schema, BaseModel)):
        raise _Refused(f"spec {name!r}: answer_schema is not a pydantic model")
    validator = spec.validator
    if not isinstance(validator, Validator) or not isinstance(validator.kind, str):
        # A duck-typed validate() is the natural reading of the contract (hunt ff): say how.
        raise _Refused(
            f"spec {name!r}: its validator ({type(validator).__name__}) must be an instance of a "
            "verification.Validator subclass with a class attribute kind, a short name the "
            'reports show (kind = "exact")'
        )
    if not accepts_case(validator):
        raise _Refused(
            f"spec {name!r}: {type(validator).__name__}.validate must accept the test case: "
            "define it as validate(self, actual, expected, *, case=None)"
        )
    tolerances = validator.tolerances
    if not isinstance(tolerances, Mapping) or not all(
        isinstance(what, str) and isinstance(bound, Tolerance) for what, bound in tolerances.items()
    ):
        raise _Refused(f"spec {name!r}: the validator's tolerances are not Tolerances by name")


def guarded_spec(spec: ScaffoldSpec, distribution: str) -> ScaffoldSpec:
    """``spec`` with every call into the plugin held to its contract (see the module's
    docstring)."""

    def fail(what: str, exc: BaseException) -> PluginError:
        return PluginError(
            f"its {what} raised {describe_exception(exc)}",
            distribution=distribution,
            scaffold=spec.name,
        )

    clock = plugin_clock.PluginClock(distribution, spec.name)

    def guard(
        what: str, call: Callable[..., Any], check: Callable[[Any], Any]
    ) -> Callable[..., Any]:
        @functools.wraps(call)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            try:
                with clock.limit(what):
                    result = call(*args, **kwargs)
            except BaseException as exc:
                if isinstance(exc, PluginError) or _real_interrupt(exc):
                    raise
                raise fail(what, exc) from None
            try:
                return check(result)
            except (TypeError, ValueError, RecursionError) as exc:
                raise PluginError(
                    f"its {what} returned {type(result).__name__}: {exc}",
                    distribution=distribution,
                    scaffold=spec.name,
                ) from None

        return guarded

    measure = guard("size measure", spec.size.measure, _count)
    size = dataclasses.replace(spec.size, measure=measure)
    draw = guard("generator", spec.generator, _json_object)

    @functools.wraps(spec.generator)
    def generator(rng: random.Random, tier: Tier, asked: int) -> dict[str, Any]:
        # Held to the size it was asked for, as `check` holds it: a generator that ignores
        # its size made `verify --envelope` claim sizes no input had (an edge case may be
        # smaller than asked: the empty input is its point).
        drawn: dict[str, Any] = draw(rng, tier, asked)
        measured = measure(drawn)
        if measured != asked and not (tier == "edge" and measured < asked):
            raise PluginError(
                f"its generator drew a {tier} input of size {measured} when asked for size "
                f"{asked} (its size measure reads {spec.size.unit}): it must honour every "
                "size of the tier's declared range, or the range be narrowed",
                distribution=distribution,
                scaffold=spec.name,
            )
        return drawn

    validator = _guarded_validator(spec.validator, guard)
    schema = _guarded_schema(spec.answer_schema, fail, clock)

    def answer(value: Any) -> dict[str, Any]:
        # Held to the schema as the parser holds a model's answer: a reference that breaks
        # it is the plugin's defect, not a failure of every model asked (FAILED, exit 1).
        data = _json_object(value)
        try:
            schema.model_validate_json(json.dumps(data, allow_nan=False), strict=True)
        except ValidationError as exc:
            raise PluginError(
                f"its reference's answer does not fit its answer schema: {misfit(exc)}",
                distribution=distribution,
                scaffold=spec.name,
            ) from None
        return data

    return dataclasses.replace(
        spec,
        reference=guard("reference", spec.reference, answer),
        generator=generator,
        format_input=guard("input formatter", spec.format_input, _text),
        render_answer=guard("render_answer", spec.render_answer, _text),
        # The generic default is ours: it binds to the guarded schema when copied.
        mutants=spec.mutants
        if spec.generic_mutants
        else guard("mutants hook", spec.mutants, _json_objects),
        alternatives=guard("alternatives hook", spec.alternatives, _json_objects),
        size=size,
        validator=validator,
        answer_schema=schema,
    )


def misfit(exc: ValidationError) -> str:
    """Where and how an answer breaks its schema, in one short line."""
    return validation_problems(exc, whole="the answer")


def _guarded_schema(
    schema: type[BaseModel],
    fail: Callable[[str, BaseException], PluginError],
    clock: plugin_clock.PluginClock,
) -> type[BaseModel]:
    """``schema`` under the same name, its validation held to pydantic's contract: a wrong
    answer is a ``ValidationError``; anything else a plugin's validator raises is the
    plugin's failure, not the harness's."""

    def held(cls: type[BaseModel], data: Any, handler: Callable[[Any], Any]) -> Any:
        try:
            with clock.limit("answer schema"):
                return handler(data)
        except (ValidationError, ValueError, AssertionError):
            raise  # pydantic makes these a ValidationError: the answer is wrong
        except BaseException as exc:
            if isinstance(exc, PluginError) or _real_interrupt(exc):
                raise
            raise fail("answer schema", exc) from None

    namespace = {
        "__module__": schema.__module__,
        "__doc__": schema.__doc__,
        "_held_to_contract": model_validator(mode="wrap")(classmethod(held)),  # type: ignore[arg-type]
    }
    return type(schema.__name__, (schema,), namespace)


def _json_object(value: Any) -> dict[str, Any]:
    data = to_json_data(value)  # TypeError or ValueError for a set, NaN, a custom object
    if not isinstance(data, dict):
        raise TypeError("not a JSON object (a dict with string keys)")
    return data


def _json_objects(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, Sequence) or isinstance(value, str | bytes):
        raise TypeError("not a sequence of answers (return a list of them)")
    answers = []
    for index, item in enumerate(value):
        try:
            answers.append(_json_object(item))
        except (TypeError, ValueError) as exc:  # the item, not the list (hunt ff)
            raise type(exc)(f"its answer {index} is {type(item).__name__}: {exc}") from None
    return answers


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("not a str")
    return value


def _count(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("not an int")
    return value


def _verdict(value: Any) -> ValidationResult:
    # Its fields too: a message of None reached the journal's record (exit 4), and an
    # is_valid of "False", a string, read as a pass.
    if not isinstance(value, ValidationResult):
        raise TypeError("not a ValidationResult")
    if type(value.is_valid) is not bool:
        raise TypeError(f"its is_valid is {type(value.is_valid).__name__}, not bool")
    if not isinstance(value.message, str):
        raise TypeError(f"its message is {type(value.message).__name__}, not str")
    if value.form_rule is not None and not isinstance(value.form_rule, str):
        raise TypeError(f"its form_rule is {type(value.form_rule).__name__}, not str or None")
    return value


class _GuardedValidator(Validator):
    """A plugin's validator, its verdicts checked; its tolerances read once, at load."""

    kind = "plugin"

    def __init__(
        self,
        validate: Callable[..., ValidationResult],
        tolerances: Mapping[str, Tolerance],
    ) -> None:
        self._validate = validate
        self._tolerances = dict(tolerances)

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        result: ValidationResult = self._validate(actual, expected, case=case)
        return result

    @property
    def tolerances(self) -> Mapping[str, Tolerance]:
        return self._tolerances


def _guarded_validator(
    validator: Validator,
    guard: Callable[[str, Callable[..., Any], Callable[[Any], Any]], Callable[..., Any]],
) -> Validator:
    # A class per plugin validator, so ``kind`` (a class attribute) stays the plugin's.
    kind = type(
        f"Guarded{type(validator).__name__}", (_GuardedValidator,), {"kind": validator.kind}
    )
    guarded: Validator = kind(
        guard("validator", validator.validate, _verdict), validator.tolerances
    )
    return guarded
