"""The ``trace`` answer kind: the model works the algorithm through on the case in the
scaffold's output format; the parser reads the answer (levels 1 and 2: found, well
formed) and the scaffold's validator judges it (level 3; level 2 when it breaks only a form
rule of the Output Format). A reply that could not be read
is repaired by re-prompting with the parser's reason."""

from __future__ import annotations

from dataclasses import dataclass, field

from verification.cases import TestCase
from verification.catalog import Catalog
from verification.catalog.spec import ScaffoldSpec
from verification.llm.base import LLMRequest, LLMResponse
from verification.llm.prompt_builder import Prompt, PromptBuilder
from verification.llm.response_parser import ResponseParser
from verification.run.answers import Judgement, stopped_early
from verification.store.records import AttemptRecord
from verification.validators.base import Validator
from verification.validators.judging import failed_level, judge_answer

__all__ = ["TraceAnswers"]


@dataclass
class TraceAnswers:
    """The worked trace, asked through ``prompt_builder`` and read by the catalog's parser."""

    prompt_builder: PromptBuilder
    catalog: Catalog
    parser: ResponseParser = field(init=False)

    def __post_init__(self) -> None:
        self.parser = ResponseParser(self.catalog)

    def prompt(self, spec: ScaffoldSpec, case: TestCase) -> Prompt:
        return self.prompt_builder.build(spec, case.input)

    def judge(
        self,
        spec: ScaffoldSpec,
        validator: Validator,
        case: TestCase,
        request: LLMRequest,
        response: LLMResponse,
    ) -> Judgement:
        parsed = self.parser.extract(spec, response.content)
        read = (parsed.answer, tuple(parsed.leniency))
        early = stopped_early(response, request.max_tokens)
        if early is not None:
            return early._replace(answer=read[0], leniency=read[1])
        if not parsed.ok:
            return Judgement("failed", parsed.failed_level, parsed.reason, *read)
        verdict = judge_answer(validator, parsed.answer, case)
        if verdict.is_valid:
            return Judgement("passed", None, verdict.message, *read)
        return Judgement("failed", failed_level(verdict), verdict.message, *read)

    def needs_repair(self, record: AttemptRecord) -> bool:
        return record.outcome == "failed" and record.level in (1, 2)

    def repair(self, prompt: Prompt, reason: str) -> Prompt:
        return PromptBuilder.repair(prompt, reason)
