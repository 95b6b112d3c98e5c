"""The run's three choices, each a strategy registered by name and chosen once when a run
is composed: its transport (how requests are sent), its answer kind (what is asked and how
it is judged) and its stopping rule (how much of the plan is asked).

A new strategy is a module implementing its protocol
(:class:`~verification.run.transport.Transport`,
:class:`~verification.run.answers.AnswerKind`,
:class:`~verification.run.stopping.StoppingRule`) and one registration: a line below for
a built-in one, or a ``register_*`` call. The runner looks each up by name and never
branches on which it got.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

from verification.catalog import Catalog
from verification.config import RunConfig
from verification.errors import ConfigurationError
from verification.llm.prompt_builder import PromptBuilder
from verification.run.answers import AnswerKind, AnswerKindFactory
from verification.run.batch_mode import BatchTransport
from verification.run.code_answers import CodeAnswers
from verification.run.concurrent import ConcurrentTransport
from verification.run.envelope_climb import EnvelopeClimb
from verification.run.looks import PlannedLooks
from verification.run.plan import BATCHES, CONCURRENT, ENVELOPE, FIXED, LOOKS
from verification.run.stopping import FixedPlan, StoppingFactory
from verification.run.trace_answers import TraceAnswers
from verification.run.transport import TransportFactory

__all__ = [
    "ANSWER_KINDS",
    "STOPPING_RULES",
    "TRANSPORTS",
    "Strategies",
    "register_answer_kind",
    "register_stopping_rule",
    "register_transport",
]

F = TypeVar("F")


class Strategies(Generic[F]):
    """The strategies of one kind, by name: a name is taken once (a second registration
    is refused, naming it), an unknown one is refused naming those there are."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._made: dict[str, F] = {}

    def register(self, name: str, factory: F) -> F:
        """Make ``factory`` the strategy called ``name``."""
        if name in self._made:
            raise ConfigurationError(f"a {self.kind} named {name!r} is registered already")
        self._made[name] = factory
        return factory

    def unregister(self, name: str) -> None:
        """Forget the strategy ``name`` (a test's, say)."""
        del self._made[name]

    def __getitem__(self, name: str) -> F:
        try:
            return self._made[name]
        except KeyError:
            known = ", ".join(sorted(self._made))
            raise ConfigurationError(
                f"no {self.kind} named {name!r} (there are: {known})"
            ) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._made)


TRANSPORTS: Strategies[TransportFactory] = Strategies("transport")
ANSWER_KINDS: Strategies[AnswerKindFactory] = Strategies("answer kind")
STOPPING_RULES: Strategies[StoppingFactory] = Strategies("stopping rule")
register_transport = TRANSPORTS.register
register_answer_kind = ANSWER_KINDS.register
register_stopping_rule = STOPPING_RULES.register

register_transport(CONCURRENT, ConcurrentTransport)
register_transport(BATCHES, BatchTransport)


def _trace_answers(builder: PromptBuilder, catalog: Catalog, config: RunConfig) -> AnswerKind:
    return TraceAnswers(builder, catalog)


def _code_answers(builder: PromptBuilder, catalog: Catalog, config: RunConfig) -> AnswerKind:
    return CodeAnswers(builder, catalog, sandbox=config.sandbox)


register_answer_kind("trace", _trace_answers)
register_answer_kind("code", _code_answers)
register_stopping_rule(FIXED, FixedPlan)
register_stopping_rule(LOOKS, PlannedLooks)
register_stopping_rule(ENVELOPE, EnvelopeClimb)
