"""A stand-in model behind the fake server: it answers a scaffold's cases right below a
threshold size and wrong from it, the way a real model's accuracy collapses past some size
(the envelope search's done-when test).

It reads the case's input from the user prompt (the fenced JSON the prompt builder writes),
measures its size with the spec's own measure (dijkstra: its vertices), computes the right
answer with the reference and renders it as the Output Format asks; from the threshold on it
sends one of the spec's own mutants of that answer (a wrong answer the validator rejects).
It never looks at a case id: what it knows is what a model is sent.
"""

from __future__ import annotations

import json
import random
import re
import threading
from collections import Counter
from typing import Any

from tests.support.fake_server import RecordedRequest, Reply, message
from verification.cases import TestCase
from verification.catalog import default_catalog
from verification.catalog.spec import ScaffoldSpec

__all__ = ["ThresholdModel"]

_INPUT = re.compile(r"```json\n(.*?)\n```", re.S)


class ThresholdModel:
    """A fake-server step (any number of requests) answering ``scaffold`` right below
    ``threshold`` and wrong from it; counts the requests it answered at each size."""

    def __init__(self, scaffold: str, threshold: int) -> None:
        self.spec: ScaffoldSpec = default_catalog()[scaffold]
        self.threshold = threshold
        self.sizes: Counter[int] = Counter()
        self._lock = threading.Lock()

    def answer(self, sent: RecordedRequest) -> Reply:
        """The reply to one Messages API request."""
        prompt = sent.json["messages"][0]["content"]
        found = _INPUT.search(prompt if isinstance(prompt, str) else json.dumps(prompt))
        assert found is not None, "the user prompt holds the case's input as fenced JSON"
        given: dict[str, Any] = json.loads(found.group(1))
        size = self.spec.size.measure(given)
        with self._lock:
            self.sizes[size] += 1
        expected = self.spec.reference(**given)
        if size < self.threshold:
            return message(self.spec.render_answer(expected), output_tokens=400)
        case = TestCase(
            id=f"{self.spec.name}-standard-000",
            scaffold=self.spec.name,
            tier="standard",
            input=given,
            expected=expected,
        )
        wrong = self.spec.mutants(case, random.Random(found.group(1)))[0]
        return message(self.spec.render_answer(wrong), output_tokens=400)
