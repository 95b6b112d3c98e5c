"""What kind of answer a run asks for and how it is judged: the :class:`AnswerKind`
protocol.

A kind writes a case's prompt, judges a reply to it (what the answer was, whether it
passed, at which level it failed) and writes the re-prompt that asks again after a reply
that could not be read. Today's kind is the model's worked trace of the algorithm
(:mod:`verification.run.trace_answers`), or a program run on every case
(:mod:`verification.run.code_answers`); a kind is chosen by name
(:mod:`verification.run.strategies`) and the runner never looks inside it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple, Protocol

from verification.cases import TestCase
from verification.catalog import Catalog
from verification.catalog.spec import ScaffoldSpec
from verification.config import RunConfig
from verification.llm.base import LLMRequest, LLMResponse
from verification.llm.prompt_builder import Prompt, PromptBuilder
from verification.llm.replies import REASONING_ONLY_STOP
from verification.store.records import AttemptRecord, Outcome, ProgramRun
from verification.validators.base import Validator

__all__ = ["UNFINISHED_STOPS", "AnswerKind", "AnswerKindFactory", "Judgement", "stopped_early"]


class Judgement(NamedTuple):
    """A reply's outcome, the level that failed, why, the answer read and the leniency
    the reading needed (and, for a code-mode program, its run on the suite)."""

    outcome: Outcome
    level: int | None
    reason: str
    answer: Any = None
    leniency: tuple[str, ...] = ()
    program: ProgramRun | None = None


class AnswerKind(Protocol):
    """Asks a case and judges the reply (a plugin's schema or validator may raise
    :class:`~verification.errors.PluginError`: the case is then the plugin's failure)."""

    def prompt(self, spec: ScaffoldSpec, case: TestCase) -> Prompt:
        """The first prompt of ``case``."""
        ...

    def judge(
        self,
        spec: ScaffoldSpec,
        validator: Validator,
        case: TestCase,
        request: LLMRequest,
        response: LLMResponse,
    ) -> Judgement | Awaitable[Judgement]:
        """The verdict on ``response``, the reply to ``request`` (awaited when a kind
        judges by running something, as code mode runs a program)."""
        ...

    def needs_repair(self, record: AttemptRecord) -> bool:
        """Whether the attempt ``record`` could not be read, so a repair may ask again."""
        ...

    def repair(self, prompt: Prompt, reason: str) -> Prompt:
        """The prompt that asks again after a reply to ``prompt`` unread for ``reason``."""
        ...


AnswerKindFactory = Callable[[PromptBuilder, Catalog, RunConfig], AnswerKind]
"""Makes a run's answer kind from its prompt builder, catalog and configuration."""


CONTEXT_REFUSED = "the request does not fit the model's context window"
"""The reason of a case whose request a server refused for its context window (HTTP 400):
an infrastructure error of that case (the server's setting), said on the terminal."""


UNFINISHED_STOPS = {
    # vLLM: the server gave the request up mid-way.
    "abort": "the server aborted the reply before its end (finish_reason abort)",
    # The Messages API paused a long turn for the caller to continue, which the harness
    # never does (it offers no server tools; hunt qq).
    "pause_turn": "the server paused the turn before its end (stop_reason pause_turn)",
}
"""The stop reasons of a reply the server did not finish, and what each says: no answer,
an infrastructure error asked again on resume, never judged again from the journal (hunt
zz: a code-mode resume ran such a reply again and asked nothing, for ever)."""


def stopped_early(response: LLMResponse, max_tokens: int) -> Judgement | None:
    """The verdict on a reply that stopped before its end (its token limit, the model's
    context window, a refusal), whatever kind of answer was asked; ``None`` otherwise."""
    if response.stop_reason == "max_tokens":
        return Judgement("truncated", 1, f"the reply hit the {max_tokens}-token limit")
    if response.stop_reason == "model_context_window_exceeded":
        return Judgement("truncated", 1, "the reply ran out of the model's context window")
    if response.stop_reason == "refusal":
        # The model declined: not a formatting bug, so no level takes the blame.
        return Judgement("refused", None, "the model refused to answer (stop_reason refusal)")
    unfinished = UNFINISHED_STOPS.get(response.stop_reason or "")
    if unfinished is not None:
        return Judgement("infra_error", None, f"{unfinished}: asked again on resume")
    if response.stop_reason == REASONING_ONLY_STOP:
        return Judgement(
            "failed",
            1,
            "the server sent only reasoning (reasoning_content) and no answer text: the model "
            "gave no final answer, or the server's reasoning parser filed it as reasoning",
        )
    return None
