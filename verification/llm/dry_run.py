"""Providers that answer without a model: ``reference`` (the dry run) and ``replay``.

Both answer by ``LLMRequest.case_id``. Neither certifies a model: their reports say so in
every title.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from verification.cases import Planned, PlannedCase, drawn, parse_program_id
from verification.catalog import Catalog, default_catalog
from verification.errors import (
    AuthenticationError,
    ConfigurationError,
    InvalidRequestError,
    LLMError,
    PluginError,
    RateLimitError,
    SpecError,
    StoredFileError,
    TransientLLMError,
)
from verification.llm.base import LLMProvider, LLMRequest, LLMResponse
from verification.llm.retry import RetryPolicy
from verification.store.records import Arm
from verification.store.stored_files import read_stored_text

__all__ = [
    "MAX_REPLAY_BYTES",
    "REPLAY_ERRORS",
    "ReferenceProvider",
    "ReplayEntry",
    "ReplayProvider",
]


MAX_REPLAY_BYTES = 512 * 1024 * 1024
"""The longest replay file read (a run's ``results.jsonl`` of thousands of long replies fits)."""


TURN_EVERY = 16
"""Answers a provider that asks no server gives between two turns of the event loop."""


class _Offline(LLMProvider):
    """A provider that answers from memory: it never waits, so a run of it would never let
    the event loop turn, and a signal the loop handles (SIGTERM) would wait for the run's
    end; every :data:`TURN_EVERY` answers it yields the loop a turn."""

    _answered = 0

    async def _turn(self) -> None:
        self._answered += 1
        if self._answered % TURN_EVERY == 0:
            await asyncio.sleep(0)


class ReferenceProvider(_Offline):
    """Answers every case with its reference answer, written as the Output Format asks,
    and every code-mode program (``<scaffold>-program-<k>``) with the program built from
    the reference implementation (:mod:`verification.catalog.reference_programs`).

    It checks the harness end to end with no key and no network; it certifies no model. Its
    answers come from the catalog: each case's expected answer, rendered by its spec.
    """

    name = "reference"
    dry_run = True
    label = "DRY RUN"

    def __init__(
        self,
        catalog: Catalog | None = None,
        *,
        answers: Mapping[str, str] | None = None,
        retry_policy: RetryPolicy | None = None,
    ) -> None:
        super().__init__(retry_policy=retry_policy)
        self.catalog = catalog
        self._answers = dict(answers or {})
        self._unanswerable: dict[str, str] = {}
        """Cases whose plugin could not write their answer, with its error."""
        self._later: dict[str, PlannedCase] = {}
        """Cases to be drawn as they are asked: answered once they are."""

    async def prepare(self, cases: Sequence[Planned]) -> None:
        self._refuse_programs_of_plugins(cases)
        for case in cases:
            if isinstance(case, PlannedCase):
                self._later[case.id] = case
            else:
                self._derive(case)

    def _refuse_programs_of_plugins(self, cases: Sequence[Planned]) -> None:
        """Code mode's dry run builds each program from the harness's own reference: a
        plugin's scaffold has none to build from, and every program of it was an
        unanswerable case, 180 infrastructure errors after the run began (hunt ff). Refused
        before the first request instead, naming what does check it."""
        programs = {key[0] for case in cases if (key := parse_program_id(case.id)) is not None}
        if not programs:
            return
        from verification.catalog.reference_programs import has_bundled_reference

        catalog = self.catalog or default_catalog()
        plugins = sorted(name for name in programs if not has_bundled_reference(catalog[name]))
        if plugins:
            raise ConfigurationError(
                f"--answer code with --provider reference builds each program from the "
                f"harness's own reference implementations; {', '.join(plugins)} "
                f"{'has' if len(plugins) == 1 else 'have'} a plugin's reference, from which "
                "none is built: check code mode with --provider replay and a program of your "
                "own (a replay file's text for each <scaffold>-program-<k>), or leave "
                f"{'it' if len(plugins) == 1 else 'them'} out of this run"
            )

    def _derive(self, planned: Planned) -> None:
        """Write ``planned``'s answer (or why it has none), drawing it if it is not yet."""
        catalog = self.catalog or default_catalog()
        program = parse_program_id(planned.id) is not None
        if program:  # only code mode needs it (an import statement per case costs a lookup)
            from verification.catalog.reference_programs import reference_program

        try:
            spec = catalog.get_spec(planned.scaffold)
            if program:
                answer = "```python\n" + reference_program(spec) + "```"
            else:
                answer = spec.render_answer(drawn(planned).expected)
        except (PluginError, SpecError) as exc:  # that case has no answer; others do
            self._unanswerable[planned.id] = str(exc)
        else:
            self._answers[planned.id] = answer

    async def generate(self, request: LLMRequest) -> LLMResponse:
        await self._turn()
        later = self._later.pop(request.case_id or "", None)
        if later is not None:
            self._derive(later)
        if request.case_id in self._unanswerable:
            raise LLMError(self._unanswerable[request.case_id])
        if request.case_id not in self._answers:
            raise LLMError(f"the reference provider has no answer for case {request.case_id!r}")
        text = "Reference answer (dry run).\n\n" + self._answers[request.case_id]
        return LLMResponse(
            content=text, model="reference", stop_reason="end_turn", source="reference"
        )


REPLAY_ERRORS: dict[str, type[LLMError]] = {
    "rate_limit": RateLimitError,
    "transient": TransientLLMError,
    "auth": AuthenticationError,
    "invalid_request": InvalidRequestError,
    "error": LLMError,
}
"""Scripted failures a replay line may ask for with ``"error": NAME``."""


class ReplayProvider(_Offline):
    """Answers by case id from a JSONL file of recorded or scripted responses.

    Each line is an object with ``case_id`` and either ``raw_response`` (or ``text``), with
    optional ``stop_reason``, ``model`` and ``usage``, or ``error`` (one of
    :data:`REPLAY_ERRORS`, with optional ``retry_after``). Lines for the same case are served
    in order, the last one again once they run out. A run's own ``results.jsonl`` is a valid
    replay file (its ``infra_error`` lines carry no response and are skipped).

    A line may name its ``arm`` (a journal line of a ``--baseline`` pair does): a request of
    an arm is served that arm's lines of the case, or its lines that name no arm when it has
    none of that arm, never another arm's; a request of no arm is served every line. So the
    two journals of a pair, joined in one file, replay as the pair: each run of a pair has
    its own provider, and each arm is served what it answered.
    """

    name = "replay"
    dry_run = True
    label = "REPLAY"

    def __init__(self, path: Path, *, retry_policy: RetryPolicy | None = None) -> None:
        super().__init__(retry_policy=retry_policy)
        self.path = path
        self._scripts = _read_replay_file(path)
        self._served: dict[tuple[str | None, str], int] = {}

    async def generate(self, request: LLMRequest) -> LLMResponse:
        await self._turn()
        script = self._script(request)
        key = (request.arm, request.case_id or "")
        served = self._served.get(key, 0)
        self._served[key] = served + 1
        entry = script[min(served, len(script) - 1)]
        if None not in (entry.input, request.case_input) and not _same_input(
            entry.input, request.case_input
        ):
            raise LLMError(
                f"the replay file's answer to case {request.case_id} was recorded for another "
                "input: the case is drawn otherwise now (its generator or the seed changed "
                "since it was recorded), so it is not replayed"
            )
        if entry.error is not None:
            error_class = REPLAY_ERRORS[entry.error]
            message = f"scripted {entry.error} for case {request.case_id}"
            if issubclass(error_class, RateLimitError | TransientLLMError):
                raise error_class(message, retry_after=entry.retry_after)
            raise error_class(message)
        return LLMResponse(
            content=entry.reply or "",
            model=entry.model or "replay",
            usage=dict(entry.usage),
            stop_reason=entry.stop_reason or "end_turn",
            source="replay",
        )

    def _script(self, request: LLMRequest) -> list[ReplayEntry]:
        """The lines that answer ``request``: its case's, of its arm (see the class)."""
        lines = self._scripts.get(request.case_id or "", [])
        if request.arm is not None:
            lines = [e for e in lines if e.arm == request.arm] or [
                e for e in lines if e.arm is None
            ]
        if not lines:
            arm = "" if request.arm is None else f" of arm {request.arm!r}"
            raise LLMError(f"no recorded response for case {request.case_id!r}{arm} in {self.path}")
        return lines

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "replay_file": str(self.path)}


def _same_input(recorded: Any, drawn: Any) -> bool:
    """Whether a journal line's input is the case's: the same JSON text, whatever the order
    of its keys (``==`` took ``6.0`` for ``6`` and ``true`` for ``1``, inputs whose prompts
    differ: hunt aj)."""
    try:
        return bool(
            json.dumps(recorded, sort_keys=True, allow_nan=False)
            == json.dumps(drawn, sort_keys=True, allow_nan=False)
        )
    except (TypeError, ValueError, RecursionError):  # no JSON data: as Python sees it
        return bool(recorded == drawn)


class ReplayEntry(BaseModel):
    """One line of a replay file (a run's ``results.jsonl`` line is one too)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    case_id: str
    arm: Arm | None = None
    input: Any = None
    """The input the line answered (a journal line's): checked against the case's."""
    text: str | None = None
    raw_response: str | None = None
    error: Literal["rate_limit", "transient", "auth", "invalid_request", "error"] | None = None
    retry_after: float | None = Field(default=None, ge=0, le=3600)
    stop_reason: str | None = None
    model: str | None = None
    usage: dict[str, int] = Field(default_factory=dict)
    outcome: str | None = None

    @property
    def reply(self) -> str | None:
        return self.text if self.text is not None else self.raw_response


def _read_replay_file(path: Path) -> dict[str, list[ReplayEntry]]:
    # A regular file only, opened without blocking and read to a bound: a FIFO would hang
    # the event loop's thread, /dev/zero fill the memory.
    try:
        # Lines end at line feeds alone: splitlines() also broke them at U+2028, U+2029 and
        # U+0085, which a JSON string may hold unescaped (hunt ll 3).
        lines = read_stored_text(path, max_bytes=MAX_REPLAY_BYTES).split("\n")
    except (OSError, StoredFileError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else str(exc).removeprefix(f"{path}: ")
        raise ConfigurationError(
            f"cannot read the replay file {path}: {why}. "
            "Set --replay-file (or VERIFY_REPLAY_FILE) to a JSONL file of responses."
        ) from None
    scripts: dict[str, list[ReplayEntry]] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            # json, not pydantic's parser: recorded replies may hold lone surrogate escapes.
            entry = ReplayEntry.model_validate(json.loads(line))
        except (ValueError, RecursionError) as exc:
            if not isinstance(exc, ValidationError):
                raise ConfigurationError(f"{path}:{number}: not a JSON object ({exc})") from None
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "line"
            raise ConfigurationError(f"{path}:{number}: {where}: {first['msg']}") from None
        if entry.error is None and entry.reply is None:
            if entry.outcome == "infra_error":
                continue  # a journal line with no response: nothing to replay
            raise ConfigurationError(
                f"{path}:{number}: give 'raw_response' (or 'text') as a string, or 'error'"
            )
        scripts.setdefault(entry.case_id, []).append(entry)
    return scripts
